package bot

// playMessages are the strings of a running game.
var playMessages = map[string][3]string{
	// Colours as names, at the start of a button or card name: "Red 5".
	"color.red":    {"Red", "Rot", "Rouge"},
	"color.yellow": {"Yellow", "Gelb", "Jaune"},
	"color.green":  {"Green", "Grün", "Vert"},
	"color.blue":   {"Blue", "Blau", "Bleu"},

	"turn.matchgame":    {"**Game %[1]d of %[2]d**", "**Partie %[1]d von %[2]d**", "**Partie %[1]d sur %[2]d**"},
	"turn.header":       {"**Turn %[1]d** · active player: %[2]s", "**Zug %[1]d** · aktiver Spieler: %[2]s", "**Tour %[1]d** · joueur actif : %[2]s"},
	"turn.white":        {"Action 1: everybody may cross the sum of the white dice, **%[1]d**, in one row, or pass.", "Aktion 1: Alle dürfen die Summe der weißen Würfel, **%[1]d**, in einer Reihe ankreuzen oder passen.", "Action 1 : chacun peut cocher la somme des dés blancs, **%[1]d**, dans une rangée, ou passer."},
	"turn.color":        {"Action 2: %[1]s may add one white die to one coloured die and cross the sum in that colour's row, or pass.", "Aktion 2: %[1]s darf einen weißen und einen farbigen Würfel zusammenzählen und die Summe in der Reihe dieser Farbe ankreuzen oder passen.", "Action 2 : %[1]s peut additionner un dé blanc et un dé de couleur et cocher la somme dans la rangée de cette couleur, ou passer."},
	"turn.take":         {"Action 1: %[1]s takes cards from the display to hold 5.", "Aktion 1: %[1]s nimmt Karten aus der Auslage, bis 5 auf der Hand sind.", "Action 1 : %[1]s prend des cartes de l'étalage pour en avoir 5 en main."},
	"turn.number":       {"Action 2: the number for everyone is **%[1]d**. Everybody may cross it in one row, or pass.", "Aktion 2: Die Zahl für alle ist **%[1]d**. Alle dürfen sie in einer Reihe ankreuzen oder passen.", "Action 2 : le chiffre pour tous est **%[1]d**. Chacun peut le cocher dans une rangée, ou passer."},
	"turn.play":         {"Action 3: %[1]s plays 1 to 3 cards of one colour.", "Aktion 3: %[1]s spielt 1 bis 3 Karten einer Farbe aus.", "Action 3 : %[1]s joue 1 à 3 cartes d'une même couleur."},
	"turn.waiting":      {"Waiting for: %[1]s", "Es fehlen noch: %[1]s", "En attente de : %[1]s"},
	"turn.deadline":     {"Time runs out %[1]s.", "Die Zeit läuft %[1]s ab.", "Le temps sera écoulé %[1]s."},
	"turn.reminder":     {"⏰ %[1]s: time runs out %[2]s.", "⏰ %[1]s: Die Zeit läuft %[2]s ab.", "⏰ %[1]s : le temps sera écoulé %[2]s."},
	"turn.timeout":      {"⌛ Time ran out for %[1]s, who passes.", "⌛ %[1]s hat die Zeit überschritten und passt.", "⌛ Temps écoulé pour %[1]s, qui passe."},
	"turn.timeout.take": {"⌛ Time ran out for %[1]s: the leftmost cards were taken (%[2]s).", "⌛ Die Zeit für %[1]s ist abgelaufen: Die linken Karten wurden genommen (%[2]s).", "⌛ Temps écoulé pour %[1]s : les cartes de gauche ont été prises (%[2]s)."},
	"turn.timeout.play": {"⌛ Time ran out for %[1]s: one card had to be played, nothing is crossed.", "⌛ Die Zeit für %[1]s ist abgelaufen: Eine Karte musste ausgespielt werden, nichts ist angekreuzt.", "⌛ Temps écoulé pour %[1]s : une carte a dû être jouée, rien n'est coché."},
	"turn.played":       {"%[1]s played %[2]s.", "%[1]s hat %[2]s ausgespielt.", "%[1]s a joué %[2]s."},

	"btn.pass":          {"Pass", "Passen", "Passer"},
	"btn.pass.misthrow": {"Pass: misthrow −%[1]d", "Passen: Fehlwurf −%[1]d", "Passer : coup manqué −%[1]d"},
	"btn.pass.end":      {"Pass: 4th misthrow, ends the game", "Passen: 4. Fehlwurf, beendet das Spiel", "Passer : 4e coup manqué, fin de la partie"},
	"btn.sheet":         {"My sheet", "Mein Zettel", "Ma fiche"},
	"btn.hand":          {"My cards", "Meine Karten", "Mes cartes"},
	"btn.row":           {"%[1]s %[2]d", "%[1]s %[2]d", "%[1]s %[2]d"},
	"btn.color":         {"%[1]s %[2]d (%[3]d+%[4]d)", "%[1]s %[2]d (%[3]d+%[4]d)", "%[1]s %[2]d (%[3]d+%[4]d)"},
	"btn.take":          {"Take %[1]s", "%[1]s nehmen", "Prendre %[1]s"},
	"btn.play":          {"Play", "Ausspielen", "Jouer"},
	"btn.refresh":       {"🔄 Refresh", "🔄 Aktualisieren", "🔄 Actualiser"},
	"btn.again":         {"Play again", "Noch einmal spielen", "Rejouer"},
	"btn.next":          {"Next game", "Nächste Partie", "Partie suivante"},
	"btn.remove":        {"Remove %[1]s", "%[1]s entfernen", "Retirer %[1]s"},

	"ok.chose":       {"You chose %[1]s.", "Deine Wahl: %[1]s.", "Ton choix : %[1]s."},
	"ok.passed":      {"You passed.", "Du passt.", "Tu passes."},
	"move.choices":   {"Your choices:", "Deine Möglichkeiten:", "Tes choix :"},
	"sheet.mine":     {"Your sheet (%[1]d {1:point|points}). Your choices now:", "Dein Zettel (%[1]d {1:Punkt|Punkte}). Deine Möglichkeiten jetzt:", "Ta fiche (%[1]d {1:point|points}). Tes choix maintenant :"},
	"sheet.wait":     {"Your sheet (%[1]d {1:point|points}). Nothing to decide for you right now.", "Dein Zettel (%[1]d {1:Punkt|Punkte}). Gerade hast du nichts zu entscheiden.", "Ta fiche (%[1]d {1:point|points}). Tu n'as rien à décider pour l'instant."},
	"hand.mine":      {"Your cards: %[1]s", "Deine Karten: %[1]s", "Tes cartes : %[1]s"},
	"hand.none":      {"This game is played with dice, not cards.", "Dieses Spiel wird mit Würfeln gespielt, nicht mit Karten.", "Cette partie se joue avec des dés, pas avec des cartes."},
	"play.pick":      {"Pick 1 to 3 cards of one colour to play.", "Wähle 1 bis 3 Karten einer Farbe zum Ausspielen.", "Choisis 1 à 3 cartes d'une même couleur à jouer."},
	"play.as":        {"Colour the jokers count as", "Farbe, als die die Joker zählen", "Couleur que prennent les jokers"},
	"play.cross":     {"Numbers to cross (you may cross none)", "Anzukreuzende Zahlen (auch keine)", "Chiffres à cocher (tu peux n'en cocher aucun)"},
	"play.ready":     {"Play %[1]s and cross %[2]s?", "%[1]s ausspielen und %[2]s ankreuzen?", "Jouer %[1]s et cocher %[2]s ?"},
	"play.readynone": {"Play %[1]s and cross nothing?", "%[1]s ausspielen und nichts ankreuzen?", "Jouer %[1]s sans rien cocher ?"},
	"play.done":      {"%[1]s, crossing %[2]s", "%[1]s, angekreuzt: %[2]s", "%[1]s, en cochant %[2]s"},
	"play.donenone":  {"%[1]s, crossing nothing", "%[1]s, nichts angekreuzt", "%[1]s, sans rien cocher"},

	"event.lock":          {"🔒 %[1]s locked %[2]s!", "🔒 %[1]s hat %[2]s abgeschlossen!", "🔒 %[1]s a verrouillé %[2]s !"},
	"event.reshuffle":     {"🔀 The draw pile ran out: the discard pile was shuffled into a new draw pile of %[1]d {1:card|cards}.", "🔀 Der Zugstapel war leer: Der Ablagestapel wurde gemischt und ist der neue Zugstapel (%[1]d {1:Karte|Karten}).", "🔀 La pioche était épuisée : la défausse a été mélangée et forme la nouvelle pioche (%[1]d {1:carte|cartes})."},
	"event.misthrow":      {"%[1]s took a misthrow (%[2]d/4).", "%[1]s kreuzt einen Fehlwurf an (%[2]d/4).", "%[1]s coche un coup manqué (%[2]d/4)."},
	"event.left.computer": {"%[1]s has left the game; a computer player plays for them.", "%[1]s hat das Spiel verlassen; ein Computer spielt an diesem Platz weiter.", "%[1]s a quitté la partie ; un ordinateur joue à sa place."},
	"event.left":          {"%[1]s has left the game and passes from now on.", "%[1]s hat das Spiel verlassen und passt ab jetzt.", "%[1]s a quitté la partie et passe désormais."},

	"over.title":     {"**Game over**", "**Spielende**", "**Fin de la partie**"},
	"over.locks":     {"%[1]s locked: the game is over.", "%[1]s abgeschlossen: Das Spiel ist vorbei.", "Rangées %[1]s verrouillées : la partie est terminée."},
	"over.lockscard": {"%[1]s locked %[2]s: the game is over.", "%[1]s hat %[2]s abgeschlossen: Das Spiel ist vorbei.", "%[1]s a verrouillé les rangées %[2]s : la partie est terminée."},
	"over.misthrows": {"%[1]s took a fourth misthrow: the game is over.", "%[1]s hat den vierten Fehlwurf angekreuzt: Das Spiel ist vorbei.", "%[1]s a coché son quatrième coup manqué : la partie est terminée."},
	"over.stopped":   {"**Game stopped** before it was over", "**Spiel abgebrochen**, bevor es zu Ende war", "**Partie arrêtée** avant la fin"},
	"over.standing":  {"Scores when it was stopped:", "Punktestand beim Abbruch:", "Scores à l'arrêt :"},
	"over.winner":    {"🏆 %[1]s wins with %[2]d {2:point|points}!", "🏆 %[1]s gewinnt mit %[2]d {2:Punkt|Punkten}!", "🏆 %[1]s gagne avec %[2]d {2:point|points} !"},
	"over.winners":   {"🏆 Shared win: %[1]s with %[2]d {2:point|points}!", "🏆 Geteilter Sieg: %[1]s mit %[2]d {2:Punkt|Punkten}!", "🏆 Victoire partagée : %[1]s avec %[2]d {2:point|points} !"},
	"over.rank":      {"%[1]d. %[2]s: %[3]d", "%[1]d. %[2]s: %[3]d", "%[1]d. %[2]s : %[3]d"},
	"over.match":     {"Match after %[1]d of %[2]d {2:game|games}:", "Serie nach %[1]d von %[2]d {2:Partie|Partien}:", "Série après %[1]d {1:partie|parties} sur %[2]d :"},
	"over.matchrow":  {"%[1]s: %[2]d", "%[1]s: %[2]d", "%[1]s : %[2]d"},
	"over.matchlead": {"🏆 Leading the match: %[1]s", "🏆 Vorn in der Serie: %[1]s", "🏆 En tête de la série : %[1]s"},
	"over.matchwin":  {"🏆 Match won by %[1]s", "🏆 Sieg in der Serie: %[1]s", "🏆 Série gagnée par %[1]s"},
	"over.nomatch":   {"None of the match's %[1]d {1:game|games} was finished.", "Keine der %[1]d {1:Partie|Partien} der Serie wurde zu Ende gespielt.", "Aucune des %[1]d {1:partie|parties} de la série n'a été terminée."},

	"err.notplaying": {"You are not playing in this game.", "Du spielst in diesem Spiel nicht mit.", "Tu ne joues pas dans cette partie."},
	"err.notnow":     {"You have nothing to decide right now.", "Du hast gerade nichts zu entscheiden.", "Tu n'as rien à décider maintenant."},
	"hand.over":      {"The game this view showed is over: it no longer follows it. {/hand} shows your cards in a game that is running.", "Das Spiel dieser Ansicht ist vorbei: Sie folgt ihm nicht mehr. {/hand} zeigt deine Karten in einem laufenden Spiel.", "La partie de cette vue est terminée : elle ne la suit plus. {/hand} montre tes cartes dans une partie en cours."},
	"err.overgame":   {"This game is over.", "Dieses Spiel ist vorbei.", "Cette partie est terminée."},
	"err.removehost": {"Only the host can remove a player.", "Nur der Gastgeber kann Spieler entfernen.", "Seul l'hôte peut retirer un joueur."},
}

