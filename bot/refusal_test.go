package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
)

// Every refusal of the session's intents has words of its own: none is
// answered as an internal error, and the list below names every exported
// Err… variable of bot/session (read from its source), so a refusal added
// there without words here fails this test.
func TestEveryRefusalHasWords(t *testing.T) {
	refusals := map[string]error{
		"ErrStale": session.ErrStale, "ErrGameOver": session.ErrGameOver, "ErrPrivateGone": session.ErrPrivateGone,
		"ErrPrivateStale": session.ErrPrivateStale, "ErrNotNow": session.ErrNotNow, "ErrHintsOff": session.ErrHintsOff,
		"ErrNothingToHint": session.ErrNothingToHint, "ErrReviewNotOver": session.ErrReviewNotOver, "ErrNotInGame": session.ErrNotInGame,
		"ErrNoHand": session.ErrNoHand, "ErrHandOver": session.ErrHandOver, "ErrNotAsker": session.ErrNotAsker,
		"ErrBusy": session.ErrBusy, "ErrLobbyOpen": session.ErrLobbyOpen, "ErrBadChoice": session.ErrBadChoice,
		"ErrNoGame": session.ErrNoGame, "ErrRemoveHost": session.ErrRemoveHost, "ErrEndPerm": session.ErrEndPerm,
		"ErrNotPlaying": session.ErrNotPlaying, "ErrLeftMatch": session.ErrLeftMatch, "ErrSeated": session.ErrSeated,
		"ErrFull": session.ErrFull, "ErrNotSeated": session.ErrNotSeated, "ErrHostLeaves": session.ErrHostLeaves,
		"ErrHostOnly": session.ErrHostOnly, "ErrFewPlayers": session.ErrFewPlayers,
		"ErrManageServer": session.ErrManageServer, "ErrTimeoutRange": session.ErrTimeoutRange,
	}
	// Errors of the session that are no refusal of a click: the adapter
	// handles them otherwise (a play not complete yet, a damaged stored
	// table).
	notRefusals := []string{"ErrNoColor", "ErrCorrupt"}

	files, err := filepath.Glob(filepath.Join("session", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				for _, n := range spec.(*ast.ValueSpec).Names {
					if strings.HasPrefix(n.Name, "Err") && n.IsExported() && refusals[n.Name] == nil && !slices.Contains(notRefusals, n.Name) {
						t.Errorf("session.%s (%s) has no words in refusal and is not listed here", n.Name, f)
					}
				}
			}
		}
	}
	tb := &Table{Host: "anna", MaxSeats: 3}
	internal := view.Refusal(LangFor("en"), tb, errRefused)
	for _, lang := range []string{"en", "de", "fr"} {
		l := LangFor(lang)
		for name, err := range refusals {
			words := view.Refusal(l, tb, err)
			if words == "" || words == internal {
				t.Errorf("%s: session.%s is answered as %q", lang, name, words)
			}
		}
	}
	if got := view.Refusal(LangFor("en"), tb, session.ErrFull); !strings.Contains(got, "3") {
		t.Errorf("ErrFull at a table of 3 seats: %q", got)
	}
}
