package commands

import (
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/puzzles"
	"github.com/gambitchess/gambit/storage"
)

// /settings puzzle [channel] [time] [timezone] [min_rating] [max_rating] [off]: the
// daily puzzle post, the puzzles' part of the server's settings.

// puzzleSettingsOption is /settings puzzle: the daily post's channel, time, time zone
// and rating range.
func puzzleSettingsOption() *discordgo.ApplicationCommandOption {
	zero := 0.0
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionSubCommand, Name: "puzzle", Description: "The daily puzzle post: channel, time, time zone, ratings",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionChannel, Name: "channel", Description: "Where the puzzle of the day is posted",
				ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}},
			{Type: discordgo.ApplicationCommandOptionString, Name: "time", Description: "Time of day of the post, HH:MM (default 00:00)", MaxLength: 5},
			{Type: discordgo.ApplicationCommandOptionString, Name: "timezone", Description: "IANA time zone, e.g. Europe/Paris (default UTC)", MaxLength: 64},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "min_rating", Description: "Lowest puzzle rating (0: none)", MinValue: &zero, MaxValue: 4000},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "max_rating", Description: "Highest puzzle rating (0: none)", MinValue: &zero, MaxValue: 4000},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "off", Description: "Stop the daily post"},
		},
	}
}

type puzzleSettingsOptions struct {
	Channel   string `option:"channel"`
	Time      string `option:"time"`
	Zone      string `option:"timezone"`
	MinRating *int64 `option:"min_rating"`
	MaxRating *int64 `option:"max_rating"`
	Off       bool   `option:"off"`
}

// applyPuzzleSettings changes gs.Puzzle as /settings puzzle asks.
func applyPuzzleSettings(r *Request, gs *storage.GuildSettings, now time.Time) error {
	var o puzzleSettingsOptions
	if err := DecodeOptions(r, &o); err != nil {
		return err
	}
	ps := gs.Puzzle
	old := ps
	if o.Channel != "" {
		ps.Channel = o.Channel
	}
	if o.Off {
		ps.Channel = ""
	}
	if t := strings.TrimSpace(o.Time); t != "" {
		m, err := puzzles.ParseTimeOfDay(t)
		if err != nil {
			return Errorf("Give the time as HH:MM, e.g. 09:00.")
		}
		ps.Time = fmt.Sprintf("%02d:%02d", m/60, m%60)
	}
	if z := strings.TrimSpace(o.Zone); z != "" {
		if strings.EqualFold(z, "UTC") {
			z = ""
		}
		ps.Zone = z
		if _, err := ps.Location(); err != nil {
			return Errorf("Unknown time zone %q: give an IANA name such as Europe/Paris or America/New_York.", o.Zone)
		}
	}
	if o.MinRating != nil {
		ps.MinRating = int(*o.MinRating)
	}
	if o.MaxRating != nil {
		ps.MaxRating = int(*o.MaxRating)
	}
	if err := ps.Validate(); err != nil {
		return Explain(err, sentence(err.Error()))
	}
	if ps.Channel != old.Channel || ps.Time != old.Time || ps.Zone != old.Zone {
		ps.Since = now
	}
	gs.Puzzle = ps
	return nil
}

// describePuzzleSettings is the line of /settings show about the daily puzzle.
func describePuzzleSettings(ps storage.PuzzleSettings, now time.Time) string {
	if ps.Channel == "" {
		return "\n• Daily puzzle: not posted (members still have one with /puzzle today)"
	}
	zone := ps.Zone
	if zone == "" {
		zone = "UTC"
	}
	at := ps.Time
	if at == "" {
		at = "00:00"
	}
	s := fmt.Sprintf("\n• Daily puzzle: in <#%s> at %s %s", ps.Channel, at, zone)
	if ps.MinRating > 0 || ps.MaxRating > 0 {
		hi := "up"
		if ps.MaxRating > 0 {
			hi = fmt.Sprint(ps.MaxRating)
		}
		s += fmt.Sprintf(", rated %d to %s", ps.MinRating, hi)
	}
	if _, next, err := puzzles.DayAt(ps, now); err == nil {
		s += fmt.Sprintf(" (next <t:%d:R>)", next.Unix())
	}
	return s
}
