package bot

import "github.com/qwixxbot/qwixxbot/bot/customid"

// The custom_id codec and the route table are bot/customid's; the bot
// keeps, for each route, the handler that answers its clicks.

type (
	// Action is a decoded custom_id.
	Action = customid.Action
	// View is where a component sits.
	View = customid.View
)

// The views the bot makes components for (customid's).
const (
	ViewLobby   = customid.ViewLobby
	ViewTable   = customid.ViewTable
	ViewResults = customid.ViewResults
	ViewSheet   = customid.ViewSheet
	ViewHand    = customid.ViewHand
	ViewPeople  = customid.ViewPeople
	ViewSolo    = customid.ViewSolo
	ViewDaily   = customid.ViewDaily
)

// MaxCustomID is Discord's limit on a custom_id's length.
const MaxCustomID = customid.MaxCustomID

// DecodeAction reads a custom_id; anything this bot could not have made is
// an error (errOldButton for ids of an earlier version).
func DecodeAction(id string) (Action, error) { return customid.Decode(id) }

// clickHandler answers a decoded click.
type clickHandler func(b *Bot, r *request, a Action)

// clickHandlers answers each route of the route table (customid.Table).
// It is set by init: the handlers reach DecodeAction, which reads the
// table's verbs.
var clickHandlers map[customid.Route]clickHandler

func init() {
	clickHandlers = map[customid.Route]clickHandler{
		customid.RouteLobby:         (*Bot).lobbyClick,
		customid.RouteTableMove:     (*Bot).playClick,
		customid.RouteTableSheet:    func(b *Bot, r *request, a Action) { b.showSheet(r, a.Table) },
		customid.RouteTableHand:     handLocked(func(b *Bot, r *request, a Action) { b.showHand(r, a.Table, false, "") }),
		customid.RouteResultsAgain:  (*Bot).playAgain,
		customid.RouteResultsRecord: (*Bot).recordClick,
		customid.RouteResultsReview: (*Bot).reviewClick,
		customid.RoutePeopleShow:    (*Bot).statsShow,
		customid.RoutePeopleForget:  (*Bot).peopleClick,
		customid.RouteSheetMove:     (*Bot).playClick,
		customid.RouteSheetHint:     (*Bot).hint,
		customid.RouteHandMove:      handLocked((*Bot).playClick),
		customid.RouteHandBuilder:   handLocked((*Bot).playBuilderClick),
		customid.RouteHandRefresh:   handLocked(func(b *Bot, r *request, a Action) { b.showHand(r, a.Table, true, a.Arg) }),
		customid.RouteHandHint:      handLocked((*Bot).hintHand),
		customid.RouteSoloMove:      privately((*Bot).playClick),
		customid.RouteSoloHint:      privately((*Bot).privateHint),
		customid.RouteSoloReview:    privately((*Bot).reviewPrivate),
		customid.RouteSoloAgain:     privately(func(b *Bot, r *request, _ Action) { b.startPrivate(r, privateSolo, true) }),
		customid.RouteDailyMove:     privately((*Bot).playClick),
		customid.RouteDailyHint:     privately((*Bot).privateHint),
		customid.RouteDailyReview:   privately((*Bot).reviewPrivate),
	}
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
	rt, ok := customid.RouteOf(v, verb)
	if !ok {
		return nil
	}
	return clickHandlers[rt]
}
