// Package config reads qwixxbot's configuration: a TOML file, strict about
// unknown keys, with defaults for every key and environment variables that
// override it.
//
// Every key section.key can be overridden by QWIXXBOT_SECTION_KEY (for
// example QWIXXBOT_STORE_PATH for store.path, QWIXXBOT_GAME_TURN_TIMEOUT for
// game.turn_timeout). The bot token is best given as QWIXXBOT_TOKEN, which
// wins over both discord.token in the file and QWIXXBOT_DISCORD_TOKEN.
//
// The token is a Secret: printing or logging a Config, or any part of it,
// shows "set" or "unset" in its place, never the token.
package config

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/rs/zerolog"
)

// Config is the whole configuration. Load returns one that is valid.
type Config struct {
	Discord Discord
	Store   Store
	Log     Log
	Game    Game
	Sandbox Sandbox
}

// Discord is the [discord] section: how to reach Discord.
type Discord struct {
	// Token is the bot token, without the "Bot " prefix.
	Token Secret
	// ApplicationID is the application (snowflake) ID; optional.
	ApplicationID string
	// BaseURL is where Discord's API is: https://discord.com or any
	// Discord-compatible server.
	BaseURL string
	// GuildID, if set, registers the slash commands to this one guild
	// (quick to update, for development) instead of globally.
	GuildID string
	// ShardID and ShardCount select the gateway shard this process runs;
	// 0 <= ShardID < ShardCount.
	ShardID    int
	ShardCount int
	// RateLimit is the bot token's global rate limit in requests per
	// second (Discord's default 50; Discord raises it for large bots on
	// request). The processes of the token share it.
	RateLimit int
	// InteractionsAddr, if set, is where the bot serves Discord's HTTP
	// interactions endpoint (host:port, behind a TLS-terminating proxy);
	// empty: interactions come on the gateway only.
	InteractionsAddr string
	// PublicKey is the application's public key (64 hexadecimal digits,
	// General Information > Public Key) that signs the interactions
	// POSTed to InteractionsAddr; required with it.
	PublicKey string
}

// Store is the [store] section.
type Store struct {
	// Path is the bbolt database file.
	Path string
	// ResultMaxAge is how long the results of finished games (statistics,
	// leaderboards) are kept; 0 keeps them for ever.
	ResultMaxAge time.Duration
	// ResultsPerGuild is the most results a guild keeps, the oldest going
	// first.
	ResultsPerGuild int
	// RecordMaxAge is how long game records are kept; 0 keeps them until
	// RecordsPerGuild pushes them out.
	RecordMaxAge time.Duration
	// RecordsPerGuild is the most game records a guild keeps.
	RecordsPerGuild int
	// GuildGrace is how long a guild's results, records and settings
	// outlive the bot's leaving the guild; 0 deletes them at the next
	// hourly sweep.
	GuildGrace time.Duration
	// BackupDir is where the running bot writes backups of its database
	// (every BackupEvery, and when asked on the debug listener); empty
	// writes none on a schedule.
	BackupDir string
	// BackupEvery is how often a backup is written into BackupDir; 0
	// writes none on a schedule.
	BackupEvery time.Duration
	// BackupKeep is how many backups BackupDir keeps, the oldest going
	// first.
	BackupKeep int
}

// Limits of the history's caps per guild: a leaderboard reads all of a
// guild's results, and a record is some kilobytes.
const (
	MaxResultsPerGuild = 100_000
	MaxRecordsPerGuild = 10_000
)

// Log is the [log] section.
type Log struct {
	// Level is debug, info, warn or error.
	Level string
	// Format is json or console.
	Format string
	// DebugAddr, if set, is where the bot serves Go's /debug/pprof/ and
	// /debug/vars (memory figures and the bot's counters) over HTTP: keep
	// it on a loopback address. Empty (the default) serves nothing.
	DebugAddr string
}

// Game is the [game] section: defaults for games in every guild.
type Game struct {
	// TurnTimeout is how long players have for an action.
	TurnTimeout time.Duration
	// ReminderBefore is how long before the timeout the undecided players
	// are reminded; shorter than TurnTimeout.
	ReminderBefore time.Duration
	// MaxPlayers is the largest table, 2 to 5.
	MaxPlayers int
	// Language is the fallback language (en, de or fr) where Discord gives
	// no locale the bot knows.
	Language string
}

