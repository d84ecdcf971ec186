package i18n

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/text/language"

	"github.com/qwixxbot/qwixxbot/bot/i18n/internal/keys"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
)

func TestFor(t *testing.T) {
	tests := map[string]string{
		"de": "de", "fr": "fr", "en-US": "en", "en-GB": "en", "": "en", "ja": "en", "pt-BR": "en", "xx-nonsense": "en",
	}
	for locale, want := range tests {
		if got := For(locale).Code(); got != want {
			t.Errorf("For(%q) = %s, want %s", locale, got, want)
		}
	}
}

// A language is one file: the embedded ones pass the checks, and a
// language missing a message, having an unknown one, lacking a command
// name or a plural form, or with a plural nobody uses, is refused.
func TestLanguagesAreComplete(t *testing.T) {
	if _, err := loadEmbedded(); err != nil {
		t.Fatalf("the embedded message files: %v", err)
	}
	ls := All()
	if len(ls) != 3 || ls[0].Tag != language.English || len(Languages()) != 3 {
		t.Fatalf("languages %v", Languages())
	}
	if err := Check(ls); err != nil {
		t.Fatal(err)
	}
	de := *ls[1]
	broken := []struct {
		name string
		edit func(l *Language)
		want string
	}{
		{"missing message", func(l *Language) { delete(l.Messages, msg.BtnJoin) }, "btn.join"},
		{"unknown message", func(l *Language) { l.Messages["no.such"] = "x" }, "no.such"},
		{"missing command name", func(l *Language) { delete(l.Names, "solo") }, `"solo"`},
		{"missing plural", func(l *Language) { delete(l.Plurals, msg.BoardLine) }, "board.line"},
		{"unused plural", func(l *Language) {
			l.Plurals[msg.BtnJoin] = map[string]Plural{"x": {Arg: 1, One: "a", Other: "b"}}
		}, "not used"},
	}
	for _, b := range broken {
		l := de
		l.Messages, l.Names, l.Plurals = maps.Clone(de.Messages), maps.Clone(de.Names), maps.Clone(de.Plurals)
		b.edit(&l)
		err := Check([]*Language{ls[0], &l})
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: %v", b.name, err)
		}
	}
	if got := Of(language.French).CommandName("daily"); got != "défi-du-jour" {
		t.Fatalf("French daily: %q", got)
	}
	if For("de").Labels().Points != "Punkte" || For("en-GB").Labels().Points != "Points" {
		t.Fatal("picture labels per language")
	}
}

// A message file with a key the program does not know as a field, or a
// label that is no label, is refused with the file named.
func TestLoadRefusesBadFiles(t *testing.T) {
	en, err := fs.ReadFile(files, "locales/en.toml")
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"unknown section": string(en) + "\n[colours]\nred = 'x'\n",
		"unknown label":   strings.Replace(string(en), "[labels]\n", "[labels]\nTotl = 'Total'\n", 1),
		"not TOML":        "this is not = = toml",
	} {
		_, err := Load(fstest.MapFS{"en.toml": {Data: []byte(body)}})
		if err == nil || !strings.Contains(err.Error(), "en.toml") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

var verbRE = regexp.MustCompile(`%[-+# 0]*(\[\d+\])?[-+# 0]*\d*(?:\.\d+)?[a-zA-Z]`)

// Every message exists in all three languages with the same arguments,
// and each plural counts an argument of the message.
func TestMessagesCompleteAndConsistent(t *testing.T) {
	for key, m := range Messages() {
		want := verbRE.FindAllString(m[0], -1)
		slices.Sort(want)
		for i := 1; i < len(m); i++ {
			got := verbRE.FindAllString(m[i], -1)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s has verbs %v, English %v", key, Languages()[i], got, want)
			}
		}
		n := args(m[0])
		for _, l := range All() {
			for name, p := range l.Plurals[key] {
				if p.Arg > n {
					t.Errorf("%s (%s): plural %s counts argument %d of %d", key, l.Tag, name, p.Arg, n)
				}
			}
		}
	}
}

