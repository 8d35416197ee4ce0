package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/storage"
)

// MsgStoreNotAnswering is the answer to a command that ran out of time because the
// database did not answer: whatever it had not written by then is never written.
const MsgStoreNotAnswering = "The database is not answering right now, so this was not done, and it will not be done later. " +
	"Please try again in a moment (check with /board first)."

// MsgDiskFull is the answer to a command whose write found the bot's disk full:
// nothing of it was saved.
const MsgDiskFull = "The bot's disk is full, so this was not saved. Please try again later; the bot's operator has to free some space."

// ResponseKind says what a Response does.
type ResponseKind int

// The kinds of response.
const (
	// NewMessage posts a new message (callback 4, or a followup after a deferral).
	NewMessage ResponseKind = iota
	// UpdateMessage replaces the message carrying the component (callback 7).
	UpdateMessage
	// ShowChoices answers an autocomplete request (callback 8).
	ShowChoices
	// ShowModal opens a modal (callback 9).
	ShowModal
	// LaunchActivity opens the app's Activity for the user who acted (callback 12,
	// LAUNCH_ACTIVITY); it cannot follow a deferral.
	LaunchActivity
)

// Response is what a handler answers. The router sends it.
type Response struct {
	Kind       ResponseKind
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	Files      []File
	// Ephemeral shows the message only to the user who acted.
	Ephemeral bool
	// Mentions are the only users the message may ping; roles, @everyone and any
	// other user named in the text never ping, whatever the text contains.
	Mentions []string
	// Choices answers autocomplete.
	Choices []*discordgo.ApplicationCommandOptionChoice
	// ModalID and ModalTitle describe a modal; Components holds its text inputs.
	ModalID, ModalTitle string
	// Then runs after the response has been delivered, for work that may follow it
	// (posting the board in the game's thread, starting a thread). Its error is
	// logged; the user already has their answer.
	Then func(ctx context.Context) error
}

// File is an attachment. Data is kept as bytes so a request can be sent again
// (after a 429) with the same file.
type File struct {
	Name, ContentType string
	Data              []byte
}

// AllowedMentions returns the allowed_mentions that let exactly the given users be
// pinged (none when ids is empty).
func AllowedMentions(ids ...string) *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: append([]string(nil), ids...)}
}

// Reply returns a public message.
func Reply(format string, args ...any) *Response {
	return &Response{Content: fmt.Sprintf(format, args...)}
}

// Private returns an ephemeral message.
func Private(format string, args ...any) *Response {
	return &Response{Content: fmt.Sprintf(format, args...), Ephemeral: true}
}

// UserError is an error the user can do something about: its message is shown to
// them as it is, ephemerally. Err, when set, is the cause for the log.
type UserError struct {
	Message string
	Err     error
	// Private marks a message that shows what only the user may see (a line of their
	// conditional moves): the log records the refusal, not its text.
	Private bool
}

func (e *UserError) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *UserError) Unwrap() error { return e.Err }

// Errorf returns a UserError with a formatted message.
func Errorf(format string, args ...any) error {
	return &UserError{Message: fmt.Sprintf(format, args...)}
}

// Explain wraps cause in a UserError that shows msg.
func Explain(cause error, msg string) error {
	return &UserError{Message: msg, Err: cause}
}

// UserMessage returns what the user should read about err: a UserError's message,
// or a generic apology for anything else (the cause belongs in the log).
func UserMessage(err error) string {
	var ue *UserError
	if errors.As(err, &ue) {
		return ue.Message
	}
	switch {
	case errors.Is(err, storage.ErrOutcomeUnknown):
		return "The database did not confirm this in time, so it may or may not have gone through. " +
			"Check with /board before trying again."
	case errors.Is(err, storage.ErrDiskFull):
		return MsgDiskFull
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, storage.ErrUnavailable):
		return MsgStoreNotAnswering
	}
	return "Something went wrong on our side and it has been logged. Please try again in a moment."
}
