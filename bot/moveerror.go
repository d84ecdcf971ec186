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
	"why.number":    {"%[2]d is not on the %[1]s row.", "%[2]d gibt es in der Reihe %[1]s nicht.", "%[2]d n'est pas sur la ligne %[1]s."},
	"why.closed":    {"The %[1]s row is locked for everybody.", "Die Reihe %[1]s ist für alle abgeschlossen.", "La ligne %[1]s est fermée pour tous."},
	"why.diegone":   {"The %[1]s die has left the game.", "Der Würfel %[1]s ist aus dem Spiel.", "Le dé %[1]s a quitté le jeu."},
	"why.ownlock":   {"You have locked your %[1]s row.", "Du hast deine Reihe %[1]s abgeschlossen.", "Tu as fermé ta ligne %[1]s."},
	"why.crossed":   {"%[1]s %[2]d is already crossed.", "%[1]s %[2]d ist schon angekreuzt.", "%[1]s %[2]d est déjà coché."},
	"why.left":      {"%[1]s %[2]d is left of your last %[1]s cross (%[3]d).", "%[1]s %[2]d liegt links von deinem letzten Kreuz in %[1]s (%[3]d).", "%[1]s %[2]d est à gauche de ta dernière croix en %[1]s (%[3]d)."},
	"why.five":      {"%[1]s %[2]d needs at least 5 crosses in that row first (you have %[3]d).", "Für %[1]s %[2]d brauchst du vorher mindestens 5 Kreuze in der Reihe (du hast %[3]d).", "%[1]s %[2]d exige d'abord au moins 5 croix dans cette ligne (tu en as %[3]d)."},
	"why.white":     {"Choose white die 1 or 2.", "Wähle weißen Würfel 1 oder 2.", "Choisis le dé blanc 1 ou 2."},
	"why.take":      {"Take %[1]d card(s) so that you hold 5 (you chose %[2]d).", "Nimm %[1]d Karte(n), damit du 5 hast (du hast %[2]d gewählt).", "Prends %[1]d carte(s) pour en avoir 5 (tu en as choisi %[2]d)."},
	"why.display":   {"There is no %[1]d in the display.", "In der Auslage liegt keine %[1]d.", "Il n'y a pas de %[1]d dans l'étalage."},
	"why.count":     {"Play 1 to 3 cards (you chose %[1]d).", "Spiele 1 bis 3 Karten (du hast %[1]d gewählt).", "Joue 1 à 3 cartes (tu en as choisi %[1]d)."},
	"why.hand":      {"That card is not in your hand.", "Diese Karte hast du nicht auf der Hand.", "Cette carte n'est pas dans ta main."},
	"why.twice":     {"The same card is chosen twice.", "Dieselbe Karte ist doppelt gewählt.", "La même carte est choisie deux fois."},
	"why.mixed":     {"Cards played together must be of one colour.", "Zusammen ausgespielte Karten müssen dieselbe Farbe haben.", "Les cartes jouées ensemble doivent être de la même couleur."},
	"why.jokercol":  {"These cards cannot all count as %[1]s.", "Diese Karten können nicht alle als %[1]s zählen.", "Ces cartes ne peuvent pas toutes compter comme %[1]s."},
	"why.notplayed": {"%[1]d is not among the cards you play.", "%[1]d ist nicht unter den ausgespielten Karten.", "%[1]d ne fait pas partie des cartes jouées."},
	"why.gap":       {"Between your first and last cross you may leave out at most one number (this would leave out %[1]s).", "Zwischen deinem ersten und letzten Kreuz darfst du höchstens eine Zahl auslassen (hier fehlten %[1]s).", "Entre ta première et ta dernière croix tu peux sauter au plus un nombre (ici il manquerait %[1]s)."},
	"why.color":     {"There is no such colour.", "Diese Farbe gibt es nicht.", "Cette couleur n'existe pas."},
	"word.and":      {"and", "und", "et"},
}

// colorName is a row's colour in the language.
func colorName(l Lang, c game.Color) string { return l.T("color." + c.String()) }

// explain says in the user's language why a move was refused.
func explain(l Lang, err error) string {
	var e *game.MoveError
	if !errors.As(err, &e) {
		return l.T("err.internal")
	}
	c := colorName(l, e.Color)
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
		return l.T("why.number", c, e.Number)
	case game.ReasonRowClosed:
		return l.T("why.closed", c)
	case game.ReasonDieGone:
		return l.T("why.diegone", c)
	case game.ReasonRowLockedOwn:
		return l.T("why.ownlock", c)
	case game.ReasonAlreadyCrossed:
		return l.T("why.crossed", c, e.Number)
	case game.ReasonLeftOfLast:
		return l.T("why.left", c, e.Number, e.Last)
	case game.ReasonNeedFive:
		return l.T("why.five", c, e.Number, e.Count)
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
		return l.T("why.jokercol", c)
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
