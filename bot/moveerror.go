package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/qwixxbot/qwixxbot/game"
)

// reasonMessages explain refused moves; see explain for each one's arguments.
var reasonMessages = map[string][3]string{
	"why.over":      {"The game is over.", "Das Spiel ist vorbei.", "La partie est terminée."},
	"why.player":    {"You are not playing in this game.", "Du spielst in diesem Spiel nicht mit.", "Tu ne joues pas dans cette partie."},
	"why.turn":      {"It is not your turn: only the active player may do that now.", "Du bist nicht dran: Das darf jetzt nur der aktive Spieler.", "Ce n'est pas ton tour : seul le joueur actif peut le faire maintenant."},
	"why.decided":   {"You have already decided in this action.", "Du hast in dieser Aktion schon entschieden.", "Tu as déjà décidé pour cette action."},
	"why.action":    {"That does not belong to the current action.", "Das gehört nicht zur aktuellen Aktion.", "Cela ne correspond pas à l'action en cours."},
	"why.number":    {"There is no %[2]d %[1]s.", "Es gibt keine %[2]d %[1]s.", "Il n'y a pas de %[2]d %[1]s."},
	"why.closed":    {"%[1]s is locked for everybody.", "%[1]s ist für alle abgeschlossen.", "%[1]s est verrouillée pour tous."},
	"why.diegone":   {"The %[1]s die has left the game.", "Der %[1]s Würfel ist aus dem Spiel.", "Le dé %[1]s a quitté le jeu."},
	"why.ownlock":   {"You have locked %[1]s on your sheet.", "Du hast %[1]s auf deinem Zettel abgeschlossen.", "Tu as verrouillé %[1]s sur ta fiche."},
	"why.crossed":   {"%[1]s is already crossed.", "%[1]s ist schon angekreuzt.", "%[1]s est déjà coché."},
	"why.left":      {"%[1]s is left of your last cross %[2]s (%[3]d).", "%[1]s liegt links von deinem letzten Kreuz %[2]s (%[3]d).", "%[1]s est à gauche de ta dernière croix %[2]s (%[3]d)."},
	"why.five":      {"To cross %[1]s you need at least 5 crosses %[2]s first (you have %[3]d).", "Für %[1]s brauchst du vorher mindestens 5 Kreuze %[2]s (du hast %[3]d).", "Pour cocher %[1]s, il te faut d'abord au moins 5 croix %[2]s (tu en as %[3]d)."},
	"why.white":     {"Choose white die 1 or 2.", "Wähle den weißen Würfel 1 oder 2.", "Choisis le dé blanc 1 ou 2."},
	"why.take":      {"Take %[1]d {1:card|cards} so that you hold 5 (you chose %[2]d).", "Nimm %[1]d {1:Karte|Karten}, damit du 5 hast (du hast %[2]d gewählt).", "Prends %[1]d {1:carte|cartes} pour en avoir 5 (tu en as choisi %[2]d)."},
	"why.display":   {"There is no %[1]d in the display.", "In der Auslage liegt keine %[1]d.", "Il n'y a pas de %[1]d dans l'étalage."},
	"why.count":     {"Play 1 to 3 cards (you chose %[1]d).", "Spiele 1 bis 3 Karten aus (du hast %[1]d gewählt).", "Joue 1 à 3 cartes (tu en as choisi %[1]d)."},
	"why.hand":      {"That card is not in your hand.", "Diese Karte hast du nicht auf der Hand.", "Cette carte n'est pas dans ta main."},
	"why.twice":     {"The same card is chosen twice.", "Dieselbe Karte ist doppelt gewählt.", "La même carte est choisie deux fois."},
	"why.mixed":     {"Cards played together must be of one colour.", "Zusammen ausgespielte Karten müssen dieselbe Farbe haben.", "Les cartes jouées ensemble doivent être de la même couleur."},
	"why.jokercol":  {"These cards cannot all count as %[1]s.", "Diese Karten können nicht alle als %[1]s zählen.", "Ces cartes ne peuvent pas toutes compter comme %[1]s."},
	"why.notplayed": {"%[1]d is not among the cards you play.", "%[1]d ist nicht unter den ausgespielten Karten.", "%[1]d ne fait pas partie des cartes jouées."},
	"why.gap":       {"Between your first and last cross you may leave out at most one number (this would leave out %[1]s).", "Zwischen deinem ersten und letzten Kreuz darfst du höchstens eine Zahl auslassen (hier fehlten %[1]s).", "Entre ta première et ta dernière croix, tu peux sauter au plus un chiffre (ici, il manquerait %[1]s)."},
	"why.color":     {"There is no such colour.", "Diese Farbe gibt es nicht.", "Cette couleur n'existe pas."},
}

// colorName is a row's colour in the language.
func colorName(l Lang, c game.Color) string { return l.T("color." + c.String()) }

// explain says in the user's language why a move was refused.
func explain(l Lang, err error) string {
	var e *game.MoveError
	if !errors.As(err, &e) {
		return l.T("err.internal")
	}
	switch e.Reason {
	case game.ReasonGameOver:
		return l.T("why.over")
	case game.ReasonNoSuchPlayer:
		return l.T("why.player")
	case game.ReasonNotYourTurn:
		return l.T("why.turn")
	case game.ReasonAlreadyDecided:
		return l.T("why.decided")
	case game.ReasonNoSuchNumber:
		return l.T("why.number", rowIn(l, e.Color), e.Number)
	case game.ReasonRowClosed:
		return upperFirst(l.T("why.closed", rowName(l, e.Color)))
	case game.ReasonDieGone:
		return l.T("why.diegone", l.T("adj."+e.Color.String()))
	case game.ReasonRowLockedOwn:
		return l.T("why.ownlock", rowName(l, e.Color))
	case game.ReasonAlreadyCrossed:
		return upperFirst(l.T("why.crossed", cellName(l, e.Color, e.Number)))
	case game.ReasonLeftOfLast:
		return upperFirst(l.T("why.left", cellName(l, e.Color, e.Number), rowIn(l, e.Color), e.Last))
	case game.ReasonNeedFive:
		return l.T("why.five", cellName(l, e.Color, e.Number), rowIn(l, e.Color), e.Count)
	case game.ReasonBadWhiteDie:
		return l.T("why.white")
	case game.ReasonTakeCount:
		return l.T("why.take", e.Count, e.Got)
	case game.ReasonNotInDisplay:
		return l.T("why.display", e.Number)
	case game.ReasonPlayCount:
		return l.T("why.count", e.Got)
	case game.ReasonNotInHand:
		return l.T("why.hand")
	case game.ReasonDuplicateCard:
		return l.T("why.twice")
	case game.ReasonMixedColors:
		return l.T("why.mixed")
	case game.ReasonJokerColor:
		return l.T("why.jokercol", colorWord(l, e.Color))
	case game.ReasonCrossNotPlayed:
		return l.T("why.notplayed", e.Number)
	case game.ReasonGap:
		left := make([]string, len(e.Left))
		for i, n := range e.Left {
			left[i] = fmt.Sprint(n)
		}
		return l.T("why.gap", strings.Join(left, " "+l.T("word.and")+" "))
	case game.ReasonBadColor:
		return l.T("why.color")
	}
	return l.T("why.action")
}