// Sandbox is the [sandbox] section: games played offline, without Discord.
type Sandbox struct {
	// OutDir is where the sandbox writes the pictures it produces.
	OutDir string
	// Players is the number of players, 2 to 5.
	Players int
	// Variant is dice, cards or jokers.
	Variant string
	// Seed makes the sandbox repeatable; nil means a random seed.
	Seed *int64
	// Addr is where the sandbox serves its page (host:port), on loopback
	// by default: the page lets whoever opens it play as any of its users.
	Addr string
}

// Secret is a string that never shows itself when printed, formatted,
// marshalled or logged: all of these give "set" or "unset". Value returns the
// string itself. It is a struct, not a string type, so that encoders that
// look at the underlying kind (go-toml does) see nothing either.
type Secret struct {
	s string
}

// NewSecret wraps s.
func NewSecret(s string) Secret { return Secret{s} }

// Value returns the secret itself.
func (s Secret) Value() string { return s.s }

// IsSet reports whether the secret is non-empty.
func (s Secret) IsSet() bool { return s.s != "" }

// String returns "set" or "unset".
func (s Secret) String() string {
	if s.IsSet() {
		return "set"
	}
	return "unset"
}

// GoString returns "set" or "unset", quoted, for %#v.
func (s Secret) GoString() string { return strconv.Quote(s.String()) }

// Format writes "set" or "unset" whatever the verb, so that no verb (not
// even %x or %d) prints the secret.
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		io.WriteString(f, s.GoString())
		return
	}
	io.WriteString(f, s.String())
}

// MarshalText returns "set" or "unset", so that JSON, TOML and zerolog's
// Interface do not reveal the secret either.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Limits of the values Load accepts.
const (
	MinTurnTimeout = 15 * time.Second
	MaxTurnTimeout = 24 * time.Hour
	MinPlayerCount = 2
	MaxPlayerCount = 5
)

var (
	logLevels  = []string{"debug", "info", "warn", "error"}
	logFormats = []string{"json", "console"}
	languages  = []string{"en", "de", "fr"}
	variants   = []string{"dice", "cards", "jokers"}
)

// Default returns the configuration used where neither the file nor the
// environment says otherwise. It has no token.
func Default() Config {
	c, err := defaultRaw().config()
	if err != nil {
		panic("config: defaults are invalid: " + err.Error())
	}
	return c
}

// raw is the configuration as the file and the environment give it, before
// validation: durations are still strings, numbers int64.
type raw struct {
	Discord struct {
		Token         string `toml:"token"`
		ApplicationID string `toml:"application_id"`
		BaseURL       string `toml:"base_url"`
		GuildID       string `toml:"guild_id"`
		ShardID       int64  `toml:"shard_id"`
		ShardCount    int64  `toml:"shard_count"`
		RateLimit     int64  `toml:"rate_limit"`
		// InteractionsAddr and PublicKey: the HTTP interactions endpoint.
		InteractionsAddr string `toml:"interactions_addr"`
		PublicKey        string `toml:"public_key"`
	} `toml:"discord"`
	Store struct {
		Path            string `toml:"path"`
		ResultMaxAge    string `toml:"result_max_age"`
		ResultsPerGuild int64  `toml:"results_per_guild"`
		RecordMaxAge    string `toml:"record_max_age"`
		RecordsPerGuild int64  `toml:"records_per_guild"`
		GuildGrace      string `toml:"guild_grace"`
		BackupDir       string `toml:"backup_dir"`
		BackupEvery     string `toml:"backup_every"`
		BackupKeep      int64  `toml:"backup_keep"`
	} `toml:"store"`
	Log struct {
		Level     string `toml:"level"`
		Format    string `toml:"format"`
		DebugAddr string `toml:"debug_addr"`
	} `toml:"log"`
	Game struct {
		TurnTimeout    string `toml:"turn_timeout"`
		ReminderBefore string `toml:"reminder_before"`
		MaxPlayers     int64  `toml:"max_players"`
		Language       string `toml:"language"`
	} `toml:"game"`
	Sandbox struct {
		OutDir  string `toml:"out_dir"`
		Players int64  `toml:"players"`
		Variant string `toml:"variant"`
		Seed    *int64 `toml:"seed"`
		Addr    string `toml:"addr"`
	} `toml:"sandbox"`
	// fromEnv names the environment variable that set a key, for the
	// errors about its value.
	fromEnv map[string]string
}

