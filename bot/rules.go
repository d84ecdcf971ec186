package bot

import "github.com/bwmarrin/discordgo"

// rulesMessages are /qwixx rules: the dice game, the card game and its
// jokers in short, in the rulebooks' terms (RULES.md S, D and C rules),
// sent as an embed: the title and the text (at most 4,096 characters, the
// limit of an embed's description, checked by a test).
var rulesMessages = map[string][3]string{
	"rules.title": {"Qwixx in short", "Qwixx in Kürze", "Qwixx en bref"},
	"rules.text": {
		"Cross numbers in four rows from left to right: red and yellow run 2→12, green and blue 12→2. Numbers you skip can never be crossed. A row's last number (red or yellow 12, green or blue 2) needs 5 crosses in that row first; crossing it also crosses the lock 🔒, which counts as a cross.\n" +
			"A row with n crosses scores 1+2+…+n (1, 3, 6, 10, … 78 points); each misthrow costs 5 points. The highest total wins; equal totals share the win.\n\n" +
			"**Dice game**\n" +
			"The active player rolls the dice. 1) Everybody may cross the sum of the two white dice in one row of their choice. 2) Then the active player alone may add one white die to one coloured die and cross that sum in the row of that colour. If the active player crossed nothing in either action, they take a misthrow.\n" +
			"Crossing a row's last number locks the row for everybody, and its die leaves the game. The game ends at once when two rows are locked or someone takes a fourth misthrow.\n\n" +
			"**Card game** (44 cards, 2 to 12 in each colour)\n" +
			"Everybody starts with 4 cards; only you see their colours. The display (4 cards) and the draw pile show numbers only. 1) The active player takes cards from the display until they hold 5. 2) The number now on top of the draw pile is for everyone: each player may cross it in one row. 3) The active player must play 1 to 3 cards of one colour and may cross their numbers in that colour's row, leaving out at most one number between the first and the last cross. If the active player crossed nothing in actions 2 and 3, they take a misthrow.\n" +
			"A lock closes the row for its player only. The game ends at once when someone has locked two rows on their own sheet or takes a fourth misthrow.\n\n" +
			"**Jokers:** 11 jokers (2 to 12) are shuffled in. A joker's number is fixed; you name its colour when you play it.",

		"Kreuze in den vier Farbreihen von links nach rechts an (Rot und Gelb 2→12, Grün und Blau 12→2). Ausgelassene Zahlen dürfen nicht mehr angekreuzt werden. Die Zahl ganz rechts (rote oder gelbe 12, grüne oder blaue 2) darf nur ankreuzen, wer in dieser Reihe schon 5 Kreuze hat; dazu kommt ein Kreuz auf dem Schloss 🔒, das mitzählt.\n" +
			"Eine Reihe mit n Kreuzen zählt 1+2+…+n (1, 3, 6, 10, … 78 Punkte); jeder Fehlwurf kostet 5 Punkte. Das höchste Gesamtergebnis gewinnt; Gleichstand teilt den Sieg.\n\n" +
			"**Würfelspiel**\n" +
			"Der aktive Spieler würfelt. 1) Alle dürfen die Summe der beiden weißen Würfel in einer beliebigen Reihe ankreuzen. 2) Dann darf nur der aktive Spieler einen weißen und einen farbigen Würfel zusammenzählen und die Summe in der Reihe dieser Farbe ankreuzen. Kreuzt der aktive Spieler in beiden Aktionen nichts an, kreuzt er einen Fehlwurf an.\n" +
			"Wer die Zahl ganz rechts ankreuzt, schließt die Reihe für alle ab; ihr Würfel scheidet aus. Das Spiel endet sofort, wenn zwei Reihen abgeschlossen sind oder jemand den vierten Fehlwurf ankreuzt.\n\n" +
			"**Kartenspiel** (44 Karten, 2 bis 12 in jeder Farbe)\n" +
			"Jeder beginnt mit 4 Handkarten, deren Farben nur er sieht. Die Auslage (4 Karten) und der Zugstapel zeigen nur Zahlen. 1) Der aktive Spieler nimmt Karten aus der Auslage, bis er 5 auf der Hand hat. 2) Die Zahl oben auf dem Zugstapel gilt für alle: Jeder darf sie in einer Reihe ankreuzen. 3) Der aktive Spieler muss 1 bis 3 Karten einer Farbe ausspielen und darf ihre Zahlen in der Reihe dieser Farbe ankreuzen; zwischen dem ersten und dem letzten Kreuz darf er höchstens eine Zahl auslassen. Kreuzt er in Aktion 2 und 3 nichts an, kreuzt er einen Fehlwurf an.\n" +
			"Ein Schloss schließt die Reihe nur für diesen Spieler ab. Das Spiel endet sofort, wenn jemand auf seinem Zettel zwei Reihen abgeschlossen hat oder den vierten Fehlwurf ankreuzt.\n\n" +
			"**Joker:** 11 Joker (2 bis 12) werden mitgemischt. Die Zahl eines Jokers steht fest, die Farbe bestimmst du beim Ausspielen.",

		"Coche les chiffres des quatre rangées de gauche à droite (rouge et jaune 2→12, vert et bleu 12→2). Les chiffres sautés ne peuvent plus être cochés. Le dernier chiffre d'une rangée (12 rouge ou jaune, 2 vert ou bleu) exige d'abord 5 croix dans cette rangée ; le cocher coche aussi le cadenas 🔒, qui compte comme une croix.\n" +
			"Une rangée de n croix rapporte 1+2+…+n (1, 3, 6, 10, … 78 points) ; chaque coup manqué coûte 5 points. Le plus haut total gagne ; une égalité partage la victoire.\n\n" +
			"**Jeu de dés**\n" +
			"Le joueur actif lance les dés. 1) Chacun peut cocher la somme des deux dés blancs dans la rangée de son choix. 2) Puis le joueur actif seul peut additionner un dé blanc et un dé de couleur et cocher cette somme dans la rangée de cette couleur. Si le joueur actif n'a rien coché dans les deux actions, il coche un coup manqué.\n" +
			"Cocher le dernier chiffre d'une rangée la verrouille pour tous, et son dé quitte le jeu. La partie s'arrête aussitôt quand deux rangées sont verrouillées ou qu'un joueur coche son quatrième coup manqué.\n\n" +
			"**Jeu de cartes** (44 cartes, de 2 à 12 dans chaque couleur)\n" +
			"Chacun commence avec 4 cartes dont lui seul voit les couleurs. L'étalage (4 cartes) et la pioche ne montrent que des chiffres. 1) Le joueur actif prend des cartes de l'étalage pour en avoir 5 en main. 2) Le chiffre visible sur la pioche vaut pour tous : chacun peut le cocher dans une rangée. 3) Le joueur actif doit jouer 1 à 3 cartes d'une même couleur et peut cocher leurs chiffres dans la rangée de cette couleur, en sautant au plus un chiffre entre la première et la dernière croix. S'il n'a rien coché aux actions 2 et 3, il coche un coup manqué.\n" +
			"Un cadenas ne verrouille la rangée que pour son joueur. La partie s'arrête aussitôt quand un joueur a verrouillé deux rangées sur sa fiche ou coche son quatrième coup manqué.\n\n" +
			"**Jokers :** 11 jokers (de 2 à 12) sont mélangés aux cartes. Le chiffre d'un joker est fixe ; tu choisis sa couleur en le jouant.",
	},
}

// rulesEmbed is the answer to /qwixx rules, in language l.
func rulesEmbed(l Lang) *discordgo.MessageEmbed {
	return &discordgo.MessageEmbed{Title: l.T("rules.title"), Description: l.T("rules.text")}
}
