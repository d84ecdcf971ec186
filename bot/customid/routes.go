package customid

// The route table: what a click on a component does, by the view it sits
// in and its verb (the custom_id's view and verb segments). Decode accepts
// exactly the (view, verb) pairs listed here, and the bot dispatches
// through it (each Route has one handler there), so the custom_id format
// and the handlers cannot drift apart.

// Route names one entry of the route table: the clicks on some verbs of
// one view that one handler of the bot answers.
type Route string

// The routes. Handlers of hand views (and of the table's "My cards") run
// under the user's hand lock, in turn with the bot's edits of their hand
// views; private games' under the key of the clicker's own game.
const (
	RouteLobby         Route = "lobby"          // the lobby's buttons
	RouteTableMove     Route = "table-move"     // a move on the table message
	RouteTableSheet    Route = "table-sheet"    // the table's "My sheet"
	RouteTableHand     Route = "table-hand"     // the table's "My cards"
	RouteResultsAgain  Route = "results-again"  // Play again
	RouteResultsRecord Route = "results-record" // a player's record
	RouteResultsReview Route = "results-review" // the game's review
	RoutePeopleShow    Route = "people-show"    // statistics shown to the channel
	RoutePeopleForget  Route = "people-forget"  // forget-me confirmed or not
	RouteSheetMove     Route = "sheet-move"     // a move in the sheet view
	RouteSheetHint     Route = "sheet-hint"     // a hint in the sheet view
	RouteHandMove      Route = "hand-move"      // a move in the hand view
	RouteHandBuilder   Route = "hand-builder"   // the play builder's menus
	RouteHandRefresh   Route = "hand-refresh"   // the hand view's Refresh
	RouteHandHint      Route = "hand-hint"      // a hint in the hand view
	RouteSoloMove      Route = "solo-move"      // a move in a solo game
	RouteSoloHint      Route = "solo-hint"      // a hint in a solo game
	RouteSoloReview    Route = "solo-review"    // a solo game's review
	RouteSoloAgain     Route = "solo-again"     // another solo game
	RouteDailyMove     Route = "daily-move"     // a move in the daily game
	RouteDailyHint     Route = "daily-hint"     // a hint in the daily game
	RouteDailyReview   Route = "daily-review"   // the daily game's review
)

// Entry is a line of the route table: the verbs of a view that a route
// answers.
type Entry struct {
	Route Route
	View  View
	Verbs []string
}

// MoveVerbs are the verbs of a move in a running game.
var MoveVerbs = []string{"white", "number", "color", "take", "pass"}

// table is the route table.
var table = []Entry{
	{RouteLobby, ViewLobby, []string{"join", "leave", "start", "cancel", "bot", "unbot", "leavers", "hints"}},
	{RouteTableMove, ViewTable, MoveVerbs},
	{RouteTableSheet, ViewTable, []string{"sheet"}},
	{RouteTableHand, ViewTable, []string{"hand"}},
	{RouteResultsAgain, ViewResults, []string{"again"}},
	{RouteResultsRecord, ViewResults, []string{"record"}},
	{RouteResultsReview, ViewResults, []string{"review"}},
	{RoutePeopleShow, ViewPeople, []string{"show"}},
	{RoutePeopleForget, ViewPeople, []string{"forget", "keep"}},
	{RouteSheetMove, ViewSheet, MoveVerbs},
	{RouteSheetHint, ViewSheet, []string{"hint"}},
	{RouteHandMove, ViewHand, []string{"take", "number", "pass", "play"}},
	{RouteHandBuilder, ViewHand, []string{"pick", "as", "cross"}},
	{RouteHandRefresh, ViewHand, []string{"hand"}},
	{RouteHandHint, ViewHand, []string{"hint"}},
	{RouteSoloMove, ViewSolo, []string{"white", "color", "pass"}},
	{RouteSoloHint, ViewSolo, []string{"hint"}},
	{RouteSoloReview, ViewSolo, []string{"review"}},
	{RouteSoloAgain, ViewSolo, []string{"again"}},
	{RouteDailyMove, ViewDaily, []string{"white", "color", "pass"}},
	{RouteDailyHint, ViewDaily, []string{"hint"}},
	{RouteDailyReview, ViewDaily, []string{"review"}},
}

// Table returns the route table (a copy).
func Table() []Entry {
	out := make([]Entry, len(table))
	for i, e := range table {
		e.Verbs = append([]string(nil), e.Verbs...)
		out[i] = e
	}
	return out
}

// RouteOf is the route of a click on view's verb; ok is false for none.
func RouteOf(v View, verb string) (r Route, ok bool) {
	for _, e := range table {
		if e.View != v {
			continue
		}
		for _, x := range e.Verbs {
			if x == verb {
				return e.Route, true
			}
		}
	}
	return "", false
}

// routeVerbs lists the route table's verbs by view.
func routeVerbs() map[View][]string {
	out := map[View][]string{}
	for _, e := range table {
		out[e.View] = append(out[e.View], e.Verbs...)
	}
	return out
}