func defaultRaw() *raw {
	r := &raw{}
	r.Discord.BaseURL = "https://discord.com"
	r.Discord.ShardID = 0
	r.Discord.ShardCount = 1
	r.Discord.RateLimit = 50
	r.Store.Path = "qwixxbot.db"
	r.Store.ResultMaxAge = "17520h" // 730 days
	r.Store.ResultsPerGuild = 10000
	r.Store.RecordMaxAge = "2160h" // 90 days
	r.Store.RecordsPerGuild = 250
	r.Store.GuildGrace = "720h" // 30 days
	r.Store.BackupEvery = "24h"
	r.Store.BackupKeep = 7
	r.Log.Level = "info"
	r.Log.Format = "json"
	r.Game.TurnTimeout = "2m"
	r.Game.ReminderBefore = "20s"
	r.Game.MaxPlayers = 5
	r.Game.Language = "en"
	r.Sandbox.OutDir = "sandbox-out"
	r.Sandbox.Players = 3
	r.Sandbox.Variant = "dice"
	r.Sandbox.Addr = "127.0.0.1:8080"
	return r
}

// keyDef is one configuration key: its name in the file and a pointer to
// its field in a raw, which is a *string, *int64 or **int64 (optional).
type keyDef struct {
	name     string
	duration bool // a *string holding a duration
	field    func(r *raw) any
}

// keys lists every key, in file order.
var keys = []keyDef{
	{name: "discord.token", field: func(r *raw) any { return &r.Discord.Token }},
	{name: "discord.application_id", field: func(r *raw) any { return &r.Discord.ApplicationID }},
	{name: "discord.base_url", field: func(r *raw) any { return &r.Discord.BaseURL }},
	{name: "discord.guild_id", field: func(r *raw) any { return &r.Discord.GuildID }},
	{name: "discord.shard_id", field: func(r *raw) any { return &r.Discord.ShardID }},
	{name: "discord.shard_count", field: func(r *raw) any { return &r.Discord.ShardCount }},
	{name: "discord.rate_limit", field: func(r *raw) any { return &r.Discord.RateLimit }},
	{name: "discord.interactions_addr", field: func(r *raw) any { return &r.Discord.InteractionsAddr }},
	{name: "discord.public_key", field: func(r *raw) any { return &r.Discord.PublicKey }},
	{name: "store.path", field: func(r *raw) any { return &r.Store.Path }},
	{name: "store.result_max_age", duration: true, field: func(r *raw) any { return &r.Store.ResultMaxAge }},
	{name: "store.results_per_guild", field: func(r *raw) any { return &r.Store.ResultsPerGuild }},
	{name: "store.record_max_age", duration: true, field: func(r *raw) any { return &r.Store.RecordMaxAge }},
	{name: "store.records_per_guild", field: func(r *raw) any { return &r.Store.RecordsPerGuild }},
	{name: "store.guild_grace", duration: true, field: func(r *raw) any { return &r.Store.GuildGrace }},
	{name: "store.backup_dir", field: func(r *raw) any { return &r.Store.BackupDir }},
	{name: "store.backup_every", duration: true, field: func(r *raw) any { return &r.Store.BackupEvery }},
	{name: "store.backup_keep", field: func(r *raw) any { return &r.Store.BackupKeep }},
	{name: "log.level", field: func(r *raw) any { return &r.Log.Level }},
	{name: "log.format", field: func(r *raw) any { return &r.Log.Format }},
	{name: "log.debug_addr", field: func(r *raw) any { return &r.Log.DebugAddr }},
	{name: "game.turn_timeout", duration: true, field: func(r *raw) any { return &r.Game.TurnTimeout }},
	{name: "game.reminder_before", duration: true, field: func(r *raw) any { return &r.Game.ReminderBefore }},
	{name: "game.max_players", field: func(r *raw) any { return &r.Game.MaxPlayers }},
	{name: "game.language", field: func(r *raw) any { return &r.Game.Language }},
	{name: "sandbox.out_dir", field: func(r *raw) any { return &r.Sandbox.OutDir }},
	{name: "sandbox.players", field: func(r *raw) any { return &r.Sandbox.Players }},
	{name: "sandbox.variant", field: func(r *raw) any { return &r.Sandbox.Variant }},
	{name: "sandbox.seed", field: func(r *raw) any { return &r.Sandbox.Seed }},
	{name: "sandbox.addr", field: func(r *raw) any { return &r.Sandbox.Addr }},
}

