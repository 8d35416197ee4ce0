package serve

// Tests of how the configuration reaches the services.

import (
	"errors"
	"testing"
	"time"

	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/engineplay"
)

// TestEngineOptions: every engine.* key reaches the engine's options.
func TestEngineOptions(t *testing.T) {
	for _, c := range []struct {
		name   string
		engine config.Engine
		check  func(engineplay.Options) bool
	}{
		{"defaults", config.Default().Engine, func(o engineplay.Options) bool {
			return o.HashMB == 64 && o.Workers == 1 && o.MaxThink == 10*time.Second && o.ReplyDelay == time.Second &&
				o.AnalysisTime == 200*time.Millisecond && o.AnalysisBudget == 45*time.Second && o.External == nil &&
				o.MaxGamesPerUser == 2 && o.AnalysisWorkers == 1 && o.AnalysisCooldown == 2*time.Minute
		}},
		{"every key", config.Engine{HashMB: 256, ExternalPath: "/usr/games/stockfish", Threads: 4, BotWorkers: 3, MaxThink: 2 * time.Second,
			ReplyDelay: 300 * time.Millisecond, AnalysisTime: 50 * time.Millisecond, AnalysisBudget: 20 * time.Second,
			MaxGamesPerUser: 4, AnalysisWorkers: 2, AnalysisCooldown: time.Minute},
			func(o engineplay.Options) bool {
				return o.HashMB == 256 && o.Workers == 3 && o.MaxThink == 2*time.Second && o.ReplyDelay == 300*time.Millisecond &&
					o.AnalysisTime == 50*time.Millisecond && o.AnalysisBudget == 20*time.Second &&
					o.MaxGamesPerUser == 4 && o.AnalysisWorkers == 2 && o.AnalysisCooldown == time.Minute &&
					o.External != nil && *o.External == engineplay.ExternalConfig{Path: "/usr/games/stockfish", HashMB: 256, Threads: 4}
			}},
		// 0 in the file means no delay; 0 in engineplay.Options means its default.
		{"reply_delay 0 is none", config.Engine{HashMB: 1, Threads: 1, BotWorkers: 1}, func(o engineplay.Options) bool { return o.ReplyDelay < 0 }},
		{"analysis_cooldown 0 is none", config.Engine{HashMB: 1, Threads: 1, BotWorkers: 1}, func(o engineplay.Options) bool { return o.AnalysisCooldown < 0 }},
	} {
		cfg := config.Default()
		cfg.Engine = c.engine
		if o := engineOptions(cfg, timers.SystemClock{}, nil); !c.check(o) {
			t.Errorf("%s: %+v", c.name, o)
		}
	}
}

// TestCheckConfig: the bot's check accepts config.example.yaml and what /settings
// time_control accepts, refuses what is not a time control, naming the key and line.
func TestCheckConfig(t *testing.T) {
	if _, err := config.Load("../config.example.yaml", nil, CheckConfig); err != nil {
		t.Fatalf("config.example.yaml: %v", err)
	}
	for control, ok := range map[string]bool{"10+5": true, "3+2": true, "1d": true, "-": true, "15m+10s": true,
		"fast": false, "?": false, "10+": false, "": false} {
		cfg := config.Default()
		cfg.Games.DefaultTimeControl = control
		err := CheckConfig(cfg)
		var ce *config.Error
		if (err == nil) != ok || (err != nil && (!errors.As(err, &ce) || ce.Key != "games.default_time_control")) {
			t.Errorf("%q: %v", control, err)
		}
	}
}
