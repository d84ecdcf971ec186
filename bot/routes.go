package bot

import "github.com/qwixxbot/qwixxbot/bot/customid"

// The custom_id codec and the route table are bot/customid's; the bot
// keeps, for each route, the handler that answers its clicks.

// clickHandler answers a decoded click.
type clickHandler func(b *Bot, r *request, a customid.Action)

// clickHandlers answers each route of the route table (customid.Table).
// It is set by init: the handlers reach DecodeAction, which reads the
// table's verbs.
var clickHandlers map[customid.Route]clickHandler

func init() {
	clickHandlers = map[customid.Route]clickHandler{
		customid.RouteLobby:         (*Bot).lobbyClick,
		customid.RouteTableMove:     (*Bot).playClick,
		customid.RouteTableSheet:    func(b *Bot, r *request, a customid.Action) { b.showSheet(r, a.Table) },
		customid.RouteTableHand:     handLocked(func(b *Bot, r *request, a customid.Action) { b.showHand(r, a.Table, false, "") }),
		customid.RouteResultsAgain:  (*Bot).playAgain,
		customid.RouteResultsRecord: (*Bot).recordClick,
		customid.RouteResultsReview: (*Bot).reviewClick,
		customid.RoutePeopleShow:    (*Bot).statsShow,
		customid.RoutePeopleForget:  (*Bot).peopleClick,
		customid.RouteSheetMove:     (*Bot).playClick,
		customid.RouteSheetHint:     (*Bot).hint,
		customid.RouteHandMove:      handLocked((*Bot).playClick),
		customid.RouteHandBuilder:   handLocked((*Bot).playBuilderClick),
		customid.RouteHandRefresh:   handLocked(func(b *Bot, r *request, a customid.Action) { b.showHand(r, a.Table, true, a.Arg) }),
		customid.RouteHandHint:      handLocked((*Bot).hintHand),
		customid.RouteSoloMove:      privately((*Bot).playClick),
		customid.RouteSoloHint:      privately((*Bot).privateHint),
		customid.RouteSoloReview:    privately((*Bot).reviewPrivate),
		customid.RouteSoloAgain:     privately(func(b *Bot, r *request, _ customid.Action) { b.startPrivate(r, privateSolo, true) }),
		customid.RouteDailyMove:     privately((*Bot).playClick),
		customid.RouteDailyHint:     privately((*Bot).privateHint),
		customid.RouteDailyReview:   privately((*Bot).reviewPrivate),
	}
}

// handLocked runs h under the clicker's hand lock in the channel.
func handLocked(h clickHandler) clickHandler {
	return func(b *Bot, r *request, a customid.Action) {
		unlock := b.hands.lockUser(r.i.ChannelID, r.userID)
		defer unlock()
		h(b, r, a)
	}
}

// privately runs h on the clicker's own private game of the view's kind.
func privately(h clickHandler) clickHandler {
	return func(b *Bot, r *request, a customid.Action) {
		kind := privateSolo
		if a.View == customid.ViewDaily {
			kind = privateDaily
		}
		r.key = privateKey(kind, r.userID)
		h(b, r, a)
	}
}

// handlerOf is the handler of a click on view's verb, nil for none.
func handlerOf(v customid.View, verb string) clickHandler {
	rt, ok := customid.RouteOf(v, verb)
	if !ok {
		return nil
	}
	return clickHandlers[rt]
}
