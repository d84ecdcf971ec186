package bot

// playMessages are the strings of a running game.
var playMessages = map[string][3]string{
	"color.red":    {"Red", "Rot", "Rouge"},
	"color.yellow": {"Yellow", "Gelb", "Jaune"},
	"color.green":  {"Green", "Grün", "Vert"},
	"color.blue":   {"Blue", "Blau", "Bleu"},

	"turn.header":       {"**Turn %[1]d** · active player: %[2]s", "**Runde %[1]d** · aktiver Spieler: %[2]s", "**Tour %[1]d** · joueur actif : %[2]s"},
	"turn.white":        {"Action 1: everybody may cross the white sum **%[1]d** in one row, or pass.", "Aktion 1: Alle dürfen die weiße Summe **%[1]d** in einer Reihe ankreuzen oder passen.", "Action 1 : chacun peut cocher la somme blanche **%[1]d** dans une ligne, ou passer."},
	"turn.color":        {"Action 2: %[1]s may add one white die to one coloured die, or pass.", "Aktion 2: %[1]s darf einen weißen und einen farbigen Würfel kombinieren oder passen.", "Action 2 : %[1]s peut additionner un dé blanc et un dé de couleur, ou passer."},
	"turn.take":         {"Action 1: %[1]s takes cards from the display to hold 5.", "Aktion 1: %[1]s nimmt Karten aus der Auslage, bis 5 auf der Hand sind.", "Action 1 : %[1]s prend des cartes de l'étalage pour en avoir 5."},
	"turn.number":       {"Action 2: the number for everyone is **%[1]d**. Cross it in one row, or pass.", "Aktion 2: Die Zahl für alle ist **%[1]d**. Kreuzt sie in einer Reihe an oder passt.", "Action 2 : le nombre pour tous est **%[1]d**. Cochez-le dans une ligne, ou passez."},
	"turn.play":         {"Action 3: %[1]s plays 1 to 3 cards of one colour.", "Aktion 3: %[1]s spielt 1 bis 3 Karten einer Farbe aus.", "Action 3 : %[1]s joue 1 à 3 cartes d'une couleur."},
	"turn.waiting":      {"Waiting for: %[1]s", "Es fehlen noch: %[1]s", "En attente de : %[1]s"},
	"turn.deadline":     {"Time runs out %[1]s.", "Die Zeit läuft ab %[1]s.", "Le temps s'écoule %[1]s."},
	"turn.reminder":     {"⏰ %[1]s: time runs out %[2]s.", "⏰ %[1]s: Die Zeit läuft ab %[2]s.", "⏰ %[1]s : le temps s'écoule %[2]s."},
	"turn.timeout":      {"⌛ Time ran out for %[1]s: passed.", "⌛ Die Zeit für %[1]s ist abgelaufen: gepasst.", "⌛ Temps écoulé pour %[1]s : passe."},
	"turn.timeout.take": {"⌛ Time ran out for %[1]s: the leftmost cards were taken (%[2]s).", "⌛ Die Zeit für %[1]s ist abgelaufen: Die linken Karten wurden genommen (%[2]s).", "⌛ Temps écoulé pour %[1]s : les cartes de gauche ont été prises (%[2]s)."},
	"turn.timeout.play": {"⌛ Time ran out for %[1]s: one card had to be played, nothing crossed.", "⌛ Die Zeit für %[1]s ist abgelaufen: Eine Karte musste ausgespielt werden, nichts angekreuzt.", "⌛ Temps écoulé pour %[1]s : une carte a dû être jouée, rien n'est coché."},
	"turn.played":       {"%[1]s played %[2]s.", "%[1]s hat %[2]s ausgespielt.", "%[1]s a joué %[2]s."},

	"btn.pass":          {"Pass", "Passen", "Passer"},
	"btn.pass.misthrow": {"Pass: misthrow −%[1]d", "Passen: Fehlwurf −%[1]d", "Passer : coup manqué −%[1]d"},
	"btn.pass.end":      {"Pass: 4th misthrow, ends the game", "Passen: 4. Fehlwurf, beendet das Spiel", "Passer : 4e coup manqué, fin de la partie"},
	"btn.sheet":         {"My sheet", "Mein Zettel", "Ma feuille"},
	"btn.hand":          {"My cards", "Meine Karten", "Mes cartes"},
	"btn.row":           {"%[1]s %[2]d", "%[1]s %[2]d", "%[1]s %[2]d"},
	"btn.color":         {"%[1]s %[2]d (%[3]d+%[4]d)", "%[1]s %[2]d (%[3]d+%[4]d)", "%[1]s %[2]d (%[3]d+%[4]d)"},
	"btn.take":          {"Take %[1]s", "Nimm %[1]s", "Prendre %[1]s"},
	"btn.play":          {"Play", "Ausspielen", "Jouer"},
	"btn.refresh":       {"🔄 Refresh", "🔄 Aktualisieren", "🔄 Actualiser"},
	"btn.again":         {"Play again", "Nochmal spielen", "Rejouer"},
	"btn.next":          {"Next game", "Nächste Partie", "Partie suivante"},
	"btn.remove":        {"Remove %[1]s", "%[1]s entfernen", "Retirer %[1]s"},

	"ok.chose":       {"You chose %[1]s.", "Du hast %[1]s gewählt.", "Tu as choisi %[1]s."},
	"ok.passed":      {"You passed.", "Du hast gepasst.", "Tu as passé."},
	"move.choices":   {"Your choices:", "Deine Möglichkeiten:", "Tes choix :"},
	"sheet.mine":     {"Your sheet (%[1]d points). Your choices now:", "Dein Zettel (%[1]d Punkte). Deine Möglichkeiten jetzt:", "Ta feuille (%[1]d points). Tes choix maintenant :"},
	"sheet.wait":     {"Your sheet (%[1]d points). Nothing to decide for you right now.", "Dein Zettel (%[1]d Punkte). Gerade hast du nichts zu entscheiden.", "Ta feuille (%[1]d points). Rien à décider pour toi pour l'instant."},
	"hand.mine":      {"Your cards: %[1]s", "Deine Karten: %[1]s", "Tes cartes : %[1]s"},
	"hand.none":      {"This game is played with dice, not cards.", "Dieses Spiel wird mit Würfeln gespielt, nicht mit Karten.", "Cette partie se joue avec des dés, pas des cartes."},
	"play.pick":      {"Pick 1 to 3 cards of one colour to play.", "Wähle 1 bis 3 Karten einer Farbe zum Ausspielen.", "Choisis 1 à 3 cartes d'une couleur à jouer."},
	"play.as":        {"Colour for the joker(s)", "Farbe für den/die Joker", "Couleur du/des joker(s)"},
	"play.cross":     {"Numbers to cross (none is allowed)", "Anzukreuzende Zahlen (auch keine)", "Nombres à cocher (aucun est permis)"},
	"play.ready":     {"Play %[1]s and cross %[2]s?", "%[1]s ausspielen und %[2]s ankreuzen?", "Jouer %[1]s et cocher %[2]s ?"},
	"play.readynone": {"Play %[1]s and cross nothing?", "%[1]s ausspielen und nichts ankreuzen?", "Jouer %[1]s sans rien cocher ?"},
	"play.done":      {"%[1]s, crossing %[2]s", "%[1]s, angekreuzt: %[2]s", "%[1]s, en cochant %[2]s"},
	"play.donenone":  {"%[1]s, crossing nothing", "%[1]s, nichts angekreuzt", "%[1]s, sans rien cocher"},

	"event.lock":      {"🔒 %[1]s locked the %[2]s row!", "🔒 %[1]s hat die Reihe %[2]s abgeschlossen!", "🔒 %[1]s a fermé la ligne %[2]s !"},
	"event.reshuffle": {"🔀 The draw pile ran out: the discard pile was shuffled into a new draw pile of %[1]d cards.", "🔀 Der Nachziehstapel war leer: Der Ablagestapel wurde gemischt und ist der neue Nachziehstapel (%[1]d Karten).", "🔀 La pioche était épuisée : la défausse a été mélangée et forme la nouvelle pioche (%[1]d cartes)."},
	"event.misthrow":  {"%[1]s crossed a misthrow (%[2]d/4).", "%[1]s notiert einen Fehlwurf (%[2]d/4).", "%[1]s note un coup manqué (%[2]d/4)."},
	"event.left":      {"%[1]s has left the game; their turns are passed.", "%[1]s hat das Spiel verlassen; für sie/ihn wird gepasst.", "%[1]s a quitté la partie ; ses tours sont passés."},

	"over.title":     {"**Game over**", "**Spielende**", "**Fin de la partie**"},
	"over.locks":     {"Two rows are locked.", "Zwei Reihen sind abgeschlossen.", "Deux lignes sont fermées."},
	"over.lockscard": {"%[1]s has locked two rows.", "%[1]s hat zwei Reihen abgeschlossen.", "%[1]s a fermé deux lignes."},
	"over.misthrows": {"%[1]s crossed a fourth misthrow.", "%[1]s hat den vierten Fehlwurf notiert.", "%[1]s a noté son quatrième coup manqué."},
	"over.stopped":   {"The game was ended before its end.", "Das Spiel wurde vorzeitig beendet.", "La partie a été arrêtée avant la fin."},
	"over.winner":    {"🏆 %[1]s wins with %[2]d points!", "🏆 %[1]s gewinnt mit %[2]d Punkten!", "🏆 %[1]s gagne avec %[2]d points !"},
	"over.winners":   {"🏆 Shared win: %[1]s with %[2]d points!", "🏆 Geteilter Sieg: %[1]s mit %[2]d Punkten!", "🏆 Victoire partagée : %[1]s avec %[2]d points !"},
	"over.rank":      {"%[1]d. %[2]s: %[3]d", "%[1]d. %[2]s: %[3]d", "%[1]d. %[2]s : %[3]d"},
	"over.match":     {"Game %[1]d of %[2]d. Match totals:", "Partie %[1]d von %[2]d. Gesamtstand:", "Partie %[1]d sur %[2]d. Totaux de la série :"},

	"err.notplaying": {"You are not playing in this game.", "Du spielst in diesem Spiel nicht mit.", "Tu ne joues pas dans cette partie."},
	"err.notnow":     {"You have nothing to decide right now.", "Du hast gerade nichts zu entscheiden.", "Tu n'as rien à décider maintenant."},
	"err.overgame":   {"This game is over.", "Dieses Spiel ist vorbei.", "Cette partie est terminée."},
	"err.removehost": {"Only the host can remove a player.", "Nur der Gastgeber kann Spieler entfernen.", "Seul l'hôte peut retirer un joueur."},
}

