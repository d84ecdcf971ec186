package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Turn timer limits of a server's settings.
const (
	MinTurnTimeout = 15 * time.Second
	MaxTurnTimeout = 24 * time.Hour
)

// Settings are a server's own settings, stored per guild.
type Settings struct {
	TurnTimeout time.Duration `json:"turn_timeout,omitempty"`
}

// Refusals of a settings change.
var (
	// ErrManageServer: only members who may manage the server change its
	// settings.
	ErrManageServer = errors.New("only members who may manage the server change its settings")
	// ErrTimeoutRange: the turn timer is out of [MinTurnTimeout,
	// MaxTurnTimeout].
	ErrTimeoutRange = errors.New("turn timer out of range")
)

// TurnTimeoutOr is the server's turn timer, or def when it has none (or
// one out of range).
func (s Settings) TurnTimeoutOr(def time.Duration) time.Duration {
	if s.TurnTimeout >= MinTurnTimeout && s.TurnTimeout <= MaxTurnTimeout {
		return s.TurnTimeout
	}
	return def
}

// LoadSettings reads the guild's settings; none stored, or unreadable ones,
// are the defaults (the zero Settings).
func LoadSettings(ctx context.Context, st Tables, guildID string) Settings {
	var s Settings
	data, ok, err := st.GuildSettings(ctx, guildID)
	if err != nil || !ok || json.Unmarshal(data, &s) != nil {
		return Settings{}
	}
	return s
}

// SetTurnTimeout changes the guild's turn timer to d: a member who may
// manage the server (mayManage), a timer in range. It returns the settings
// now stored, or why not (ErrManageServer, ErrTimeoutRange, the store's
// error).
func SetTurnTimeout(ctx context.Context, st Tables, guildID string, d time.Duration, mayManage bool) (Settings, error) {
	if !mayManage {
		return Settings{}, ErrManageServer
	}
	if d < MinTurnTimeout || d > MaxTurnTimeout {
		return Settings{}, ErrTimeoutRange
	}
	s := LoadSettings(ctx, st, guildID)
	s.TurnTimeout = d
	data, err := json.Marshal(s)
	if err != nil {
		return Settings{}, fmt.Errorf("session: encode settings: %w", err)
	}
	if err := st.PutGuildSettings(ctx, guildID, data); err != nil {
		return Settings{}, fmt.Errorf("session: save settings: %w", err)
	}
	return s, nil
}