// args is how many arguments a message takes: its highest explicit index,
// or its number of verbs.
func args(text string) int {
	n := 0
	verbs := verbRE.FindAllStringSubmatch(strings.ReplaceAll(text, "%%", ""), -1)
	for _, v := range verbs {
		if v[1] == "" {
			continue
		}
		i, _ := strconv.Atoi(v[1][1 : len(v[1])-1])
		n = max(n, i)
	}
	if n == 0 {
		n = len(verbs)
	}
	return n
}

func TestTranslate(t *testing.T) {
	if got := For("de").T(msg.LobbySeats, 2, 5); got != "Spieler (2/5)" {
		t.Errorf("German: %q", got)
	}
	if got := For("fr").T(msg.LobbyTitle, "Qwixx"); got != "Nouvelle table : Qwixx" {
		t.Errorf("French: %q", got)
	}
	if got := For("ko").T(msg.BtnJoin); got != "Join" {
		t.Errorf("fallback: %q", got)
	}
	// Two counted words in one message, each by its own argument.
	for _, c := range []struct {
		code       string
		ranked, n  int
		want       string
		wantPlural string
	}{
		{"en", 1, 2, "ranked from 1 game. 2 games.", ""},
		{"fr", 0, 1, "0 partie. 1 partie.", ""},
		{"de", 2, 1, "2 Partien. 1 Partie.", ""},
	} {
		if got := For(c.code).T(msg.BoardMeasure, c.ranked, c.n); !strings.Contains(got, c.want) {
			t.Errorf("%s board.measure(%d, %d) = %q, want it to contain %q", c.code, c.ranked, c.n, got, c.want)
		}
	}
}

// TestForRemembersBoundedly: a locale's language is the same asked once
// or again, and what is remembered stays bounded however many different
// locales arrive (they come from interactions).
func TestForRemembersBoundedly(t *testing.T) {
	for _, c := range []struct{ locale, want string }{
		{"de", "de"}, {"fr", "fr"}, {"en-US", "en"}, {"en-GB", "en"}, {"pt-BR", "en"}, {"", "en"}, {"not a locale", "en"},
	} {
		for range 2 {
			if got := For(c.locale).Code(); got != c.want {
				t.Errorf("For(%q) = %s, want %s", c.locale, got, c.want)
			}
		}
	}
	if got := Or("pt-BR", "de").Code(); got != "de" {
		t.Errorf("Or(pt-BR, de) = %s, want the fallback de", got)
	}
	for i := range 3 * int(maxMatched) {
		For(fmt.Sprintf("x-%d", i))
	}
	n := 0
	matched.Range(func(any, any) bool { n++; return true })
	if n > int(maxMatched) {
		t.Errorf("%d locales remembered, want at most %d", n, maxMatched)
	}
	if got := For("fr-CA").Code(); got != "fr" {
		t.Errorf("For(fr-CA) once the memory is full = %s, want fr", got)
	}
}

// TestPlainMessagesFormattedOnce: a message asked for without arguments
// reads the same from memory as formatted afresh, every message in every
// language.
func TestPlainMessagesFormattedOnce(t *testing.T) {
	n := 0
	for _, tag := range Languages() {
		l := For(tag.String())
		for key, text := range All()[0].Messages {
			if strings.Contains(text, "%") || strings.Contains(text, "$") {
				continue // takes arguments
			}
			first, again := l.T(key), l.T(key)
			if fresh := l.c.p.Sprintf(string(key)); first != fresh || again != fresh {
				t.Errorf("%s %q: %q, then %q; formatted afresh %q", tag, key, first, again, fresh)
			}
			n++
		}
	}
	if n < 50 {
		t.Errorf("only %d messages without arguments checked", n)
	}
}

func TestImageLabelsValid(t *testing.T) {
	for _, tag := range Languages() {
		l := For(tag.String())
		if err := l.Labels().Validate(); err != nil {
			t.Errorf("%s: %v", tag, err)
		}
	}
	if For("de").Labels().Misthrows != "Fehlwürfe" || For("fr").Labels().Misthrows != "Coups manqués" {
		t.Error("rulebook terms missing")
	}
}