// logMessages word the one-line log of a finished turn (turnLogLine), in
// the rulebooks' terms: misthrow / Fehlwurf / coup manqué, row / Reihe /
// rangée, locked / abgeschlossen / verrouillée.
var logMessages = map[string][3]string{
	// Colours in a cross ("red 6") and in a row's name ("rangée verte").
	"log.color.red":    {"red", "Rot", "rouge"},
	"log.color.yellow": {"yellow", "Gelb", "jaune"},
	"log.color.green":  {"green", "Grün", "vert"},
	"log.color.blue":   {"blue", "Blau", "bleu"},
	"log.row.red":      {"red", "Rot", "rouge"},
	"log.row.yellow":   {"yellow", "Gelb", "jaune"},
	"log.row.green":    {"green", "Grün", "verte"},
	"log.row.blue":     {"blue", "Blau", "bleue"},

	"log.turn":       {"Turn %[1]d", "Zug %[1]d", "Tour %[1]d"},
	"log.rolled":     {"%[1]s rolled %[2]d+%[3]d", "%[1]s würfelt %[2]d+%[3]d", "%[1]s lance %[2]d+%[3]d"},
	"log.pass":       {"%[1]s –", "%[1]s –", "%[1]s –"},
	"log.cross":      {"%[1]s ✕ %[2]s %[3]d", "%[1]s ✕ %[2]s %[3]d", "%[1]s ✕ %[2]s %[3]d"},
	"log.colored":    {"%[1]s ✕ %[2]s %[3]d (%[4]d+%[5]d)", "%[1]s ✕ %[2]s %[3]d (%[4]d+%[5]d)", "%[1]s ✕ %[2]s %[3]d (%[4]d+%[5]d)"},
	"log.took":       {"%[1]s took %[2]s", "%[1]s nimmt %[2]s", "%[1]s prend %[2]s"},
	"log.number":     {"number %[1]d: %[2]s", "Zahl %[1]d: %[2]s", "nombre %[1]d : %[2]s"},
	"log.played":     {"%[1]s played %[2]s ✕ %[3]s", "%[1]s spielt %[2]s ✕ %[3]s", "%[1]s joue %[2]s ✕ %[3]s"},
	"log.playednone": {"%[1]s played %[2]s –", "%[1]s spielt %[2]s –", "%[1]s joue %[2]s –"},
	"log.misthrow":   {"%[1]s ✕ misthrow (%[2]d/4)", "%[1]s ✕ Fehlwurf (%[2]d/4)", "%[1]s ✕ coup manqué (%[2]d/4)"},
	"log.lock":       {"🔒 %[1]s locked %[2]s", "🔒 %[1]s: Reihe %[2]s abgeschlossen", "🔒 %[1]s : rangée %[2]s verrouillée"},
	"log.running":    {"…", "…", "…"},

	"log.end.locks":     {"🏁 Game over: two rows locked", "🏁 Spielende: zwei Reihen abgeschlossen", "🏁 Fin de la partie : deux rangées verrouillées"},
	"log.end.lockscard": {"🏁 Game over: %[1]s locked two rows", "🏁 Spielende: %[1]s hat zwei Reihen abgeschlossen", "🏁 Fin de la partie : %[1]s a verrouillé deux rangées"},
	"log.end.misthrows": {"🏁 Game over: %[1]s crossed a fourth misthrow", "🏁 Spielende: %[1]s hat den vierten Fehlwurf", "🏁 Fin de la partie : %[1]s a noté son quatrième coup manqué"},
}