// TokenEnv is the environment variable for the bot token; it wins over
// every other source.
const TokenEnv = "QWIXXBOT_TOKEN"

// envName is the environment variable that overrides key, e.g.
// QWIXXBOT_GAME_TURN_TIMEOUT for game.turn_timeout.
func envName(key string) string {
	return "QWIXXBOT_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// what describes the kind of value key wants, for error messages.
func (k keyDef) what() string {
	switch k.field(&raw{}).(type) {
	case *int64, **int64:
		return "an integer"
	}
	if k.duration {
		return `a duration string such as "90s" or "2m"`
	}
	return "a string"
}

// Load reads the configuration: the defaults, then the TOML file at path
// (none when path is ""; a path that does not exist is an error), then the
// environment, looked up with env (typically os.LookupEnv; nil means no
// environment). Unknown keys in the file and invalid values are refused
// with errors that name the key.
func Load(path string, env func(string) (string, bool)) (Config, error) {
	r := defaultRaw()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return Config{}, fmt.Errorf("config: %w", err)
		}
		if err := decode(path, data, r); err != nil {
			return Config{}, err
		}
	}
	if env != nil {
		if err := r.applyEnv(env); err != nil {
			return Config{}, err
		}
	}
	return r.config()
}

// decode reads a TOML document over r, keeping r's values for keys the
// document does not set.
func decode(path string, data []byte, r *raw) error {
	d := toml.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	err := d.Decode(r)
	if err == nil {
		return nil
	}
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		var errs []error
		for _, e := range strict.Errors {
			line, _ := e.Position()
			name := strings.Join(e.Key(), ".")
			msg := fmt.Sprintf("config: %s line %d: unknown key %s", path, line, name)
			if near := nearestKey(name); near != "" {
				msg += " (did you mean " + near + "?)"
			}
			errs = append(errs, errors.New(msg))
		}
		return errors.Join(errs...)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		name := strings.Join(de.Key(), ".")
		for _, k := range keys {
			if k.name == name && strings.Contains(de.Error(), "cannot decode") {
				return fmt.Errorf("config: %s line %d: %s: want %s", path, line, name, k.what())
			}
		}
		if strings.Contains(de.Error(), "cannot decode") && name != "" {
			return fmt.Errorf("config: %s line %d: %s: want a table of keys", path, line, name)
		}
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if name != "" {
			msg = name + ": " + msg
		}
		return fmt.Errorf("config: %s line %d column %d: %s", path, line, col, msg)
	}
	return fmt.Errorf("config: %s: %w", path, err)
}

// applyEnv sets every key whose environment variable is set; QWIXXBOT_TOKEN
// comes last and so wins.
func (r *raw) applyEnv(env func(string) (string, bool)) error {
	var errs []error
	set := func(k keyDef, name, v string) {
		if r.fromEnv == nil {
			r.fromEnv = map[string]string{}
		}
		r.fromEnv[k.name] = name
		switch p := k.field(r).(type) {
		case *string:
			*p = v
		case *int64:
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				errs = append(errs, fmt.Errorf("config: %s (%s): %q is not an integer", k.name, name, v))
				return
			}
			*p = n
		case **int64:
			if strings.TrimSpace(v) == "" {
				*p = nil // optional: empty means unset
				return
			}
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				errs = append(errs, fmt.Errorf("config: %s (%s): %q is not an integer", k.name, name, v))
				return
			}
			*p = &n
		}
	}
	for _, k := range keys {
		name := envName(k.name)
		if v, ok := env(name); ok {
			set(k, name, v)
		}
	}
	if v, ok := env(TokenEnv); ok {
		set(keys[0], TokenEnv, v)
	}
	return errors.Join(errs...)
}