// The key constants are generated from the English file as it is: a key
// added to or taken from en.toml without go generate fails here.
func TestKeysAreGenerated(t *testing.T) {
	en, err := fs.ReadFile(files, "locales/en.toml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := keys.Generate(en)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("msg/keys.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("msg/keys.go is not what en.toml makes: run go generate ./bot/i18n")
	}
}

// tCall is a call of Lang.T found in the source.
type tCall struct {
	pos      token.Position
	key      msg.Key // "" when the key is not a constant of package msg
	literal  bool    // the key is a string literal
	args     int     // arguments after the key
	variadic bool    // args... : not counted
}

// scanSource parses every Go file below the repository's bot and cmd
// folders (tests too when tests is set) and returns the calls of T and the
// msg constants the code names.
func scanSource(t *testing.T, tests bool) ([]tCall, map[msg.Key]int) {
	t.Helper()
	root := filepath.Join("..", "..")
	consts := map[string]msg.Key{}
	for _, k := range slices.Collect(maps.Keys(All()[0].Messages)) {
		consts[keys.Name(string(k))] = k
	}
	var calls []tCall
	used := map[msg.Key]int{}
	fset := token.NewFileSet()
	for _, dir := range []string{"bot", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, filepath.Join("msg", "keys.go")) {
				return err
			}
			if !tests && strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "msg" {
						if k, ok := consts[sel.Sel.Name]; ok {
							used[k]++
						}
					}
				}
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				fn, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || fn.Sel.Name != "T" {
					return true
				}
				c := tCall{pos: fset.Position(call.Pos()), args: len(call.Args) - 1, variadic: call.Ellipsis.IsValid()}
				switch a := call.Args[0].(type) {
				case *ast.SelectorExpr:
					if id, ok := a.X.(*ast.Ident); ok && id.Name == "msg" {
						c.key = consts[a.Sel.Name]
					}
				case *ast.BasicLit:
					c.literal = a.Kind == token.STRING
				}
				if c.key != "" || c.literal || isKeyish(call.Args[0]) {
					calls = append(calls, c)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return calls, used
}

// isKeyish reports whether a T argument looks like a message key (an
// index into or a call of package i18n's key tables, or a variable), as
// opposed to T of another type.
func isKeyish(e ast.Expr) bool {
	switch e.(type) {
	case *ast.IndexExpr, *ast.CallExpr, *ast.Ident:
		return true
	}
	return false
}

// Every call of T names its message by a constant of package msg, and
// passes as many arguments as the message takes: a mistyped key does not
// compile, a missing or extra argument fails here.
func TestEveryCallPassesItsArguments(t *testing.T) {
	calls, _ := scanSource(t, true)
	checked := 0
	for _, c := range calls {
		switch {
		case c.literal:
			t.Errorf("%s: T with a string literal: name the message by its constant in package msg", c.pos)
		case c.key == "" || c.variadic:
			// a key from a table of constants, or arguments passed on
		default:
			if want := args(All()[0].Messages[c.key]); c.args != want {
				t.Errorf("%s: T(msg.%s) with %d arguments; the message takes %d", c.pos, keys.Name(string(c.key)), c.args, want)
			}
			checked++
		}
	}
	if checked < 300 {
		t.Errorf("only %d calls of T checked", checked)
	}
	t.Logf("%d calls of T checked, %d with keys from tables or passed-on arguments", checked, len(calls)-checked)
}

// Every message is used by the program (tests alone do not count).
func TestNoUnusedMessages(t *testing.T) {
	_, used := scanSource(t, false)
	for _, k := range slices.Sorted(maps.Keys(All()[0].Messages)) {
		if used[k] == 0 {
			t.Errorf("message %q (msg.%s) is used nowhere: delete it from every language", k, keys.Name(string(k)))
		}
	}
}
