package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The import rules of the whole layout (ARCHITECTURE.md, "Layout"), in one
// place: `go list -deps -json` runs once over the module and every rule is a
// subtest of TestLayout. A package's own imports of the standard library
// say whether it does I/O (fmt links os, so the transitive closure of any
// package holds os); for everything else, module packages and third-party
// libraries, the rules look at the transitive dependencies. Only non-test
// code counts (go list without -test).

// module is this module's path; m prefixes a path inside it.
const module = "github.com/qwixxbot/qwixxbot"

func m(p string) string { return module + "/" + p }

// Third-party libraries the rules name (patterns: the library and its
// subpackages).
const (
	anyDiscordgo = "github.com/bwmarrin/discordgo/..."
	anyBbolt     = "go.etcd.io/bbolt/..."
	anyZerolog   = "github.com/rs/zerolog/..."
)

// listedPkg is the part of `go list -json` the rules read.
type listedPkg struct {
	ImportPath string
	Standard   bool
	Imports    []string // direct, non-test
	Deps       []string // transitive, non-test
}

// layout is the module's packages and everything they depend on.
type layout struct {
	pkgs map[string]*listedPkg // by import path, dependencies included
	own  []string              // this module's packages, sorted
}

// listLayout runs `go list -deps -json` over the whole module.
func listLayout() (*layout, error) {
	cmd := exec.Command(goTool(), "list", "-deps", "-json", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps -json: %w\n%s", err, stderr.String())
	}
	l := &layout{pkgs: map[string]*listedPkg{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("decoding go list: %w", err)
		}
		l.pkgs[p.ImportPath] = &p
		if matches(p.ImportPath, module+"/...") {
			l.own = append(l.own, p.ImportPath)
		}
	}
	slices.Sort(l.own)
	return l, nil
}

var listed struct {
	once sync.Once
	l    *layout
	err  error
}

// theLayout lists the module once per test binary.
func theLayout(t *testing.T) *layout {
	t.Helper()
	listed.once.Do(func() { listed.l, listed.err = listLayout() })
	if listed.err != nil {
		t.Fatal(listed.err)
	}
	return listed.l
}

// matches reports whether path matches pattern: "x/..." is x and
// everything under it, anything else the exact path.
func matches(path, pattern string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

func matchesAny(path string, patterns []string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return matches(path, p) })
}

// layoutRule is one import rule. It applies to the module's packages that
// match pkgs and not except; each list below that is set adds a check.
type layoutRule struct {
	name   string
	pkgs   []string
	except []string
	// noImports: no direct import may match.
	noImports []string
	// onlyImports: every direct import must match.
	onlyImports []string
	// noDeps: no transitive dependency may match.
	noDeps []string
	// stdlibOnly: every transitive dependency is in the standard library.
	stdlibOnly bool
	// importedOnlyBy: every module package that imports one of pkgs
	// directly matches one of these.
	importedOnlyBy []string
	// plant is a violation the self-test adds to the listing: plant[0]
	// imports plant[1] (the package is created if it does not exist).
	plant [2]string
}

// applies lists the module packages the rule is about.
func (r layoutRule) applies(l *layout) []string {
	var out []string
	for _, p := range l.own {
		if matchesAny(p, r.pkgs) && !matchesAny(p, r.except) {
			out = append(out, p)
		}
	}
	return out
}

// violations returns every breach of r in l, one sentence each.
func (r layoutRule) violations(l *layout) []string {
	var bad []string
	for _, path := range r.applies(l) {
		p := l.pkgs[path]
		for _, imp := range p.Imports {
			if matchesAny(imp, r.noImports) {
				bad = append(bad, fmt.Sprintf("%s imports %s", path, imp))
			} else if r.onlyImports != nil && !matchesAny(imp, r.onlyImports) {
				bad = append(bad, fmt.Sprintf("%s imports %s, which is not on the rule's list of allowed imports", path, imp))
			}
		}
		var hits []string
		for _, dep := range p.Deps {
			if matchesAny(dep, r.noDeps) {
				hits = append(hits, dep)
			} else if d := l.pkgs[dep]; r.stdlibOnly && (d == nil || !d.Standard) {
				hits = append(hits, dep)
			}
		}
		for _, dep := range l.outermost(hits) {
			what := ""
			if r.stdlibOnly {
				what = ", which is not in the standard library"
			}
			bad = append(bad, fmt.Sprintf("%s depends on %s%s%s", path, dep, what, l.via(path, dep)))
		}
	}
	if r.importedOnlyBy != nil {
		for _, path := range l.own {
			if matchesAny(path, r.pkgs) || matchesAny(path, r.importedOnlyBy) {
				continue
			}
			for _, imp := range l.pkgs[path].Imports {
				if matchesAny(imp, r.pkgs) {
					bad = append(bad, fmt.Sprintf("%s imports %s, which only %s may import", path, imp, strings.Join(r.importedOnlyBy, ", ")))
				}
			}
		}
	}
	return bad
}

