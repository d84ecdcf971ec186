package view

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The views are pure: their files import only what words and message data
// need (no store, no logger, no HTTP, no locks, not the bot) and never read
// the clock; times are passed in.
func TestViewsArePure(t *testing.T) {
	allowed := map[string]bool{
		"bytes": true, "encoding/json": true, "errors": true, "fmt": true, "math": true, "slices": true, "strconv": true, "strings": true,
		"time": true, "unicode": true, "unicode/utf8": true,
		"github.com/bwmarrin/discordgo":             true,
		"github.com/qwixxbot/qwixxbot/bot/customid": true,
		"github.com/qwixxbot/qwixxbot/bot/i18n":     true,
		"github.com/qwixxbot/qwixxbot/bot/i18n/msg": true,
		"github.com/qwixxbot/qwixxbot/bot/session":  true,
		"github.com/qwixxbot/qwixxbot/game":         true,
		"github.com/qwixxbot/qwixxbot/game/ai":      true,
		"github.com/qwixxbot/qwixxbot/game/stats":   true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		n++
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !allowed[path] {
				t.Errorf("%s imports %s", name, path)
			}
		}
		ast.Inspect(f, func(node ast.Node) bool {
			if sel, ok := node.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" && (sel.Sel.Name == "Now" || sel.Sel.Name == "Since" || sel.Sel.Name == "Until") {
					t.Errorf("%s reads the clock: time.%s at %s", name, sel.Sel.Name, fset.Position(sel.Pos()))
				}
			}
			return true
		})
	}
	if n == 0 {
		t.Fatal("no view files found")
	}
}
