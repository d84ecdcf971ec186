package bot

import "testing"

// Every (view, verb) of the routing table has exactly one handler, every
// view's components are either all private or all public, and a custom_id
// made for a pair decodes to it; a verb of another view does not.
func TestRoutingTableIsTheCustomIDFormat(t *testing.T) {
	seen := map[View]map[string]bool{}
	for _, rt := range routes {
		if rt.handle == nil || len(rt.verbs) == 0 {
			t.Fatalf("route of view %c without a handler or verbs", rt.view)
		}
		if seen[rt.view] == nil {
			seen[rt.view] = map[string]bool{}
		}
		for _, v := range rt.verbs {
			if seen[rt.view][v] {
				t.Errorf("view %c verb %q routed twice", rt.view, v)
			}
			seen[rt.view][v] = true
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
				continue // the play builder's arguments: customid_test.go
			}
			id := Action{Table: "abc", Stamp: 3, View: rt.view, Verb: v, Arg: arg}.Encode()
			a, err := DecodeAction(id)
			if err != nil || a.View != rt.view || a.Verb != v || handlerOf(a.View, a.Verb) == nil {
				t.Errorf("%s: decoded %+v, %v", id, a, err)
			}
		}
	}
	if len(seen) != len(viewVerbs) {
		t.Fatalf("%d views routed, %d accepted", len(seen), len(viewVerbs))
	}
	// A verb of the table is no verb of the lobby.
	if _, err := DecodeAction(Action{Table: "abc", Stamp: 3, View: ViewLobby, Verb: "white", Arg: "red"}.Encode()); err == nil {
		t.Fatal("a lobby custom_id with a move verb was accepted")
	}
	if handlerOf(ViewLobby, "white") != nil {
		t.Fatal("a move routed in the lobby")
	}
}