// UnknownEnv returns the variables in environ (as os.Environ gives them)
// that start with QWIXXBOT_ but name no key: most likely typos, which Load
// cannot see since it looks variables up by name.
func UnknownEnv(environ []string) []string {
	known := map[string]bool{TokenEnv: true}
	// The sandbox page's browser tests read these; they configure the
	// tests, not the bot, and are documented in ARCHITECTURE.md ("Tests").
	for _, name := range []string{"QWIXXBOT_BROWSER", "QWIXXBOT_REQUIRE_BROWSER", "QWIXXBOT_WEB_SHOTS"} {
		known[name] = true
	}
	for _, k := range keys {
		known[envName(k.name)] = true
	}
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "QWIXXBOT_") && !known[name] {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// NearestEnv returns the configuration's environment variable nearest to
// name (a typo such as QWIXXBOT_STORE_PTH gives QWIXXBOT_STORE_PATH), or
// "" when none is near.
func NearestEnv(name string) string {
	cands := []string{TokenEnv}
	for _, k := range keys {
		cands = append(cands, envName(k.name))
	}
	return nearest(name, cands)
}

// nearestKey returns the key or section nearest to name, an unknown key
// of a file ("" when none is near): a misspelt key (game.turn_timeot), a
// key in the wrong section (game.path gives store.path) or a misspelt
// section (discrod gives discord).
func nearestKey(name string) string {
	var cands []string
	for _, k := range keys {
		cands = append(cands, k.name)
		if sec, _, _ := strings.Cut(k.name, "."); !slices.Contains(cands, sec) {
			cands = append(cands, sec)
		}
	}
	if near := nearest(name, cands); near != "" {
		return near
	}
	_, last, found := strings.Cut(name, ".")
	if !found {
		return ""
	}
	var same []string // the key's own name in another section
	for _, k := range keys {
		if _, l, _ := strings.Cut(k.name, "."); l == last {
			same = append(same, k.name)
		}
	}
	if len(same) == 1 {
		return same[0]
	}
	return ""
}

// nearest returns the candidate closest to name by edit distance, if it
// is close enough to be a typo of it: at most 2 edits, and at most a
// third of name's length.
func nearest(name string, cands []string) string {
	best, bestD := "", 0
	for _, c := range cands {
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if d > 0 && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > 2 || 3*bestD > len(name) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes (keys and
// variable names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// config validates r and converts it, reporting every invalid key.
func (r *raw) config() (Config, error) {
	var errs []error
	bad := func(key, format string, args ...any) {
		if name, ok := r.fromEnv[key]; ok {
			key += " (" + name + ")" // the value came from the environment
		}
		errs = append(errs, fmt.Errorf("config: "+key+": "+format, args...))
	}
	var c Config
	c.Discord = r.discord(bad)
	c.Store = r.store(bad)
	c.Log = r.log(bad)
	c.Game = r.game(bad)
	c.Sandbox = r.sandbox(bad)
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return c, nil
}

// discord validates and converts the [discord] table.
func (r *raw) discord(bad badFunc) Discord {
	var c Discord
	c.Token = NewSecret(r.Discord.Token)
	if strings.ContainsFunc(r.Discord.Token, func(c rune) bool { return c <= ' ' || c == 0x7f }) {
		bad("discord.token", "contains spaces or control characters (give the token alone, without \"Bot \"; its value is not shown)")
	}
	c.ApplicationID = r.Discord.ApplicationID
	if !isSnowflake(r.Discord.ApplicationID) {
		bad("discord.application_id", "%q is not a Discord ID (a number)", r.Discord.ApplicationID)
	}
	c.GuildID = r.Discord.GuildID
	if !isSnowflake(r.Discord.GuildID) {
		bad("discord.guild_id", "%q is not a Discord ID (a number)", r.Discord.GuildID)
	}
	c.BaseURL = r.Discord.BaseURL
	if u, err := url.Parse(r.Discord.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		bad("discord.base_url", "%q is not an http or https URL such as https://discord.com", r.Discord.BaseURL)
	}
	c.ShardCount = int(r.Discord.ShardCount)
	if r.Discord.RateLimit < 1 || r.Discord.RateLimit > 1_000_000 {
		bad("discord.rate_limit", "%d is not in 1..1000000 requests per second", r.Discord.RateLimit)
	} else {
		c.RateLimit = int(r.Discord.RateLimit)
	}
	c.ShardID = int(r.Discord.ShardID)
	if r.Discord.ShardCount < 1 || r.Discord.ShardCount > 1<<16 {
		bad("discord.shard_count", "%d is not in 1..%d", r.Discord.ShardCount, 1<<16)
	} else if r.Discord.ShardID < 0 || r.Discord.ShardID >= r.Discord.ShardCount {
		bad("discord.shard_id", "%d is not in 0..%d (discord.shard_count is %d)", r.Discord.ShardID, r.Discord.ShardCount-1, r.Discord.ShardCount)
	}

	if a := strings.TrimSpace(r.Discord.InteractionsAddr); a != "" {
		if _, port, err := net.SplitHostPort(a); err != nil || port == "" {
			bad("discord.interactions_addr", "%q is not host:port (for example 127.0.0.1:8443)", r.Discord.InteractionsAddr)
		} else {
			c.InteractionsAddr = a
		}
	}
	if k := strings.TrimSpace(r.Discord.PublicKey); k != "" {
		if b, err := hex.DecodeString(k); err != nil || len(b) != ed25519.PublicKeySize {
			bad("discord.public_key", "%q is not 64 hexadecimal digits (the developer portal's General Information > Public Key)", r.Discord.PublicKey)
		} else {
			c.PublicKey = strings.ToLower(k)
		}
	} else if c.InteractionsAddr != "" {
		bad("discord.public_key", "is empty, and discord.interactions_addr is set: the endpoint needs the application's public key (General Information > Public Key) to check what Discord signs")
	}
	return c
}

// store validates and converts the [store] table.
func (r *raw) store(bad badFunc) Store {
	var c Store
	c.Path = r.Store.Path
	if strings.TrimSpace(r.Store.Path) == "" {
		bad("store.path", "is empty")
	}
	c.ResultMaxAge = nonNegative(bad, "store.result_max_age", r.Store.ResultMaxAge)
	c.RecordMaxAge = nonNegative(bad, "store.record_max_age", r.Store.RecordMaxAge)
	c.GuildGrace = nonNegative(bad, "store.guild_grace", r.Store.GuildGrace)
	if r.Store.ResultsPerGuild < 1 || r.Store.ResultsPerGuild > MaxResultsPerGuild {
		bad("store.results_per_guild", "%d is not in 1..%d", r.Store.ResultsPerGuild, MaxResultsPerGuild)
	} else {
		c.ResultsPerGuild = int(r.Store.ResultsPerGuild)
	}
	if r.Store.RecordsPerGuild < 1 || r.Store.RecordsPerGuild > MaxRecordsPerGuild {
		bad("store.records_per_guild", "%d is not in 1..%d", r.Store.RecordsPerGuild, MaxRecordsPerGuild)
	} else {
		c.RecordsPerGuild = int(r.Store.RecordsPerGuild)
	}
	c.BackupDir = strings.TrimSpace(r.Store.BackupDir)
	c.BackupEvery = nonNegative(bad, "store.backup_every", r.Store.BackupEvery)
	if c.BackupEvery > 0 && c.BackupEvery < time.Minute {
		bad("store.backup_every", "%q is shorter than a minute (0 writes no scheduled backups)", r.Store.BackupEvery)
	}
	if r.Store.BackupKeep < 1 || r.Store.BackupKeep > 10000 {
		bad("store.backup_keep", "%d is not in 1..10000", r.Store.BackupKeep)
	} else {
		c.BackupKeep = int(r.Store.BackupKeep)
	}
	return c
}

// log validates and converts the [log] table.
func (r *raw) log(bad badFunc) Log {
	var c Log
	c.Level = oneOf(bad, "log.level", r.Log.Level, logLevels)
	c.Format = oneOf(bad, "log.format", r.Log.Format, logFormats)
	if a := strings.TrimSpace(r.Log.DebugAddr); a != "" {
		if _, port, err := net.SplitHostPort(a); err != nil || port == "" {
			bad("log.debug_addr", "%q is not host:port (for example 127.0.0.1:6060)", r.Log.DebugAddr)
		} else {
			c.DebugAddr = a
		}
	}
	return c
}

// game validates and converts the [game] table.
func (r *raw) game(bad badFunc) Game {
	var c Game
	if d, ok := duration(bad, "game.turn_timeout", r.Game.TurnTimeout); ok {
		switch {
		case d < MinTurnTimeout:
			bad("game.turn_timeout", "%q is below the minimum %s", r.Game.TurnTimeout, fmtDuration(MinTurnTimeout))
		case d > MaxTurnTimeout:
			bad("game.turn_timeout", "%q is above the maximum %s", r.Game.TurnTimeout, fmtDuration(MaxTurnTimeout))
		default:
			c.TurnTimeout = d
		}
	}
	if d, ok := duration(bad, "game.reminder_before", r.Game.ReminderBefore); ok {
		switch {
		case d <= 0:
			bad("game.reminder_before", "%q is not positive", r.Game.ReminderBefore)
		case c.TurnTimeout != 0 && d >= c.TurnTimeout:
			bad("game.reminder_before", "%q is not shorter than game.turn_timeout (%s)", r.Game.ReminderBefore, fmtDuration(c.TurnTimeout))
		default:
			c.ReminderBefore = d
		}
	}
	c.MaxPlayers = players(bad, "game.max_players", r.Game.MaxPlayers)
	c.Language = oneOf(bad, "game.language", r.Game.Language, languages)
	return c
}

// sandbox validates and converts the [sandbox] table.
func (r *raw) sandbox(bad badFunc) Sandbox {
	var c Sandbox
	c.OutDir = r.Sandbox.OutDir
	if strings.TrimSpace(r.Sandbox.OutDir) == "" {
		bad("sandbox.out_dir", "is empty")
	}
	c.Players = players(bad, "sandbox.players", r.Sandbox.Players)
	c.Variant = oneOf(bad, "sandbox.variant", r.Sandbox.Variant, variants)
	c.Addr = strings.TrimSpace(r.Sandbox.Addr)
	if _, port, err := net.SplitHostPort(c.Addr); err != nil || port == "" {
		bad("sandbox.addr", "%q is not host:port (for example 127.0.0.1:8080)", r.Sandbox.Addr)
	}
	if r.Sandbox.Seed != nil {
		seed := *r.Sandbox.Seed
		c.Seed = &seed
	}
	return c
}

type badFunc func(key, format string, args ...any)

func oneOf(bad badFunc, key, v string, allowed []string) string {
	if !slices.Contains(allowed, v) {
		bad(key, "%q is not one of %s", v, strings.Join(allowed, ", "))
	}
	return v
}

func players(bad badFunc, key string, n int64) int {
	if n < MinPlayerCount || n > MaxPlayerCount {
		bad(key, "%d is not in %d..%d", n, MinPlayerCount, MaxPlayerCount)
	}
	return int(n)
}

// nonNegative reads a duration that may be 0 but not negative.
func nonNegative(bad badFunc, key, s string) time.Duration {
	d, ok := duration(bad, key, s)
	if ok && d < 0 {
		bad(key, "%q is negative", s)
		return 0
	}
	return d
}

func duration(bad badFunc, key, s string) (time.Duration, bool) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		bad(key, "%q is not a duration such as \"90s\" or \"2m\"", s)
		return 0, false
	}
	return d, true
}

// isSnowflake reports whether s is empty or a decimal Discord ID.
func isSnowflake(s string) bool {
	if s == "" {
		return true
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// fmtDuration writes d without zero units: 2m rather than 2m0s.
func fmtDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// ZerologLevel returns Level as a zerolog level.
func (l Log) ZerologLevel() zerolog.Level {
	lvl, err := zerolog.ParseLevel(l.Level)
	if err != nil {
		return zerolog.InfoLevel
	}
	return lvl
}

// String writes the configuration on one line as key=value pairs, with the
// token shown as "set" or "unset".
func (c Config) String() string {
	seed := "random"
	if c.Sandbox.Seed != nil {
		seed = strconv.FormatInt(*c.Sandbox.Seed, 10)
	}
	return fmt.Sprintf("discord.token=%s discord.application_id=%q discord.base_url=%q discord.guild_id=%q "+
		"discord.shard_id=%d discord.shard_count=%d discord.rate_limit=%d discord.interactions_addr=%q discord.public_key=%q store.path=%q "+
		"store.result_max_age=%s store.results_per_guild=%d store.record_max_age=%s store.records_per_guild=%d store.guild_grace=%s store.backup_dir=%q store.backup_every=%s store.backup_keep=%d log.level=%s log.format=%s log.debug_addr=%q "+
		"game.turn_timeout=%s game.reminder_before=%s game.max_players=%d game.language=%s "+
		"sandbox.out_dir=%q sandbox.players=%d sandbox.variant=%s sandbox.seed=%s sandbox.addr=%q",
		c.Discord.Token, c.Discord.ApplicationID, c.Discord.BaseURL, c.Discord.GuildID,
		c.Discord.ShardID, c.Discord.ShardCount, c.Discord.RateLimit, c.Discord.InteractionsAddr, c.Discord.PublicKey, c.Store.Path,
		fmtDuration(c.Store.ResultMaxAge), c.Store.ResultsPerGuild, fmtDuration(c.Store.RecordMaxAge), c.Store.RecordsPerGuild, fmtDuration(c.Store.GuildGrace), c.Store.BackupDir, fmtDuration(c.Store.BackupEvery), c.Store.BackupKeep, c.Log.Level, c.Log.Format, c.Log.DebugAddr,
		fmtDuration(c.Game.TurnTimeout), fmtDuration(c.Game.ReminderBefore), c.Game.MaxPlayers, c.Game.Language,
		c.Sandbox.OutDir, c.Sandbox.Players, c.Sandbox.Variant, seed, c.Sandbox.Addr)
}

// MarshalZerologObject logs the configuration, with the token shown as
// "set" or "unset": log.Info().Object("config", cfg).
func (c Config) MarshalZerologObject(e *zerolog.Event) {
	e.Dict("discord", zerolog.Dict().
		Str("token", c.Discord.Token.String()).
		Str("application_id", c.Discord.ApplicationID).
		Str("base_url", c.Discord.BaseURL).
		Str("guild_id", c.Discord.GuildID).
		Int("shard_id", c.Discord.ShardID).
		Int("shard_count", c.Discord.ShardCount).
		Int("rate_limit", c.Discord.RateLimit).
		Str("interactions_addr", c.Discord.InteractionsAddr).
		Str("public_key", c.Discord.PublicKey))
	e.Dict("store", zerolog.Dict().Str("path", c.Store.Path).
		Str("result_max_age", fmtDuration(c.Store.ResultMaxAge)).
		Int("results_per_guild", c.Store.ResultsPerGuild).
		Str("record_max_age", fmtDuration(c.Store.RecordMaxAge)).
		Int("records_per_guild", c.Store.RecordsPerGuild).
		Str("guild_grace", fmtDuration(c.Store.GuildGrace)).
		Str("backup_dir", c.Store.BackupDir).
		Str("backup_every", fmtDuration(c.Store.BackupEvery)).
		Int("backup_keep", c.Store.BackupKeep))
	e.Dict("log", zerolog.Dict().Str("level", c.Log.Level).Str("format", c.Log.Format).Str("debug_addr", c.Log.DebugAddr))
	e.Dict("game", zerolog.Dict().
		Str("turn_timeout", fmtDuration(c.Game.TurnTimeout)).
		Str("reminder_before", fmtDuration(c.Game.ReminderBefore)).
		Int("max_players", c.Game.MaxPlayers).
		Str("language", c.Game.Language))
	sb := zerolog.Dict().
		Str("out_dir", c.Sandbox.OutDir).
		Int("players", c.Sandbox.Players).
		Str("variant", c.Sandbox.Variant).
		Str("addr", c.Sandbox.Addr)
	if c.Sandbox.Seed != nil {
		sb.Int64("seed", *c.Sandbox.Seed)
	}
	e.Dict("sandbox", sb)
}