// logMessages word the one-line log of a finished turn (turnLogLine), in
// the rulebooks' terms: misthrow / Fehlwurf / coup manqué, row / Reihe /
// rangée, locked / abgeschlossen / verrouillée. Crossed numbers are noted
// "red 6" (log.color, in words.go).
var logMessages = map[string][3]string{
	"log.turn":       {"Turn %[1]d", "Zug %[1]d", "Tour %[1]d"},
	"log.rolled":     {"%[1]s rolled %[2]d+%[3]d", "%[1]s würfelt %[2]d+%[3]d", "%[1]s lance %[2]d+%[3]d"},
	"log.pass":       {"%[1]s –", "%[1]s –", "%[1]s –"},
	"log.cross":      {"%[1]s ✕ %[2]s %[3]d", "%[1]s ✕ %[2]s %[3]d", "%[1]s ✕ %[3]d %[2]s"},
	"log.colored":    {"%[1]s ✕ %[2]s %[3]d (%[4]d+%[5]d)", "%[1]s ✕ %[2]s %[3]d (%[4]d+%[5]d)", "%[1]s ✕ %[3]d %[2]s (%[4]d+%[5]d)"},
	"log.took":       {"%[1]s took %[2]s", "%[1]s nimmt %[2]s", "%[1]s prend %[2]s"},
	"log.number":     {"number %[1]d: %[2]s", "Zahl %[1]d: %[2]s", "chiffre %[1]d : %[2]s"},
	"log.played":     {"%[1]s played %[2]s ✕ %[3]s", "%[1]s spielt %[2]s ✕ %[3]s", "%[1]s joue %[2]s ✕ %[3]s"},
	"log.playednone": {"%[1]s played %[2]s –", "%[1]s spielt %[2]s –", "%[1]s joue %[2]s –"},
	"log.misthrow":   {"%[1]s ✕ misthrow (%[2]d/4)", "%[1]s ✕ Fehlwurf (%[2]d/4)", "%[1]s ✕ coup manqué (%[2]d/4)"},
	"log.lock":       {"🔒 %[1]s locked %[2]s", "🔒 %[1]s schließt %[2]s ab", "🔒 %[1]s verrouille %[2]s"},
	"log.running":    {"…", "…", "…"},

	"log.end.locks":     {"🏁 Game over: two rows locked", "🏁 Spielende: zwei Reihen abgeschlossen", "🏁 Fin de la partie : deux rangées verrouillées"},
	"log.end.lockscard": {"🏁 Game over: %[1]s locked two rows", "🏁 Spielende: %[1]s hat zwei Reihen abgeschlossen", "🏁 Fin de la partie : %[1]s a verrouillé deux rangées"},
	"log.end.misthrows": {"🏁 Game over: %[1]s took a fourth misthrow", "🏁 Spielende: %[1]s hat den vierten Fehlwurf angekreuzt", "🏁 Fin de la partie : %[1]s a coché son quatrième coup manqué"},
}
