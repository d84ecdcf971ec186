package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/rs/zerolog"
)

// envOf is an environment lookup over a map.
func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

// writeTOML writes content to a file in a temporary directory.
func writeTOML(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "qwixxbot.toml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func ptr[T any](v T) *T { return &v }

func TestDefaults(t *testing.T) {
	got, err := Load("", nil)
	if err != nil {
		t.Fatalf("Load(\"\", nil): %v", err)
	}
	want := Config{
		Discord: Discord{BaseURL: "https://discord.com", ShardID: 0, ShardCount: 1, RateLimit: 50},
		Store:   Store{Path: "qwixxbot.db", ResultMaxAge: 730 * 24 * time.Hour, ResultsPerGuild: 10000, RecordMaxAge: 90 * 24 * time.Hour, RecordsPerGuild: 250, GuildGrace: 30 * 24 * time.Hour, BackupEvery: 24 * time.Hour, BackupKeep: 7},
		Log:     Log{Level: "info", Format: "json"},
		Game:    Game{TurnTimeout: 2 * time.Minute, ReminderBefore: 20 * time.Second, MaxPlayers: 5, Language: "en"},
		Sandbox: Sandbox{OutDir: "sandbox-out", Players: 3, Variant: "dice", Addr: "127.0.0.1:8080"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load(\"\", nil) =\n%+v\nwant\n%+v", got, want)
	}
	if !reflect.DeepEqual(Default(), want) {
		t.Errorf("Default() =\n%+v\nwant\n%+v", Default(), want)
	}
	if got.Discord.Token.IsSet() {
		t.Errorf("default token is set")
	}
}

// TestExampleFile checks that config.example.toml parses, documents every
// key, and gives exactly the defaults (it sets no value of its own).
func TestExampleFile(t *testing.T) {
	const path = "../../../../config.example.toml"
	got, err := Load(path, nil)
	if err != nil {
		t.Fatalf("Load(%s): %v", path, err)
	}
	if want := Default(); !reflect.DeepEqual(got, want) {
		t.Errorf("example file gives\n%v\nwant the defaults\n%v", got, want)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	section := ""
	documented := map[string]bool{}
	for line := range strings.Lines(string(data)) {
		if m := regexp.MustCompile(`^\[(\w+)\]`).FindStringSubmatch(line); m != nil {
			section = m[1]
		}
		// A key, set or commented out: "key = …" or "# key = …".
		if m := regexp.MustCompile(`^(?:# )?(\w+) = `).FindStringSubmatch(line); m != nil {
			documented[section+"."+m[1]] = true
		}
	}
	for _, k := range keys {
		if !documented[k.name] {
			t.Errorf("config.example.toml does not show %s", k.name)
		}
	}
	// Commented-out keys are valid too: uncommenting them must parse.
	uncommented := regexp.MustCompile(`(?m)^# (\w+ = )`).ReplaceAll(data, []byte("$1"))
	if _, err := Load(writeTOML(t, string(uncommented)), nil); err != nil {
		t.Errorf("example with every key uncommented: %v", err)
	}
}

func TestLoadFile(t *testing.T) {
	path := writeTOML(t, `
[discord]
token = "file-token"
application_id = "123456789012345678"
base_url = "http://127.0.0.1:8080/api-prefix"
guild_id = "876543210987654321"
shard_id = 2
shard_count = 4
rate_limit = 500
interactions_addr = "127.0.0.1:8443"
public_key = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"

[store]
path = "/var/lib/qwixxbot/shard2.db"

[log]
level = "debug"
format = "console"

[game]
turn_timeout = "1h30m"
reminder_before = "90s"
max_players = 4
language = "de"

[sandbox]
out_dir = "out"
players = 5
variant = "jokers"
seed = -42
addr = "[::1]:9000"
`)
	got, err := Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Discord: Discord{
			Token:            NewSecret("file-token"),
			ApplicationID:    "123456789012345678",
			BaseURL:          "http://127.0.0.1:8080/api-prefix",
			GuildID:          "876543210987654321",
			ShardID:          2,
			ShardCount:       4,
			RateLimit:        500,
			InteractionsAddr: "127.0.0.1:8443",
			PublicKey:        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
		},
		Store:   Store{Path: "/var/lib/qwixxbot/shard2.db", ResultMaxAge: 730 * 24 * time.Hour, ResultsPerGuild: 10000, RecordMaxAge: 90 * 24 * time.Hour, RecordsPerGuild: 250, GuildGrace: 30 * 24 * time.Hour, BackupEvery: 24 * time.Hour, BackupKeep: 7},
		Log:     Log{Level: "debug", Format: "console"},
		Game:    Game{TurnTimeout: 90 * time.Minute, ReminderBefore: 90 * time.Second, MaxPlayers: 4, Language: "de"},
		Sandbox: Sandbox{OutDir: "out", Players: 5, Variant: "jokers", Seed: ptr(int64(-42)), Addr: "[::1]:9000"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load =\n%+v\nwant\n%+v", got, want)
	}
	if got.Discord.Token.Value() != "file-token" {
		t.Errorf("Token.Value() = %q, want %q", got.Discord.Token.Value(), "file-token")
	}
}

func TestLoadPartialFileKeepsDefaults(t *testing.T) {
	got, err := Load(writeTOML(t, "[game]\nlanguage = \"fr\"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Game.Language = "fr"
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load =\n%v\nwant\n%v", got, want)
	}
}

func TestMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.toml")
	_, err := Load(path, nil)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing) error = %v, want fs.ErrNotExist", err)
	}
	if err != nil && !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name the file", err)
	}
}

