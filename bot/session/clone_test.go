package session

import (
	"reflect"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

// fill sets every exported field reachable from v to a value that is not
// zero (slices of two, pointers to filled values), leaving the game and
// interfaces alone.
func fill(t *testing.T, v reflect.Value, depth int) {
	t.Helper()
	if depth > 8 {
		t.Fatalf("fill: too deep at %v", v.Type())
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(t, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Pointer:
		if v.Type() == reflect.TypeFor[*game.Game]() {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(t, v.Field(i), depth+1)
			}
		}
	case reflect.Interface, reflect.Map, reflect.Func, reflect.Chan:
		// none in what a table stores; a new one shows up in shared()
	default:
		t.Fatalf("fill: %v", v.Kind())
	}
}

// shared reports the first memory two values share: a slice's array, a
// pointer's target or a map. The game's snapshot is shared on purpose:
// its bytes are only ever replaced, never changed.
func shared(a, b reflect.Value, path string) string {
	if path == "Table.Snapshot" {
		return ""
	}
	switch a.Kind() {
	case reflect.Slice:
		if a.Len() > 0 && b.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := range min(a.Len(), b.Len()) {
			if p := shared(a.Index(i), b.Index(i), path+"[i]"); p != "" {
				return p
			}
		}
	case reflect.Pointer:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			return path
		}
		if !a.IsNil() && a.Type() != reflect.TypeFor[*game.Game]() {
			return shared(a.Elem(), b.Elem(), path)
		}
	case reflect.Map, reflect.Interface:
		if !a.IsNil() {
			return path + " (a map or an interface: CloneStored does not know it)"
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				if p := shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
					return p
				}
			}
		}
	}
	return ""
}

// TestCloneStoredIsDeep: a clone equals what the table stores, field for
// field, and shares no memory with it, so a table handed out as a copy of
// the one decoded before cannot change it. Every field is filled, so a
// new field that CloneStored does not copy fails here.
func TestCloneStoredIsDeep(t *testing.T) {
	var tb Table
	fill(t, reflect.ValueOf(&tb).Elem(), 0)
	g, err := game.New(game.Config{Variant: game.Cards, Players: []string{"a", "b"}, Seed: [32]byte{3}})
	if err != nil {
		t.Fatal(err)
	}
	tb.Game = g
	c := tb.CloneStored()
	if c.Finished != nil || c.Problems != nil {
		t.Fatal("Finished or Problems copied")
	}
	want := tb
	want.Finished, want.Problems, want.Game = nil, nil, nil
	got := *c
	if got.Game == nil || got.Game == tb.Game || got.Game.Turn() != tb.Game.Turn() {
		t.Fatal("the game is not cloned")
	}
	got.Game = nil
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("the clone differs:\n%+v\n%+v", want, got)
	}
	if p := shared(reflect.ValueOf(tb), reflect.ValueOf(*c), "Table"); p != "" {
		t.Fatalf("the clone shares %s with the table", p)
	}
}
