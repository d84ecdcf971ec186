package session

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/session/surface"
)

// deps lists the packages that pkgs import, directly or not (go list
// -deps, from this package's directory), the packages themselves
// included.
func deps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps %v: %v", pkgs, err)
	}
	return strings.Fields(string(out))
}

const module = "github.com/qwixxbot/qwixxbot/"

// TestImportRulesSessionStorage: the session and its data packages
// (bot/session/...) import no store package, no discordgo and no network
// (net, net/http, ...): their storage is interfaces, implemented below by
// store/sessiondb, which imports no bot package; game/kept, the values
// both name, imports nothing of the module outside game.
func TestImportRulesSessionStorage(t *testing.T) {
	for _, dep := range deps(t, "./...") {
		if strings.HasPrefix(dep, module+"store") || strings.Contains(dep, "discordgo") || dep == "net" || strings.HasPrefix(dep, "net/") {
			t.Errorf("bot/session/... depends on %s", dep)
		}
	}
	sdb := deps(t, "../../store/sessiondb")
	if !strings.Contains(strings.Join(sdb, " "), module+"store/sessiondb") {
		t.Fatalf("go list did not list store/sessiondb: %v", sdb)
	}
	for _, dep := range sdb {
		if strings.HasPrefix(dep, module+"bot") {
			t.Errorf("store/sessiondb depends on %s", dep)
		}
	}
	for _, dep := range deps(t, "../../game/kept") {
		if strings.HasPrefix(dep, module) && !strings.HasPrefix(dep, module+"game") {
			t.Errorf("game/kept depends on %s", dep)
		}
	}
}

// TestSurfaceIsDataOnly: what the surfaces last showed (bot/session/surface)
// is data: it imports nothing of the module, and its types have no
// methods (the rules about it stay in the session).
func TestSurfaceIsDataOnly(t *testing.T) {
	for _, dep := range deps(t, "./surface") {
		if strings.HasPrefix(dep, module) && dep != module+"bot/session/surface" {
			t.Errorf("bot/session/surface depends on %s", dep)
		}
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[*surface.Shown](), reflect.TypeFor[*surface.Token](), reflect.TypeFor[*surface.PastTurn](),
		reflect.TypeFor[*surface.Messages](), reflect.TypeFor[*surface.PostedStamp](),
	} {
		if typ.NumMethod() != 0 {
			t.Errorf("%v has %d methods", typ, typ.NumMethod())
		}
	}
}