// TestFileErrors covers unknown keys, wrong types and syntax errors: each
// message names the key (or line) at fault.
func TestFileErrors(t *testing.T) {
	tests := []struct {
		name, content string
		want          []string // each must appear in the error
	}{
		{"unknown key", "[discord]\ntokn = \"x\"\n", []string{"line 2", "unknown key discord.tokn"}},
		{"unknown key in second section", "[log]\nlevel = \"info\"\n[game]\nturn_timeot = \"2m\"\n", []string{"line 4", "unknown key game.turn_timeot"}},
		{"unknown section", "[discrod]\ntoken = \"x\"\n", []string{"unknown key discrod"}},
		{"unknown top-level key", "verbose = true\n", []string{"unknown key verbose"}},
		{"every unknown key reported", "[store]\npth = \"a\"\n[log]\nlvl = \"b\"\n", []string{"unknown key store.pth", "unknown key log.lvl"}},
		{"string for an integer", "[game]\nmax_players = \"five\"\n", []string{"line 2", "game.max_players: want an integer"}},
		{"integer for a duration", "[game]\nturn_timeout = 90\n", []string{"game.turn_timeout: want a duration string"}},
		{"integer for a string", "[store]\npath = 1\n", []string{"store.path: want a string"}},
		{"value for a section", "discord = 3\n", []string{"discord: want a table"}},
		{"integer too large", "[discord]\nshard_id = 99999999999999999999\n", []string{"line 2", "discord.shard_id"}},
		{"syntax error", "[game\nmax_players = 3\n", []string{"line 1"}},
		{"duplicate key", "[log]\nlevel = \"info\"\nlevel = \"debug\"\n", []string{"line 3", "level"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeTOML(t, tt.content)
			_, err := Load(path, nil)
			if err == nil {
				t.Fatalf("Load succeeded, want an error containing %q", tt.want)
			}
			for _, w := range append(tt.want, path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestValidation has a case for every rule; each error must name its key.
func TestValidation(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    string // the whole message, or a prefix of it ending in "…"
	}{
		{"token with spaces", "[discord]\ntoken = \"Bot abc\"", `config: discord.token: contains spaces or control characters…`},
		{"token with newline", "[discord]\ntoken = \"abc\\n\"", `config: discord.token: contains spaces or control characters…`},
		{"application_id", "[discord]\napplication_id = \"my-app\"", `config: discord.application_id: "my-app" is not a Discord ID (a number)`},
		{"guild_id", "[discord]\nguild_id = \"12ab\"", `config: discord.guild_id: "12ab" is not a Discord ID (a number)`},
		{"base_url scheme", "[discord]\nbase_url = \"ftp://discord.com\"", `config: discord.base_url: "ftp://discord.com" is not an http or https URL such as https://discord.com`},
		{"base_url no host", "[discord]\nbase_url = \"https://\"", `config: discord.base_url: "https://" is not an http or https URL…`},
		{"base_url relative", "[discord]\nbase_url = \"discord.com\"", `config: discord.base_url: "discord.com" is not an http or https URL…`},
		{"base_url query", "[discord]\nbase_url = \"https://x.test/?a=b\"", `config: discord.base_url: "https://x.test/?a=b" is not an http or https URL…`},
		{"shard_count zero", "[discord]\nshard_count = 0", `config: discord.shard_count: 0 is not in 1..65536`},
		{"shard_id negative", "[discord]\nshard_id = -1", `config: discord.shard_id: -1 is not in 0..0 (discord.shard_count is 1)`},
		{"shard_id equal to count", "[discord]\nshard_id = 2\nshard_count = 2", `config: discord.shard_id: 2 is not in 0..1 (discord.shard_count is 2)`},
		{"store.path empty", "[store]\npath = \"\"", `config: store.path: is empty`},
		{"log.level", "[log]\nlevel = \"verbose\"", `config: log.level: "verbose" is not one of debug, info, warn, error`},
		{"log.level case", "[log]\nlevel = \"INFO\"", `config: log.level: "INFO" is not one of debug, info, warn, error`},
		{"log.format", "[log]\nformat = \"text\"", `config: log.format: "text" is not one of json, console`},
		{"discord.rate_limit", "[discord]\nrate_limit = 0", `config: discord.rate_limit: 0 is not in 1..1000000 requests per second`},
		{"log.debug_addr", "[log]\ndebug_addr = \"6060\"", `config: log.debug_addr: "6060" is not host:port (for example 127.0.0.1:6060)`},
		{"discord.interactions_addr", "[discord]\ninteractions_addr = \"8443\"\npublic_key = \"3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c\"", `config: discord.interactions_addr: "8443" is not host:port (for example 127.0.0.1:8443)`},
		{"discord.public_key missing", "[discord]\ninteractions_addr = \"127.0.0.1:8443\"", `config: discord.public_key: is empty, and discord.interactions_addr is set: the endpoint needs the application's public key…`},
		{"discord.public_key short", "[discord]\npublic_key = \"abcd\"", `config: discord.public_key: "abcd" is not 64 hexadecimal digits…`},
		{"discord.public_key not hex", "[discord]\npublic_key = \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"", `config: discord.public_key: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" is not 64 hexadecimal digits…`},
		{"store.records_per_guild", "[store]\nrecords_per_guild = 0", `config: store.records_per_guild: 0 is not in 1..10000`},
		{"store.results_per_guild", "[store]\nresults_per_guild = 1000000", `config: store.results_per_guild: 1000000 is not in 1..100000`},
		{"store.guild_grace", "[store]\nguild_grace = \"-1h\"", `config: store.guild_grace: "-1h" is negative`},
		{"store.backup_every short", "[store]\nbackup_every = \"10s\"", `config: store.backup_every: "10s" is shorter than a minute (0 writes no scheduled backups)`},
		{"store.backup_keep", "[store]\nbackup_keep = 0", `config: store.backup_keep: 0 is not in 1..10000`},
		{"turn_timeout syntax", "[game]\nturn_timeout = \"2 minutes\"", `config: game.turn_timeout: "2 minutes" is not a duration such as "90s" or "2m"`},
		{"turn_timeout unitless", "[game]\nturn_timeout = \"90\"", `config: game.turn_timeout: "90" is not a duration such as "90s" or "2m"`},
		{"turn_timeout below", "[game]\nturn_timeout = \"5s\"", `config: game.turn_timeout: "5s" is below the minimum 15s`},
		{"turn_timeout negative", "[game]\nturn_timeout = \"-1m\"", `config: game.turn_timeout: "-1m" is below the minimum 15s`},
		{"turn_timeout above", "[game]\nturn_timeout = \"25h\"", `config: game.turn_timeout: "25h" is above the maximum 24h`},
		{"reminder_before syntax", "[game]\nreminder_before = \"soon\"", `config: game.reminder_before: "soon" is not a duration such as "90s" or "2m"`},
		{"reminder_before zero", "[game]\nreminder_before = \"0s\"", `config: game.reminder_before: "0s" is not positive`},
		{"reminder_before equal", "[game]\nturn_timeout = \"1m\"\nreminder_before = \"1m\"", `config: game.reminder_before: "1m" is not shorter than game.turn_timeout (1m)`},
		{"reminder_before longer", "[game]\nreminder_before = \"3m\"", `config: game.reminder_before: "3m" is not shorter than game.turn_timeout (2m)`},
		{"max_players below", "[game]\nmax_players = 1", `config: game.max_players: 1 is not in 2..5`},
		{"max_players above", "[game]\nmax_players = 6", `config: game.max_players: 6 is not in 2..5`},
		{"language", "[game]\nlanguage = \"es\"", `config: game.language: "es" is not one of en, de, fr`},
		{"sandbox.out_dir empty", "[sandbox]\nout_dir = \" \"", `config: sandbox.out_dir: is empty`},
		{"sandbox.players below", "[sandbox]\nplayers = 1", `config: sandbox.players: 1 is not in 2..5`},
		{"sandbox.players above", "[sandbox]\nplayers = 6", `config: sandbox.players: 6 is not in 2..5`},
		{"sandbox.variant", "[sandbox]\nvariant = \"poker\"", `config: sandbox.variant: "poker" is not one of dice, cards, jokers`},
		{"sandbox.addr", "[sandbox]\naddr = \"8080\"", `config: sandbox.addr: "8080" is not host:port (for example 127.0.0.1:8080)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(writeTOML(t, tt.content+"\n"), nil)
			if err == nil {
				t.Fatalf("Load succeeded, want %s", tt.want)
			}
			got := err.Error()
			if prefix, ok := strings.CutSuffix(tt.want, "…"); ok {
				if !strings.HasPrefix(got, prefix) {
					t.Errorf("error = %q, want it to start with %q", got, prefix)
				}
			} else if got != tt.want {
				t.Errorf("error = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestValidationReportsEveryError(t *testing.T) {
	_, err := Load(writeTOML(t, "[log]\nlevel = \"x\"\n[game]\nmax_players = 9\nlanguage = \"xx\"\n"), nil)
	if err == nil {
		t.Fatal("Load succeeded")
	}
	for _, key := range []string{"log.level", "game.max_players", "game.language"} {
		if !strings.Contains(err.Error(), "config: "+key+":") {
			t.Errorf("error %q does not report %s", err, key)
		}
	}
}

func TestValidBoundaries(t *testing.T) {
	tests := []struct {
		name, content string
	}{
		{"shortest turn", "[game]\nturn_timeout = \"15s\"\nreminder_before = \"14s\""},
		{"longest turn", "[game]\nturn_timeout = \"24h\"\nreminder_before = \"23h59m59s\""},
		{"last shard", "[discord]\nshard_id = 15\nshard_count = 16"},
		{"two players", "[game]\nmax_players = 2\n[sandbox]\nplayers = 2"},
		{"seed zero", "[sandbox]\nseed = 0"},
		{"token alone", "[discord]\ntoken = \"MTA.abc-_DEF\""},
		{"base_url with path", "[discord]\nbase_url = \"https://example.test/discord/\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Load(writeTOML(t, tt.content+"\n"), nil); err != nil {
				t.Errorf("Load: %v", err)
			}
		})
	}
}

// TestEnvOverridesEveryKey sets every key through its environment variable,
// over a file that sets every key to something else.
func TestEnvOverridesEveryKey(t *testing.T) {
	file := writeTOML(t, `
[discord]
token = "file"
application_id = "1"
base_url = "https://file.test"
guild_id = "2"
shard_id = 0
shard_count = 1
[store]
path = "file.db"
[log]
level = "error"
format = "console"
[game]
turn_timeout = "1m"
reminder_before = "10s"
max_players = 3
language = "fr"
[sandbox]
out_dir = "file-out"
players = 2
variant = "cards"
seed = 1
`)
	env := map[string]string{
		"QWIXXBOT_DISCORD_TOKEN":             "env",
		"QWIXXBOT_DISCORD_APPLICATION_ID":    "10",
		"QWIXXBOT_DISCORD_BASE_URL":          "http://localhost:9999",
		"QWIXXBOT_DISCORD_GUILD_ID":          "20",
		"QWIXXBOT_DISCORD_SHARD_ID":          "3",
		"QWIXXBOT_DISCORD_SHARD_COUNT":       "8",
		"QWIXXBOT_DISCORD_RATE_LIMIT":        "70",
		"QWIXXBOT_DISCORD_INTERACTIONS_ADDR": "127.0.0.1:8443",
		"QWIXXBOT_DISCORD_PUBLIC_KEY":        "3D4017C3E843895A92B70AA74D1B7EBC9C982CCF2EC4968CC0CD55F12AF4660C",
		"QWIXXBOT_STORE_PATH":                "env.db",
		"QWIXXBOT_STORE_RESULT_MAX_AGE":      "0",
		"QWIXXBOT_STORE_RESULTS_PER_GUILD":   "500",
		"QWIXXBOT_STORE_RECORD_MAX_AGE":      "240h",
		"QWIXXBOT_STORE_RECORDS_PER_GUILD":   "20",
		"QWIXXBOT_STORE_GUILD_GRACE":         "1h",
		"QWIXXBOT_STORE_BACKUP_DIR":          "/var/backups/q",
		"QWIXXBOT_STORE_BACKUP_EVERY":        "6h",
		"QWIXXBOT_STORE_BACKUP_KEEP":         "3",
		"QWIXXBOT_LOG_LEVEL":                 "warn",
		"QWIXXBOT_LOG_FORMAT":                "json",
		"QWIXXBOT_LOG_DEBUG_ADDR":            "127.0.0.1:6060",
		"QWIXXBOT_GAME_TURN_TIMEOUT":         "3m",
		"QWIXXBOT_GAME_REMINDER_BEFORE":      "30s",
		"QWIXXBOT_GAME_MAX_PLAYERS":          "4",
		"QWIXXBOT_GAME_LANGUAGE":             "de",
		"QWIXXBOT_SANDBOX_OUT_DIR":           "env-out",
		"QWIXXBOT_SANDBOX_PLAYERS":           "5",
		"QWIXXBOT_SANDBOX_VARIANT":           "jokers",
		"QWIXXBOT_SANDBOX_SEED":              "99",
		"QWIXXBOT_SANDBOX_ADDR":              "127.0.0.1:0",
	}
	if len(env) != len(keys) {
		t.Fatalf("test sets %d variables for %d keys", len(env), len(keys))
	}
	got, err := Load(file, envOf(env))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Discord: Discord{Token: NewSecret("env"), ApplicationID: "10", BaseURL: "http://localhost:9999", GuildID: "20", ShardID: 3, ShardCount: 8, RateLimit: 70,
			InteractionsAddr: "127.0.0.1:8443", PublicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"},
		Store:   Store{Path: "env.db", ResultsPerGuild: 500, RecordMaxAge: 240 * time.Hour, RecordsPerGuild: 20, GuildGrace: time.Hour, BackupDir: "/var/backups/q", BackupEvery: 6 * time.Hour, BackupKeep: 3},
		Log:     Log{Level: "warn", Format: "json", DebugAddr: "127.0.0.1:6060"},
		Game:    Game{TurnTimeout: 3 * time.Minute, ReminderBefore: 30 * time.Second, MaxPlayers: 4, Language: "de"},
		Sandbox: Sandbox{OutDir: "env-out", Players: 5, Variant: "jokers", Seed: ptr(int64(99)), Addr: "127.0.0.1:0"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load =\n%+v\nwant\n%+v", got, want)
	}
}

func TestEnvPrecedence(t *testing.T) {
	tests := []struct {
		name string
		file string // "" means no file
		env  map[string]string
		want func(c Config) any
		val  any
	}{
		{"file over default", "[store]\npath = \"f.db\"", nil, func(c Config) any { return c.Store.Path }, "f.db"},
		{"env over default", "", map[string]string{"QWIXXBOT_STORE_PATH": "e.db"}, func(c Config) any { return c.Store.Path }, "e.db"},
		{"env over file", "[store]\npath = \"f.db\"", map[string]string{"QWIXXBOT_STORE_PATH": "e.db"}, func(c Config) any { return c.Store.Path }, "e.db"},
		{"token from file", "[discord]\ntoken = \"f\"", nil, func(c Config) any { return c.Discord.Token.Value() }, "f"},
		{"QWIXXBOT_TOKEN over file", "[discord]\ntoken = \"f\"", map[string]string{"QWIXXBOT_TOKEN": "t"}, func(c Config) any { return c.Discord.Token.Value() }, "t"},
		{"QWIXXBOT_DISCORD_TOKEN over file", "[discord]\ntoken = \"f\"", map[string]string{"QWIXXBOT_DISCORD_TOKEN": "d"}, func(c Config) any { return c.Discord.Token.Value() }, "d"},
		{"QWIXXBOT_TOKEN over QWIXXBOT_DISCORD_TOKEN", "[discord]\ntoken = \"f\"", map[string]string{"QWIXXBOT_TOKEN": "t", "QWIXXBOT_DISCORD_TOKEN": "d"}, func(c Config) any { return c.Discord.Token.Value() }, "t"},
		{"empty QWIXXBOT_TOKEN unsets", "[discord]\ntoken = \"f\"", map[string]string{"QWIXXBOT_TOKEN": ""}, func(c Config) any { return c.Discord.Token.IsSet() }, false},
		{"empty env clears guild_id", "[discord]\nguild_id = \"5\"", map[string]string{"QWIXXBOT_DISCORD_GUILD_ID": ""}, func(c Config) any { return c.Discord.GuildID }, ""},
		{"empty env unsets seed", "[sandbox]\nseed = 7", map[string]string{"QWIXXBOT_SANDBOX_SEED": ""}, func(c Config) any { return c.Sandbox.Seed == nil }, true},
		{"env integer with spaces", "", map[string]string{"QWIXXBOT_GAME_MAX_PLAYERS": " 2 "}, func(c Config) any { return c.Game.MaxPlayers }, 2},
		{"unrelated variables ignored", "", map[string]string{"TOKEN": "x", "QWIXXBOT_STORE": "x"}, func(c Config) any { return c.Store.Path }, "qwixxbot.db"},
		{"env value validated", "", map[string]string{"QWIXXBOT_GAME_TURN_TIMEOUT": "10m", "QWIXXBOT_GAME_REMINDER_BEFORE": "5m"}, func(c Config) any { return c.Game.ReminderBefore }, 5 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			if tt.file != "" {
				path = writeTOML(t, tt.file+"\n")
			}
			c, err := Load(path, envOf(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.want(c); got != tt.val {
				t.Errorf("got %v, want %v", got, tt.val)
			}
		})
	}
}

func TestEnvErrors(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"not an integer", map[string]string{"QWIXXBOT_GAME_MAX_PLAYERS": "five"}, `config: game.max_players (QWIXXBOT_GAME_MAX_PLAYERS): "five" is not an integer`},
		{"empty integer", map[string]string{"QWIXXBOT_DISCORD_SHARD_COUNT": ""}, `config: discord.shard_count (QWIXXBOT_DISCORD_SHARD_COUNT): "" is not an integer`},
		{"seed not an integer", map[string]string{"QWIXXBOT_SANDBOX_SEED": "abc"}, `config: sandbox.seed (QWIXXBOT_SANDBOX_SEED): "abc" is not an integer`},
		{"validated like the file", map[string]string{"QWIXXBOT_GAME_TURN_TIMEOUT": "5s"}, `config: game.turn_timeout (QWIXXBOT_GAME_TURN_TIMEOUT): "5s" is below the minimum 15s`},
		{"log level", map[string]string{"QWIXXBOT_LOG_LEVEL": "trace"}, `config: log.level (QWIXXBOT_LOG_LEVEL): "trace" is not one of debug, info, warn, error`},
		{"store path", map[string]string{"QWIXXBOT_STORE_PATH": " "}, `config: store.path (QWIXXBOT_STORE_PATH): is empty`},
		{"sandbox address", map[string]string{"QWIXXBOT_SANDBOX_ADDR": "8080"}, `config: sandbox.addr (QWIXXBOT_SANDBOX_ADDR): "8080" is not host:port (for example 127.0.0.1:8080)`},
		{"token", map[string]string{"QWIXXBOT_TOKEN": "Bot abc"}, `config: discord.token (QWIXXBOT_TOKEN): contains spaces or control characters (give the token alone, without "Bot "; its value is not shown)`},
		{"token by its long name", map[string]string{"QWIXXBOT_DISCORD_TOKEN": "Bot abc"}, `config: discord.token (QWIXXBOT_DISCORD_TOKEN): contains spaces or control characters (give the token alone, without "Bot "; its value is not shown)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("", envOf(tt.env))
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %s", err, tt.want)
			}
		})
	}
}

// Issue 40: a value from the environment was refused under its key's
// name alone, so whoever set QWIXXBOT_GAME_TURN_TIMEOUT=5s looked for
// game.turn_timeout in a file they never wrote. The variable is named;
// the same value from the file is refused under the key alone, and with
// both, the variable (which wins) is named.
func TestEnvValueErrorsNameTheVariable(t *testing.T) {
	file := writeTOML(t, "[game]\nturn_timeout = \"5s\"\n")
	_, err := Load(file, nil)
	if err == nil || err.Error() != `config: game.turn_timeout: "5s" is below the minimum 15s` {
		t.Errorf("from the file: %v", err)
	}
	_, err = Load(file, envOf(map[string]string{"QWIXXBOT_GAME_TURN_TIMEOUT": "1s"}))
	if err == nil || err.Error() != `config: game.turn_timeout (QWIXXBOT_GAME_TURN_TIMEOUT): "1s" is below the minimum 15s` {
		t.Errorf("from the environment over the file: %v", err)
	}
	// Every key: an invalid value from its variable names the variable.
	for _, k := range keys {
		bad := "x y" // no key takes it: not a number, duration, ID, URL, level or address
		switch k.name {
		case "discord.token":
			bad = "a b"
		case "store.path", "sandbox.out_dir":
			bad = " "
		case "log.debug_addr":
			bad = "6060"
		case "sandbox.seed":
			bad = "x"
		case "store.backup_dir":
			continue // any folder, or none, is a value
		}
		name := envName(k.name)
		_, err := Load("", envOf(map[string]string{name: bad}))
		if err == nil || !strings.Contains(err.Error(), k.name+" ("+name+")") {
			t.Errorf("%s=%q: error %v does not name the variable", name, bad, err)
		}
	}
}

// Issue 40: a misspelt key got "unknown key" and no hint. The nearest
// key (or section) is suggested when it is near enough to be a typo; a
// key in the wrong section gets its right place.
func TestUnknownKeyDidYouMean(t *testing.T) {
	tests := []struct{ content, want string }{
		{"[discord]\ntokn = \"x\"\n", "unknown key discord.tokn (did you mean discord.token?)"},
		{"[game]\nturn_timeot = \"2m\"\n", "unknown key game.turn_timeot (did you mean game.turn_timeout?)"},
		{"[store]\npth = \"a\"\n", "unknown key store.pth (did you mean store.path?)"},
		{"[log]\nlvl = \"info\"\n", "unknown key log.lvl (did you mean log.level?)"},
		{"[discrod]\ntoken = \"x\"\n", "unknown key discrod (did you mean discord?)"},
		{"[game]\npath = \"x.db\"\n", "unknown key game.path (did you mean store.path?)"},
		{"[sandbox]\nplayer = 3\n", "unknown key sandbox.player (did you mean sandbox.players?)"},
	}
	for _, tt := range tests {
		_, err := Load(writeTOML(t, tt.content), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.content, err, tt.want)
		}
	}
	// Nothing near: no guess.
	for _, content := range []string{"verbose = true\n", "[game]\ncolour = \"red\"\n"} {
		_, err := Load(writeTOML(t, content), nil)
		if err == nil || strings.Contains(err.Error(), "did you mean") {
			t.Errorf("%q: error %v, want no guess", content, err)
		}
	}
}

// Issue 40: an unknown QWIXXBOT_ variable's warning suggests the
// variable it most likely meant.
func TestNearestEnv(t *testing.T) {
	for name, want := range map[string]string{
		"QWIXXBOT_STORE_PTH":   "QWIXXBOT_STORE_PATH",
		"QWIXXBOT_LOGLEVEL":    "QWIXXBOT_LOG_LEVEL",
		"QWIXXBOT_TOKN":        "QWIXXBOT_TOKEN",
		"QWIXXBOT_SANDBOXADDR": "QWIXXBOT_SANDBOX_ADDR",
		"QWIXXBOT_COLOUR":      "",
	} {
		if got := NearestEnv(name); got != want {
			t.Errorf("NearestEnv(%s) = %q, want %q", name, got, want)
		}
	}
}

func TestUnknownEnv(t *testing.T) {
	environ := []string{
		"HOME=/root",
		"QWIXXBOT_TOKEN=x",
		"QWIXXBOT_STORE_PATH=a",
		"QWIXXBOT_STORE_PTH=a",
		"QWIXXBOT_LOGLEVEL=debug",
		"QWIXXBOT_GAME_TURN_TIMEOUT=2m",
		"QWIXXBOT_REQUIRE_BROWSER=1", // a test knob .ci/run sets
	}
	got := fmt.Sprint(UnknownEnv(environ))
	if want := "[QWIXXBOT_LOGLEVEL QWIXXBOT_STORE_PTH]"; got != want {
		t.Errorf("UnknownEnv = %s, want %s", got, want)
	}
}

// TestTokenNeverShown prints, formats, marshals and logs a configuration
// every way we can think of and looks for the token.
func TestTokenNeverShown(t *testing.T) {
	const token = "MTIzNDU2Nzg5.SECRET-token_value"
	c, err := Load("", envOf(map[string]string{"QWIXXBOT_TOKEN": token}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Discord.Token.Value() != token {
		t.Fatalf("token not loaded")
	}
	verbS := "%s"
	var outputs = map[string]string{
		"String":            c.String(),
		"%v":                fmt.Sprintf("%v", c),
		"%+v":               fmt.Sprintf("%+v", c),
		"%#v":               fmt.Sprintf("%#v", c),
		"%s":                fmt.Sprintf(verbS, c), // the verb itself is under test
		"%v pointer":        fmt.Sprintf("%v", &c),
		"%+v Discord":       fmt.Sprintf("%+v", c.Discord),
		"%#v Discord":       fmt.Sprintf("%#v", c.Discord),
		"%v token":          fmt.Sprintf("%v", c.Discord.Token),
		"%s token":          fmt.Sprintf("%s", c.Discord.Token),
		"%q token":          fmt.Sprintf("%q", c.Discord.Token),
		"%x token":          fmt.Sprintf("%x", c.Discord.Token),
		"%d token":          fmt.Sprintf("%d", c.Discord.Token),
		"%#v token":         fmt.Sprintf("%#v", c.Discord.Token),
		"Println":           fmt.Sprintln(c, c.Discord, c.Discord.Token),
		"errorf":            fmt.Errorf("bad config %v", c.Discord).Error(),
		"json":              mustJSON(t, c),
		"json Discord":      mustJSON(t, c.Discord),
		"toml":              mustTOML(t, c),
		"zerolog Object":    logged(func(e *zerolog.Event) { e.Object("config", c) }),
		"zerolog Interface": logged(func(e *zerolog.Event) { e.Interface("config", c) }),
		"zerolog Any token": logged(func(e *zerolog.Event) { e.Any("token", c.Discord.Token) }),
		"zerolog Stringer":  logged(func(e *zerolog.Event) { e.Stringer("token", c.Discord.Token) }),
	}
	for name, out := range outputs {
		if strings.Contains(out, token) || strings.Contains(out, "SECRET") {
			t.Errorf("%s shows the token: %s", name, out)
		}
		if !strings.Contains(out, "set") {
			t.Errorf("%s does not say the token is set: %s", name, out)
		}
	}
	if s := c.String(); !strings.Contains(s, "discord.token=set ") {
		t.Errorf("String() = %q, want it to contain discord.token=set", s)
	}
	if s := Default().String(); !strings.Contains(s, "discord.token=unset ") {
		t.Errorf("Default().String() = %q, want it to contain discord.token=unset", s)
	}
	obj := logged(func(e *zerolog.Event) { e.Object("config", c) })
	if !strings.Contains(obj, `"token":"set"`) || !strings.Contains(obj, `"turn_timeout":"2m"`) {
		t.Errorf("zerolog object = %s, want token \"set\" and turn_timeout \"2m\"", obj)
	}

	// An invalid token is refused without echoing it.
	_, err = Load("", envOf(map[string]string{"QWIXXBOT_TOKEN": "Bot " + token}))
	if err == nil || strings.Contains(err.Error(), token) {
		t.Errorf("error for a token with a space = %v, want an error that does not show the token", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustTOML(t *testing.T, v any) string {
	t.Helper()
	b, err := toml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func logged(fn func(e *zerolog.Event)) string {
	var buf bytes.Buffer
	log := zerolog.New(&buf)
	e := log.Info()
	fn(e)
	e.Msg("config")
	return buf.String()
}

func TestString(t *testing.T) {
	c := Default()
	c.Sandbox.Seed = ptr(int64(7))
	want := `discord.token=unset discord.application_id="" discord.base_url="https://discord.com" discord.guild_id="" ` +
		`discord.shard_id=0 discord.shard_count=1 discord.rate_limit=50 discord.interactions_addr="" discord.public_key="" store.path="qwixxbot.db" ` +
		`store.result_max_age=17520h store.results_per_guild=10000 store.record_max_age=2160h store.records_per_guild=250 store.guild_grace=720h store.backup_dir="" store.backup_every=24h store.backup_keep=7 log.level=info log.format=json log.debug_addr="" ` +
		`game.turn_timeout=2m game.reminder_before=20s game.max_players=5 game.language=en ` +
		`sandbox.out_dir="sandbox-out" sandbox.players=3 sandbox.variant=dice sandbox.seed=7 sandbox.addr="127.0.0.1:8080"`
	if got := c.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
}

func TestZerologLevel(t *testing.T) {
	tests := []struct {
		level string
		want  zerolog.Level
	}{
		{"debug", zerolog.DebugLevel},
		{"info", zerolog.InfoLevel},
		{"warn", zerolog.WarnLevel},
		{"error", zerolog.ErrorLevel},
	}
	for _, tt := range tests {
		if got := (Log{Level: tt.level}).ZerologLevel(); got != tt.want {
			t.Errorf("Log{Level: %q}.ZerologLevel() = %v, want %v", tt.level, got, tt.want)
		}
	}
}

func TestFmtDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{15 * time.Second, "15s"},
		{2 * time.Minute, "2m"},
		{90 * time.Second, "1m30s"},
		{24 * time.Hour, "24h"},
		{90 * time.Minute, "1h30m"},
		{time.Hour + time.Second, "1h0m1s"},
	}
	for _, tt := range tests {
		if got := fmtDuration(tt.d); got != tt.want {
			t.Errorf("fmtDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
