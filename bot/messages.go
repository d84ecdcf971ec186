package bot

// messages holds every user-facing string: English, German, French, in the
// rulebooks' own terms (misthrow / Fehlwurf / coup manqué). Arguments use
// fmt verbs with explicit indexes where word order differs.
var messages = mergeMessages(baseMessages, playMessages, logMessages, reasonMessages)

func mergeMessages(parts ...map[string][3]string) map[string][3]string {
	out := map[string][3]string{}
	for _, p := range parts {
		for k, v := range p {
			if _, dup := out[k]; dup {
				panic("bot: message " + k + " defined twice")
			}
			out[k] = v
		}
	}
	return out
}

// baseMessages are the commands, the lobby and general errors.
var baseMessages = map[string][3]string{
	// Commands
	"cmd.qwixx":            {"Play Qwixx in this channel", "Qwixx in diesem Kanal spielen", "Jouer à Qwixx dans ce salon"},
	"cmd.new":              {"Open a new Qwixx table in this channel", "Einen neuen Qwixx-Tisch in diesem Kanal eröffnen", "Ouvrir une nouvelle table de Qwixx dans ce salon"},
	"cmd.new.variant":      {"Which game to play", "Welches Spiel", "Quel jeu"},
	"cmd.new.games":        {"Number of games in the match (1-5)", "Anzahl der Partien (1-5)", "Nombre de parties (1-5)"},
	"cmd.sheet":            {"Show your own score sheet (only you see it)", "Deinen Spielzettel zeigen (nur für dich)", "Afficher ta feuille de score (visible par toi seul)"},
	"cmd.hand":             {"Show your cards (only you see them)", "Deine Handkarten zeigen (nur für dich)", "Afficher tes cartes (visibles par toi seul)"},
	"cmd.leave":            {"Leave the game in this channel (your turns are passed)", "Das Spiel in diesem Kanal verlassen (für dich wird gepasst)", "Quitter la partie de ce salon (tes tours sont passés)"},
	"cmd.remove":           {"Host: remove an absent player (their turns are passed)", "Gastgeber: einen abwesenden Spieler entfernen (für ihn wird gepasst)", "Hôte : retirer un joueur absent (ses tours sont passés)"},
	"cmd.remove.player":    {"The player to remove", "Der zu entfernende Spieler", "Le joueur à retirer"},
	"cmd.settings":         {"Server settings (Manage Server): the turn timer", "Server-Einstellungen (Server verwalten): das Zeitlimit pro Zug", "Réglages du serveur (Gérer le serveur) : le délai par tour"},
	"cmd.settings.timeout": {"Seconds players have for each action (15-86400)", "Sekunden pro Aktion (15-86400)", "Secondes par action (15-86400)"},
	"settings.show":        {"Turn timer on this server: %[1]s per action.", "Zeitlimit auf diesem Server: %[1]s pro Aktion.", "Délai sur ce serveur : %[1]s par action."},
	"settings.perm":        {"Only members who may manage the server can change the settings.", "Nur wer den Server verwalten darf, kann die Einstellungen ändern.", "Seuls les membres pouvant gérer le serveur peuvent modifier les réglages."},
	"cmd.end":              {"End the game in this channel", "Das Spiel in diesem Kanal beenden", "Terminer la partie dans ce salon"},
	"cmd.rules":            {"The rules of Qwixx in short", "Die Qwixx-Regeln in Kürze", "Les règles de Qwixx en bref"},
	"cmd.help":             {"How to play with this bot", "So spielst du mit diesem Bot", "Comment jouer avec ce bot"},
	"variant.dice":         {"Qwixx (dice game)", "Qwixx (Würfelspiel)", "Qwixx (jeu de dés)"},
	"variant.cards":        {"Qwixx card game", "Qwixx – Das Kartenspiel", "Qwixx, le jeu de cartes"},
	"variant.jokers":       {"Qwixx card game with jokers", "Qwixx – Das Kartenspiel mit Jokern", "Qwixx, le jeu de cartes avec jokers"},

	// Lobby
	"lobby.title":          {"New table: %[1]s", "Neuer Tisch: %[1]s", "Nouvelle table : %[1]s"},
	"lobby.host":           {"Host: %[1]s", "Gastgeber: %[1]s", "Hôte : %[1]s"},
	"lobby.seats":          {"Players (%[1]d/%[2]d)", "Spieler (%[1]d/%[2]d)", "Joueurs (%[1]d/%[2]d)"},
	"lobby.hint":           {"Join with the button. The host starts the game when 2 to 5 players are seated.", "Mit dem Knopf beitreten. Der Gastgeber startet, sobald 2 bis 5 Spieler sitzen.", "Rejoins avec le bouton. L'hôte lance la partie quand 2 à 5 joueurs sont assis."},
	"lobby.games":          {"Match of %[1]d games", "Serie mit %[1]d Partien", "Série de %[1]d parties"},
	"btn.join":             {"Join", "Beitreten", "Rejoindre"},
	"btn.leave":            {"Leave", "Verlassen", "Quitter"},
	"btn.start":            {"Start", "Starten", "Lancer"},
	"btn.cancel":           {"Cancel table", "Tisch auflösen", "Annuler la table"},
	"lobby.cancelled":      {"The table was closed by %[1]s.", "%[1]s hat den Tisch aufgelöst.", "%[1]s a fermé la table."},
	"lobby.started":        {"The game has started: %[1]s", "Das Spiel hat begonnen: %[1]s", "La partie a commencé : %[1]s"},
	"err.full":             {"The table is full (5 players).", "Der Tisch ist voll (5 Spieler).", "La table est complète (5 joueurs)."},
	"err.joined":           {"You are already seated.", "Du sitzt schon am Tisch.", "Tu es déjà assis à la table."},
	"err.notseated":        {"You are not seated at this table.", "Du sitzt nicht an diesem Tisch.", "Tu n'es pas assis à cette table."},
	"err.hostonly":         {"Only the host (%[1]s) can do that.", "Nur der Gastgeber (%[1]s) kann das.", "Seul l'hôte (%[1]s) peut faire cela."},
	"err.hostleave":        {"You are the host: cancel the table instead of leaving.", "Du bist Gastgeber: Löse den Tisch auf, statt zu gehen.", "Tu es l'hôte : annule la table au lieu de la quitter."},
	"err.fewplayers":       {"At least 2 players are needed to start.", "Zum Starten braucht es mindestens 2 Spieler.", "Il faut au moins 2 joueurs pour commencer."},
	"err.busy":             {"This channel already has a table (%[1]s). Finish it or end it with /qwixx end first.", "In diesem Kanal gibt es schon einen Tisch (%[1]s). Beendet ihn zuerst oder mit /qwixx end.", "Ce salon a déjà une table (%[1]s). Terminez-la d'abord ou utilisez /qwixx end."},
	"err.nogame":           {"There is no Qwixx game in this channel. Start one with /qwixx new.", "In diesem Kanal läuft kein Qwixx-Spiel. Starte eines mit /qwixx new.", "Aucune partie de Qwixx dans ce salon. Lance-en une avec /qwixx new."},
	"err.stale":            {"This button belongs to an earlier state of the game. Use the newest table message.", "Dieser Knopf gehört zu einem früheren Spielstand. Benutze die neueste Tisch-Nachricht.", "Ce bouton appartient à un état précédent de la partie. Utilise le message de table le plus récent."},
	"err.forged":           {"This button is not one of mine.", "Dieser Knopf stammt nicht von mir.", "Ce bouton ne vient pas de moi."},
	"err.dm":               {"Qwixx is played in a server channel, not in direct messages. Invite me to a server and use /qwixx new there.", "Qwixx wird in einem Server-Kanal gespielt, nicht in Direktnachrichten. Lade mich auf einen Server ein und nutze dort /qwixx new.", "Qwixx se joue dans un salon de serveur, pas en message privé. Invite-moi sur un serveur et utilise /qwixx new."},
	"err.perms":            {"I am missing permissions in this channel: %[1]s. Ask a moderator to grant them.", "Mir fehlen in diesem Kanal Berechtigungen: %[1]s. Bitte einen Moderator, sie zu erteilen.", "Il me manque des permissions dans ce salon : %[1]s. Demande à un modérateur de me les accorder."},
	"err.badcommand":       {"I could not read that command. Try /qwixx help.", "Diesen Befehl konnte ich nicht lesen. Versuche /qwixx help.", "Je n'ai pas pu lire cette commande. Essaie /qwixx help."},
	"err.unsupported":      {"I don't handle this kind of request.", "Mit dieser Art von Anfrage kann ich nichts anfangen.", "Je ne traite pas ce genre de demande."},
	"lobby.again":          {"This channel already has an open table: here it is again.", "In diesem Kanal ist schon ein Tisch offen: Hier ist er noch einmal.", "Ce salon a déjà une table ouverte : la voici de nouveau."},
	"err.unreadable":       {"This channel's stored table could not be read (its data is damaged), so nothing can be played on it. The host or a member who may manage messages can clear it with /qwixx end; it is kept aside for the bot's operator.", "Der gespeicherte Tisch dieses Kanals ist nicht lesbar (seine Daten sind beschädigt), daher kann darauf nicht gespielt werden. Der Gastgeber oder wer Nachrichten verwalten darf, kann ihn mit /qwixx end räumen; er wird für den Betreiber des Bots aufbewahrt.", "La table enregistrée de ce salon est illisible (ses données sont endommagées) : on ne peut pas y jouer. L'hôte ou un membre pouvant gérer les messages peut la retirer avec /qwixx end ; elle est conservée à part pour l'opérateur du bot."},
	"end.unreadable":       {"%[1]s cleared this channel's unreadable table. /qwixx new opens a new one.", "%[1]s hat den unlesbaren Tisch dieses Kanals geräumt. /qwixx new eröffnet einen neuen.", "%[1]s a retiré la table illisible de ce salon. /qwixx new en ouvre une nouvelle."},
	"btn.addbot":           {"🤖 Add computer (%[1]s)", "🤖 Computer hinzufügen (%[1]s)", "🤖 Ajouter un ordinateur (%[1]s)"},
	"btn.leavers.pass":     {"If someone leaves: their turns are passed", "Wenn jemand geht: es wird für sie/ihn gepasst", "Si quelqu'un part : ses tours sont passés"},
	"btn.leavers.computer": {"If someone leaves: a computer plays for them", "Wenn jemand geht: ein Computer spielt weiter", "Si quelqu'un part : un ordinateur joue à sa place"},
	"btn.unbot":            {"🤖 Remove a computer", "🤖 Computer entfernen", "🤖 Retirer un ordinateur"},
	"level.easy":           {"easy", "leicht", "facile"},
	"level.medium":         {"medium", "mittel", "moyen"},
	"level.hard":           {"hard", "schwer", "difficile"},
	"btn.hints.on":         {"💡 Hints: on", "💡 Tipps: an", "💡 Conseils : activés"},
	"btn.hints.off":        {"💡 Hints: off", "💡 Tipps: aus", "💡 Conseils : désactivés"},
	"btn.hint":             {"💡 Hint", "💡 Tipp", "💡 Conseil"},
	"hint.cross":           {"Cross %[1]s %[2]d", "Kreuze %[1]s %[2]d an", "Coche %[1]s %[2]d"},
	"hint.pass":            {"Pass", "Passe", "Passe"},
	"hint.open":            {"keeps %[1]s open for %[2]s", "hält %[1]s offen für %[2]s", "garde %[1]s ouvert pour %[2]s"},
	"hint.skips":           {"gives up %[1]s", "gibt %[1]s auf", "abandonne %[1]s"},
	"hint.locks":           {"locks %[1]s", "schließt %[1]s ab", "verrouille %[1]s"},
	"hint.gain":            {"about +%[1]d points over passing", "etwa +%[1]d Punkte gegenüber Passen", "environ +%[1]d points de plus qu'en passant"},
	"hint.close":           {"a close call against passing", "knapp besser als Passen", "à peine mieux que passer"},
	"hint.costly":          {"every cross would give up more than it brings", "jedes Kreuz gäbe mehr auf, als es bringt", "chaque croix coûterait plus qu'elle ne rapporte"},
	"hint.misthrow":        {"even with the misthrow (−5)", "trotz des Fehlwurfs (−5)", "même avec le coup manqué (−5)"},
	"hint.take":            {"Take %[1]s", "Nimm %[1]s", "Prends %[1]s"},
	"hint.takewhy":         {"the cards that did best when the game was played out", "die Karten, die beim Durchspielen am besten abschnitten", "les cartes qui ont le mieux réussi en jouant la partie jusqu'au bout"},
	"hint.gainother":       {"about +%[1]d points over the weakest choice", "etwa +%[1]d Punkte gegenüber der schwächsten Wahl", "environ +%[1]d points de plus que le choix le plus faible"},
	"hint.play":            {"Play %[1]s and cross %[2]s", "Spiele %[1]s und kreuze %[2]s an", "Joue %[1]s et coche %[2]s"},
	"hint.playnone":        {"Play %[1]s and cross nothing: every cross would give up more than it brings", "Spiele %[1]s und kreuze nichts an: jedes Kreuz gäbe mehr auf, als es bringt", "Joue %[1]s sans rien cocher : chaque croix coûterait plus qu'elle ne rapporte"},
	"hint.and":             {"and", "und", "et"},
	"hint.off":             {"Hints are turned off at this table.", "An diesem Tisch sind Tipps ausgeschaltet.", "Les conseils sont désactivés à cette table."},
	"hint.nothing":         {"There is nothing for you to decide right now.", "Gerade hast du nichts zu entscheiden.", "Tu n'as rien à décider pour l'instant."},
	"err.restarting":       {"I am restarting; nothing was changed. Please try again in a moment.", "Ich starte gerade neu; nichts wurde geändert. Bitte versuche es gleich noch einmal.", "Je redémarre ; rien n'a été modifié. Réessaie dans un instant."},
	"err.internal":         {"Something went wrong on my side; nothing was changed. Please try again.", "Bei mir ist etwas schiefgegangen; nichts wurde geändert. Bitte versuche es noch einmal.", "Un problème est survenu de mon côté ; rien n'a été modifié. Réessaie."},
	"err.endperm":          {"Only the host or members who may manage messages can end the game.", "Nur der Gastgeber oder wer Nachrichten verwalten darf, kann das Spiel beenden.", "Seuls l'hôte ou les membres pouvant gérer les messages peuvent terminer la partie."},
	"perm.send":            {"Send Messages", "Nachrichten senden", "Envoyer des messages"},
	"perm.view":            {"View Channel", "Kanal ansehen", "Voir le salon"},
	"perm.attach":          {"Attach Files", "Dateien anhängen", "Joindre des fichiers"},
	"perm.embed":           {"Embed Links", "Links einbetten", "Intégrer des liens"},
	"perm.threads":         {"Send Messages in Threads", "Nachrichten in Threads senden", "Envoyer des messages dans les fils"},
	"end.done":             {"%[1]s ended the game.", "%[1]s hat das Spiel beendet.", "%[1]s a terminé la partie."},
	"end.lobby":            {"%[1]s closed the table.", "%[1]s hat den Tisch aufgelöst.", "%[1]s a fermé la table."},

	// Help and rules
	"help.text": {
		"**Qwixx bot**\n`/qwixx new` opens a table (dice game, card game, or card game with jokers); players join with the button and the host starts.\nTake your turns with the buttons under the table picture. `/qwixx sheet` shows your sheet, `/qwixx hand` your cards (only you see them).\n`/qwixx end` ends the game (host or moderators). `/qwixx rules` explains the rules.",
		"**Qwixx-Bot**\n`/qwixx new` eröffnet einen Tisch (Würfelspiel, Kartenspiel oder Kartenspiel mit Jokern); Spieler treten per Knopf bei, der Gastgeber startet.\nDeine Züge machst du mit den Knöpfen unter dem Tischbild. `/qwixx sheet` zeigt deinen Zettel, `/qwixx hand` deine Karten (nur für dich).\n`/qwixx end` beendet das Spiel (Gastgeber oder Moderatoren). `/qwixx rules` erklärt die Regeln.",
		"**Bot Qwixx**\n`/qwixx new` ouvre une table (jeu de dés, jeu de cartes, ou jeu de cartes avec jokers) ; les joueurs rejoignent avec le bouton et l'hôte lance.\nJoue tes tours avec les boutons sous l'image de la table. `/qwixx sheet` affiche ta feuille, `/qwixx hand` tes cartes (visibles par toi seul).\n`/qwixx end` termine la partie (hôte ou modérateurs). `/qwixx rules` explique les règles.",
	},
	"rules.text": {
		"**Qwixx in short**\nCross numbers left to right in four rows (red and yellow 2→12, green and blue 12→2); numbers you skip are lost.\n**Dice:** the active player rolls. 1) Everybody may cross the sum of the two white dice in any row. 2) The active player may add one white die to one coloured die and cross that sum in its colour. If the active player crossed nothing, they take a misthrow (−5).\nTo cross a row's last number you need 5 crosses in it first; that also locks the row for everybody and its die leaves the game.\nThe game ends at once when two rows are locked or someone takes a 4th misthrow. A row with n crosses scores 1+2+…+n.",
		"**Qwixx in Kürze**\nKreuze in vier Reihen von links nach rechts an (Rot und Gelb 2→12, Grün und Blau 12→2); ausgelassene Zahlen sind verloren.\n**Würfel:** Der aktive Spieler würfelt. 1) Alle dürfen die Summe der zwei weißen Würfel in einer beliebigen Reihe ankreuzen. 2) Der aktive Spieler darf einen weißen mit einem farbigen Würfel kombinieren und die Summe in dessen Farbe ankreuzen. Kreuzt der aktive Spieler nichts an, notiert er einen Fehlwurf (−5).\nDie letzte Zahl einer Reihe darf nur ankreuzen, wer dort schon 5 Kreuze hat; das schließt die Reihe für alle ab und ihr Würfel scheidet aus.\nDas Spiel endet sofort, wenn zwei Reihen abgeschlossen sind oder jemand den 4. Fehlwurf notiert. Eine Reihe mit n Kreuzen zählt 1+2+…+n Punkte.",
		"**Qwixx en bref**\nCoche les nombres de gauche à droite dans quatre lignes (rouge et jaune 2→12, vert et bleu 12→2) ; les nombres sautés sont perdus.\n**Dés :** le joueur actif lance. 1) Tout le monde peut cocher la somme des deux dés blancs dans la ligne de son choix. 2) Le joueur actif peut additionner un dé blanc et un dé de couleur et cocher cette somme dans sa couleur. Si le joueur actif n'a rien coché, il note un coup manqué (−5).\nPour cocher le dernier nombre d'une ligne il faut déjà 5 croix dans cette ligne ; cela ferme la ligne pour tous et son dé quitte le jeu.\nLa partie s'arrête dès que deux lignes sont fermées ou qu'un joueur note son 4e coup manqué. Une ligne de n croix rapporte 1+2+…+n points.",
	},
}
