package bot

import (
	"golang.org/x/text/language"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/render"
)

// imageLabels are the words in the pictures, per language (the rulebooks'
// terms: Fehlwürfe, coups manqués). Format fields keep render's verbs.
var imageLabels = map[language.Tag]render.Labels{
	language.English: render.DefaultLabels(),
	language.German: {
		Total: "Gesamt", Misthrows: "Fehlwürfe", Crosses: "Kreuze", Points: "Punkte", Turn: "Zug %d",
		Active: "Am Zug", Decided: "Entschieden", Display: "Auslage", DrawPile: "Zugstapel", Discard: "Ablage",
		Hand: "Hand", PlayedBy: "Zuletzt: %s", Joker: "JOKER", JokerMark: "J", GameOver: "Spielende",
		EndLocks: "Zwei Reihen abgeschlossen", EndMisses: "Vierter Fehlwurf", Winner: "Sieger", Winners: "Sieger (geteilt)",
		Player: "Spieler", Game: "Partie %d", GameNofM: "Partie %d von %d",
		Stopped: "Spiel abgebrochen", EndLocksRows: "%s abgeschlossen", EndLocksBy: "%s hat zwei Reihen abgeschlossen",
		EndMisthrowBy: "Vierter Fehlwurf: %s", RowColors: [4]string{"Rot", "Gelb", "Grün", "Blau"}, And: "und", Colon: ": ",
		ChartTitle: "Punktestand nach jedem Zug", TurnAxis: "Zug",
	},
	language.French: {
		Total: "Total", Misthrows: "Coups manqués", Crosses: "Croix", Points: "Points", Turn: "Tour %d",
		Active: "Actif", Decided: "A choisi", Display: "Étalage", DrawPile: "Pioche", Discard: "Défausse",
		Hand: "Main", PlayedBy: "Dernier coup : %s", Joker: "JOKER", JokerMark: "J", GameOver: "Fin de la partie",
		EndLocks: "Deux rangées verrouillées", EndMisses: "Quatrième coup manqué", Winner: "Gagnant", Winners: "Gagnants (ex æquo)",
		Player: "Joueur", Game: "Partie %d", GameNofM: "Partie %d sur %d",
		Stopped: "Partie arrêtée", EndLocksRows: "Rangées %s verrouillées", EndLocksBy: "%s a verrouillé deux rangées",
		EndMisthrowBy: "Quatrième coup manqué : %s", RowColors: [4]string{"rouge", "jaune", "verte", "bleue"}, And: "et", Colon: " : ",
		ChartTitle: "Total après chaque tour", TurnAxis: "Tour",
	},
}

// Labels are the image labels in this language.
func (l Lang) Labels() render.Labels {
	if lb, ok := imageLabels[l.Tag]; ok {
		return lb
	}
	return render.DefaultLabels()
}

// Images is the Renderer that draws with the render package.
type Images struct{}

// Table draws every sheet and the dice or card display.
func (Images) Table(v game.PublicView, l Lang) ([]byte, error) { return render.Table(v, l.Labels()) }

// Sheet draws one player's sheet with their choices marked.
func (Images) Sheet(v game.PublicView, seat int, choices []render.Cell, l Lang) ([]byte, error) {
	return render.Sheet(v, seat, l.Labels(), choices...)
}

// Hand draws a player's private hand.
func (Images) Hand(v game.PrivateView, l Lang) ([]byte, error) { return render.Hand(v, l.Labels()) }

// Results draws the final sheets, ranking and match table.
func (Images) Results(v game.PublicView, m *game.Match, l Lang) ([]byte, error) {
	return render.Results(v, m, l.Labels())
}

// Chart draws the score chart, each player's total turn by turn.
func (Images) Chart(v game.PublicView, s game.ScoreSeries, l Lang) ([]byte, error) {
	return render.Chart(v, s, l.Labels())
}

// ReviewChart draws the score chart with a review's moments marked.
func (Images) ReviewChart(v game.PublicView, s game.ScoreSeries, moments []render.Moment, l Lang) ([]byte, error) {
	return render.ReviewChart(v, s, l.Labels(), moments)
}
