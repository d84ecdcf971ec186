package customid

import "testing"

// Every (view, verb) of the route table is routed once, every route is
// one entry, and a custom_id made for a pair decodes to it and to its
// route; a verb of another view does not.
func TestRouteTableIsTheCustomIDFormat(t *testing.T) {
	seen := map[View]map[string]bool{}
	routes := map[Route]bool{}
	for _, e := range Table() {
		if e.Route == "" || len(e.Verbs) == 0 {
			t.Fatalf("entry of view %c without a route or verbs", e.View)
		}
		if routes[e.Route] {
			t.Errorf("route %q in two entries", e.Route)
		}
		routes[e.Route] = true
		if seen[e.View] == nil {
			seen[e.View] = map[string]bool{}
		}
		for _, v := range e.Verbs {
			if seen[e.View][v] {
				t.Errorf("view %c verb %q routed twice", e.View, v)
			}
			seen[e.View][v] = true
			arg := ""
			switch v {
			case "white", "number":
				arg = "red"
			case "color":
				arg = "1.red"
			case "take":
				arg = "5"
			case "record", "review":
				arg = "1"
			case "bot":
				arg = "easy"
			case "as", "cross", "play":
				arg = "R4.r.4"
			}
			id := Action{Table: "abc", Stamp: 3, View: e.View, Verb: v, Arg: arg}.Encode()
			a, err := Decode(id)
			if err != nil || a.View != e.View || a.Verb != v {
				t.Errorf("%s: decoded %+v, %v", id, a, err)
			}
			if rt, ok := RouteOf(a.View, a.Verb); !ok || rt != e.Route {
				t.Errorf("%s: route %q, %v; want %q", id, rt, ok, e.Route)
			}
		}
	}
	if len(seen) != len(viewVerbs) {
		t.Fatalf("%d views routed, %d accepted", len(seen), len(viewVerbs))
	}
	for v, verbs := range seen {
		if len(Verbs(v)) != len(verbs) {
			t.Errorf("view %c: Verbs lists %d, the table %d", v, len(Verbs(v)), len(verbs))
		}
	}
	// A verb of the table is no verb of the lobby.
	if _, err := Decode(Action{Table: "abc", Stamp: 3, View: ViewLobby, Verb: "white", Arg: "red"}.Encode()); err == nil {
		t.Fatal("a lobby custom_id with a move verb was accepted")
	}
	if rt, ok := RouteOf(ViewLobby, "white"); ok {
		t.Fatalf("a move routed in the lobby: %q", rt)
	}
}

// Table hands out a copy: changing it changes no routing.
func TestRouteTableIsACopy(t *testing.T) {
	tab := Table()
	tab[0].Verbs[0] = "white"
	tab[0].View = ViewTable
	if rt, ok := RouteOf(ViewLobby, "join"); !ok || rt != RouteLobby {
		t.Fatalf("join in the lobby: %q, %v", rt, ok)
	}
}