// outermost drops from deps those that another of deps depends on: a
// forbidden package is reported, not each of its own dependencies.
func (l *layout) outermost(deps []string) []string {
	var out []string
	for _, dep := range deps {
		if !slices.ContainsFunc(deps, func(o string) bool { d := l.pkgs[o]; return d != nil && slices.Contains(d.Deps, dep) }) {
			out = append(out, dep)
		}
	}
	return out
}

// via names the direct import of from through which it depends on dep.
func (l *layout) via(from, dep string) string {
	p := l.pkgs[from]
	if slices.Contains(p.Imports, dep) {
		return ""
	}
	for _, imp := range p.Imports {
		if d := l.pkgs[imp]; d != nil && slices.Contains(d.Deps, dep) {
			return " (through " + imp + ")"
		}
	}
	return ""
}

// gameImports is everything game and its subpackages may import: the
// standard library's pure parts (no os, net, io/fs, path/filepath,
// syscall, log, crypto/rand: a game is a function of its seed), the JSON
// encoder of the snapshot, and the module's own game packages. time is
// there for dates (the daily challenge's number) and the lab's
// injectable clock, runtime for the number of CPUs the arena and the
// search use; embed for the hard players' value tables.
var gameImports = []string{
	"bytes", "cmp", "compress/flate", "container/...", "crypto/hmac", "crypto/sha256",
	"embed", "encoding/binary", "encoding/json", "errors", "fmt", "hash/...", "io",
	"iter", "maps", "math/...", "runtime", "slices", "sort", "strconv", "strings",
	"sync", "sync/atomic", "time", "unicode/...",
	"github.com/segmentio/encoding/json",
	m("game/..."),
}

// ioImports are the standard library's packages that reach the world.
var ioImports = []string{"os/...", "net/...", "io/fs", "io/ioutil", "path/filepath", "syscall", "log/...", "crypto/rand", "plugin"}

