package bot

// The routing table: what a click on a component does, by the view it
// sits in and its verb (the custom_id's view and verb segments, see
// customid.go). DecodeAction accepts exactly the (view, verb) pairs listed
// here, and component dispatches through it, so the custom_id format and
// the handlers cannot drift apart.

// clickHandler answers a decoded click.
type clickHandler func(b *Bot, r *request, a Action)

// route sends the clicks of a view's verbs to a handler.
type route struct {
	view   View
	verbs  []string
	handle clickHandler
}

// moveVerbs are the verbs of a move in a running game (moveFromAction).
var moveVerbs = []string{"white", "number", "color", "take", "pass"}

// routes is the routing table. Handlers of hand views (and of the table's
// "My cards") run under the user's hand lock (handLocked), in turn with
// the bot's edits of their hand views; private games' under the key of
// the clicker's own game (privately). It is set by init: the handlers
// reach DecodeAction, which reads the table's verbs.
var routes []route

func init() {
	routes = []route{
		{ViewLobby, []string{"join", "leave", "start", "cancel", "bot", "unbot", "leavers", "hints"}, (*Bot).lobbyClick},
		{ViewTable, moveVerbs, (*Bot).playClick},
		{ViewTable, []string{"sheet"}, func(b *Bot, r *request, a Action) { b.showSheet(r, a.Table) }},
		{ViewTable, []string{"hand"}, handLocked(func(b *Bot, r *request, a Action) { b.showHand(r, a.Table, false, "") })},
		{ViewResults, []string{"again"}, (*Bot).playAgain},
		{ViewResults, []string{"record"}, (*Bot).recordClick},
		{ViewResults, []string{"review"}, (*Bot).reviewClick},
		{ViewPeople, []string{"show"}, (*Bot).statsShow},
		{ViewPeople, []string{"forget", "keep"}, (*Bot).peopleClick},
		{ViewSheet, moveVerbs, (*Bot).playClick},
		{ViewSheet, []string{"hint"}, (*Bot).hint},
		{ViewHand, []string{"take", "number", "pass", "play"}, handLocked((*Bot).playClick)},
		{ViewHand, []string{"pick", "as", "cross"}, handLocked((*Bot).playBuilderClick)},
		{ViewHand, []string{"hand"}, handLocked(func(b *Bot, r *request, a Action) { b.showHand(r, a.Table, true, a.Arg) })},
		{ViewHand, []string{"hint"}, handLocked((*Bot).hintHand)},
		{ViewSolo, []string{"white", "color", "pass"}, privately((*Bot).playClick)},
		{ViewSolo, []string{"hint"}, privately((*Bot).privateHint)},
		{ViewSolo, []string{"review"}, privately((*Bot).reviewPrivate)},
		{ViewSolo, []string{"again"}, privately(func(b *Bot, r *request, _ Action) { b.startPrivate(r, privateSolo, true) })},
		{ViewDaily, []string{"white", "color", "pass"}, privately((*Bot).playClick)},
		{ViewDaily, []string{"hint"}, privately((*Bot).privateHint)},
		{ViewDaily, []string{"review"}, privately((*Bot).reviewPrivate)},
	}
	viewVerbs = routeVerbs()
}

// handLocked runs h under the clicker's hand lock in the channel.
func handLocked(h clickHandler) clickHandler {
	return func(b *Bot, r *request, a Action) {
		unlock := b.hands.lockUser(r.i.ChannelID, r.userID)
		defer unlock()
		h(b, r, a)
	}
}

// privately runs h on the clicker's own private game of the view's kind.
func privately(h clickHandler) clickHandler {
	return func(b *Bot, r *request, a Action) {
		kind := privateSolo
		if a.View == ViewDaily {
			kind = privateDaily
		}
		r.key = privateKey(kind, r.userID)
		h(b, r, a)
	}
}

// handlerOf is the handler of a click on view's verb, nil for none.
func handlerOf(v View, verb string) clickHandler {
	for _, rt := range routes {
		if rt.view != v {
			continue
		}
		for _, x := range rt.verbs {
			if x == verb {
				return rt.handle
			}
		}
	}
	return nil
}

// routeVerbs lists the routing table's verbs by view.
func routeVerbs() map[View][]string {
	out := map[View][]string{}
	for _, rt := range routes {
		out[rt.view] = append(out[rt.view], rt.verbs...)
	}
	return out
}