// layoutRules are the rules of the layout.
var layoutRules = []layoutRule{{
	name:        "GameIsPure",
	pkgs:        []string{m("game/...")},
	noImports:   ioImports,
	onlyImports: gameImports,
	noDeps:      []string{anyBbolt, anyDiscordgo, anyZerolog, m("bot/..."), m("render/..."), m("store/..."), m("cmd/...")},
	plant:       [2]string{m("game"), "os"},
}, {
	name:   "RenderKnowsNoBotStoreOrDiscord",
	pkgs:   []string{m("render/...")},
	noDeps: []string{m("bot/..."), m("store/..."), m("cmd/..."), anyDiscordgo, anyBbolt},
	plant:  [2]string{m("render"), m("store")},
}, {
	// The session's own storage (store/sessiondb) included: the values
	// it shares with the session live under game.
	name:   "StoreKnowsNoBotRenderOrDiscord",
	pkgs:   []string{m("store/...")},
	noDeps: []string{m("bot/..."), m("render/..."), m("cmd/..."), anyDiscordgo},
	plant:  [2]string{m("store"), "github.com/bwmarrin/discordgo"},
}, {
	// The session and its data packages: their storage is interfaces
	// (implemented by store/sessiondb), and nothing they link talks to
	// the network.
	name:   "SessionKnowsNoDiscordStoreOrNet",
	pkgs:   []string{m("bot/session/...")},
	noDeps: []string{"net/...", anyDiscordgo, anyBbolt, m("store/..."), m("bot"), m("bot/discordhttp/..."), m("bot/discordtest/..."), m("bot/view/..."), m("render/...")},
	plant:  [2]string{m("bot/session"), "net/http"},
}, {
	name:   "I18nKnowsNoDiscordStoreOrBot",
	pkgs:   []string{m("bot/i18n/...")},
	noDeps: []string{anyDiscordgo, anyBbolt, m("store/..."), m("bot"), m("bot/session/..."), m("bot/discordhttp/..."), m("bot/discordtest/...")},
	plant:  [2]string{m("bot/i18n"), m("bot")},
}, {
	name:       "CustomIDIsStandardLibraryOnly",
	pkgs:       []string{m("bot/customid/...")},
	stdlibOnly: true,
	plant:      [2]string{m("bot/customid"), m("game")},
}, {
	// Pure functions from state to Discord's message data: no I/O, no
	// locks, no storage, no logging.
	name:      "ViewIsPure",
	pkgs:      []string{m("bot/view/...")},
	noImports: []string{"net/...", "os/...", "sync/..."},
	noDeps:    []string{m("store/..."), anyBbolt, anyZerolog, m("bot"), m("bot/discordhttp/..."), m("bot/discordtest/...")},
	plant:     [2]string{m("bot/view"), "sync"},
}, {
	name:       "ClockAndLogBufferAreStandardLibraryOnly",
	pkgs:       []string{m("bot/clock/..."), m("bot/logbuf/...")},
	stdlibOnly: true,
	plant:      [2]string{m("bot/clock"), "github.com/rs/zerolog"},
}, {
	// The fake Discord is test code: the programs link it only for the
	// sandbox and the load harness (and the players both use).
	name:           "DiscordTestOnlyInSandboxAndLoad",
	pkgs:           []string{m("bot/discordtest/...")},
	importedOnlyBy: []string{m("cmd/qwixxbot/internal/sandbox"), m("cmd/qwixxbot/internal/load"), m("cmd/qwixxbot/internal/players")},
	plant:          [2]string{m("bot"), m("bot/discordtest")},
}, {
	// Nothing below the adapter imports it; bot/discordhttp imports bot
	// only to implement its Discord interface.
	name:           "BotImportedOnlyByCmd",
	pkgs:           []string{m("bot")},
	importedOnlyBy: []string{m("cmd/..."), m("bot/discordhttp")},
	plant:          [2]string{m("render"), m("bot")},
}, {
	// The release binary links no test code: the fake Discord it runs for
	// the sandbox and the load harness takes its test helpers' testing.TB
	// as an interface of its own.
	name:   "ReleaseBinaryLinksNoTesting",
	pkgs:   []string{m("cmd/qwixxbot")},
	noDeps: []string{"testing/...", "net/http/httptest"},
	plant:  [2]string{m("cmd/qwixxbot"), "testing"},
}}

func TestLayout(t *testing.T) {
	l := theLayout(t)
	for _, r := range layoutRules {
		t.Run(r.name, func(t *testing.T) {
			// A rule that matches nothing fails, so a typo cannot silence it.
			if len(r.applies(l)) == 0 {
				t.Fatalf("no package matches %v: a rule that checks nothing", r.pkgs)
			}
			for _, v := range r.violations(l) {
				t.Error(v)
			}
		})
	}
}

// Every rule catches the violation it plants in the module's real listing
// (the package imports plant[1] and everything it depends on).
func TestLayoutRulesCatchPlantedViolations(t *testing.T) {
	l := theLayout(t)
	for _, r := range layoutRules {
		t.Run(r.name, func(t *testing.T) {
			from, imp := r.plant[0], r.plant[1]
			planted := &layout{pkgs: maps.Clone(l.pkgs), own: slices.Clone(l.own)}
			p := &listedPkg{ImportPath: from}
			if old := l.pkgs[from]; old != nil {
				p = &listedPkg{ImportPath: from, Standard: old.Standard, Imports: slices.Clone(old.Imports), Deps: slices.Clone(old.Deps)}
			} else {
				planted.own = append(planted.own, from)
			}
			p.Imports = append(p.Imports, imp)
			p.Deps = append(p.Deps, imp)
			if d := l.pkgs[imp]; d != nil {
				p.Deps = append(p.Deps, d.Deps...)
			}
			planted.pkgs[from] = p
			bad := r.violations(planted)
			if !slices.ContainsFunc(bad, func(v string) bool { return strings.Contains(v, from+" ") && strings.Contains(v, imp) }) {
				t.Errorf("%s importing %s: the rule reports %q, nothing about it", from, imp, bad)
			}
		})
	}
}
