package bot

// messages holds every user-facing string: English, German, French, in the
// rulebooks' own terms (misthrow / Fehlwurf / coup manqué, row / Reihe /
// rangée, lock / abschließen / verrouiller, active player / aktiver
// Spieler / joueur actif, draw pile / Zugstapel / pioche). The player is
// addressed informally (du, tu); messages for the whole table speak of
// "everybody" (alle, chacun). Arguments use fmt verbs with explicit indexes
// where word order differs. Two notations are resolved by Lang.T:
// {N:one|other} is a word counted by argument N, in the language's plural
// rules (x/text's plural.Selectf: "1 point", "2 points"; French "0 point"),
// and {/sub} is the command "/qwixx sub" as a client in the language shows
// it ("/qwixx ende", "/qwixx règles").
var messages = mergeMessages(baseMessages, playMessages, logMessages, reasonMessages, wordMessages, rulesMessages, historyMessages, soloMessages)

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
	"cmd.new.games":        {"Number of games in the match (1–5)", "Anzahl der Partien (1–5)", "Nombre de parties (1–5)"},
	"cmd.sheet":            {"Show your own score sheet (only you see it)", "Deinen Zettel zeigen (nur du siehst ihn)", "Afficher ta fiche (toi seul la vois)"},
	"cmd.hand":             {"Show your cards (only you see them)", "Deine Handkarten zeigen (nur du siehst sie)", "Afficher tes cartes (toi seul les vois)"},
	"cmd.leave":            {"Leave the game in this channel (you pass from then on)", "Das Spiel in diesem Kanal verlassen (du passt ab dann)", "Quitter la partie de ce salon (tu passes ensuite)"},
	"cmd.remove":           {"Host: remove an absent player (they pass from then on)", "Gastgeber: einen abwesenden Spieler entfernen (er passt ab dann)", "Hôte : retirer un joueur absent (il passe ensuite)"},
	"cmd.remove.player":    {"The player to remove", "Der Spieler, der entfernt wird", "Le joueur à retirer"},
	"cmd.settings":         {"Server settings (Manage Server): the time per action", "Server-Einstellungen (Server verwalten): die Zeit pro Aktion", "Réglages du serveur (Gérer le serveur) : le temps par action"},
	"cmd.settings.timeout": {"Seconds each player has for an action (15–86400)", "Sekunden pro Aktion für jeden Spieler (15–86400)", "Secondes par action pour chaque joueur (15–86400)"},
	"settings.show":        {"Time per action on this server: %[1]s.", "Zeit pro Aktion auf diesem Server: %[1]s.", "Temps par action sur ce serveur : %[1]s."},
	"settings.range":       {"The time per action must be between %[1]s and %[2]s.", "Die Zeit pro Aktion muss zwischen %[1]s und %[2]s liegen.", "Le temps par action doit être compris entre %[1]s et %[2]s."},
	"settings.perm":        {"Only members who may manage the server can change the settings.", "Nur wer den Server verwalten darf, kann die Einstellungen ändern.", "Seuls les membres qui peuvent gérer le serveur peuvent modifier les réglages."},
	"cmd.end":              {"End the game in this channel", "Das Spiel in diesem Kanal beenden", "Terminer la partie de ce salon"},
	"cmd.rules":            {"The rules of Qwixx in short", "Die Qwixx-Regeln in Kürze", "Les règles de Qwixx en bref"},
	"cmd.help":             {"How to play with this bot", "So spielst du mit diesem Bot", "Comment jouer avec ce bot"},
	"variant.solo":         {"Solo", "Solo", "Solo"},
	"variant.dice":         {"Qwixx (dice game)", "Qwixx (Würfelspiel)", "Qwixx (jeu de dés)"},
	"variant.cards":        {"Qwixx card game", "Qwixx – Das Kartenspiel", "Qwixx, le jeu de cartes"},
	"variant.jokers":       {"Qwixx card game with jokers", "Qwixx – Das Kartenspiel mit Jokern", "Qwixx, le jeu de cartes avec jokers"},

	// Lobby
	"lobby.title":           {"New table: %[1]s", "Neuer Tisch: %[1]s", "Nouvelle table : %[1]s"},
	"lobby.host":            {"Host: %[1]s", "Gastgeber: %[1]s", "Hôte : %[1]s"},
	"lobby.seats":           {"Players (%[1]d/%[2]d)", "Spieler (%[1]d/%[2]d)", "Joueurs (%[1]d/%[2]d)"},
	"lobby.hint":            {"Join with the button. The host starts the game when 2 to 5 players are seated.", "Tritt mit dem Button bei. Der Gastgeber startet, sobald 2 bis 5 Spieler am Tisch sitzen.", "Rejoins la table avec le bouton. L'hôte lance la partie quand 2 à 5 joueurs y sont assis."},
	"lobby.games":           {"Match of %[1]d {1:game|games}", "Serie mit %[1]d {1:Partie|Partien}", "Série de %[1]d {1:partie|parties}"},
	"btn.join":              {"Join", "Beitreten", "Rejoindre"},
	"btn.leave":             {"Leave", "Verlassen", "Quitter"},
	"btn.start":             {"Start", "Starten", "Lancer"},
	"btn.cancel":            {"Cancel table", "Tisch auflösen", "Annuler la table"},
	"lobby.cancelled":       {"The table was closed by %[1]s.", "%[1]s hat den Tisch aufgelöst.", "%[1]s a annulé la table."},
	"lobby.started":         {"The game has started: %[1]s", "Das Spiel hat begonnen: %[1]s", "La partie a commencé : %[1]s"},
	"err.full":              {"The table is full (5 players).", "Der Tisch ist voll (5 Spieler).", "La table est complète (5 joueurs)."},
	"err.joined":            {"You are already seated.", "Du sitzt schon am Tisch.", "Tu es déjà assis à la table."},
	"err.notseated":         {"You are not seated at this table.", "Du sitzt nicht an diesem Tisch.", "Tu n'es pas assis à cette table."},
	"err.hostonly":          {"Only the host (%[1]s) can do that.", "Nur der Gastgeber (%[1]s) kann das.", "Seul l'hôte (%[1]s) peut faire cela."},
	"err.hostleave":         {"You are the host: cancel the table instead of leaving.", "Du bist der Gastgeber: Löse den Tisch auf, statt ihn zu verlassen.", "Tu es l'hôte : annule la table au lieu de la quitter."},
	"err.fewplayers":        {"At least 2 players are needed to start.", "Zum Starten braucht es mindestens 2 Spieler.", "Il faut au moins 2 joueurs pour commencer."},
	"err.busy":              {"This channel already has a table (%[1]s). Play it to the end, or end it with {/end}.", "In diesem Kanal gibt es schon einen Tisch (%[1]s). Spiele ihn zu Ende oder beende ihn mit {/end}.", "Ce salon a déjà une table (%[1]s). Joue-la jusqu'au bout, ou termine-la avec {/end}."},
	"err.nogame":            {"There is no Qwixx game in this channel. Start one with {/new}.", "In diesem Kanal läuft kein Qwixx-Spiel. Starte eines mit {/new}.", "Aucune partie de Qwixx dans ce salon. Lance-en une avec {/new}."},
	"err.stale":             {"This button belongs to an earlier state of the game. Use the newest table message.", "Dieser Button gehört zu einem früheren Spielstand. Nimm die neueste Tisch-Nachricht.", "Ce bouton appartient à un état précédent de la partie. Utilise le message de table le plus récent."},
	"err.forged":            {"This button is not one of mine.", "Dieser Button stammt nicht von mir.", "Ce bouton ne vient pas de moi."},
	"err.dm":                {"Qwixx is played in a server channel, not in direct messages. Invite me to a server and use {/new} there.", "Qwixx wird in einem Server-Kanal gespielt, nicht in Direktnachrichten. Lade mich auf einen Server ein und nutze dort {/new}.", "Qwixx se joue dans un salon de serveur, pas en message privé. Invite-moi sur un serveur et utilise {/new} là-bas."},
	"err.perms":             {"I am missing permissions in this channel: %[1]s. Ask a moderator to grant them.", "Mir fehlen in diesem Kanal Berechtigungen: %[1]s. Bitte einen Moderator, sie zu erteilen.", "Il me manque des permissions dans ce salon : %[1]s. Demande à un modérateur de me les accorder."},
	"err.badcommand":        {"I could not read that command. Try {/help}.", "Diesen Befehl konnte ich nicht lesen. Versuche es mit {/help}.", "Je n'ai pas pu lire cette commande. Essaie {/help}."},
	"err.unsupported":       {"I don't handle this kind of request.", "Mit dieser Art von Anfrage kann ich nichts anfangen.", "Je ne traite pas ce genre de demande."},
	"lobby.againby":         {"%[1]s wants to play again: a new table with the same players. Join, leave or add computer players, then the host starts.", "%[1]s möchte noch einmal spielen: ein neuer Tisch mit denselben Spielern. Tretet bei, geht oder fügt Computerspieler hinzu; dann startet der Gastgeber.", "%[1]s veut rejouer : une nouvelle table avec les mêmes joueurs. Rejoignez-la, quittez-la ou ajoutez des joueurs virtuels, puis l'hôte lance la partie."},
	"lobby.seated":          {"Seated: %[1]s.", "Am Tisch: %[1]s.", "À la table : %[1]s."},
	"lobby.matchdropped":    {"The match was ended after game %[1]d of %[2]d: this is a new table.", "Das Match endet hier, nach Partie %[1]d von %[2]d. Dies ist ein neuer Tisch.", "Le match a été arrêté après la partie %[1]d sur %[2]d : voici une nouvelle table."},
	"err.left":              {"You left this match, so you cannot start its next game.", "Du hast dieses Match verlassen und kannst seine nächste Partie nicht starten.", "Tu as quitté ce match : tu ne peux pas en lancer la partie suivante."},
	"lobby.again":           {"This channel already has an open table: here it is again.", "In diesem Kanal ist schon ein Tisch offen: Hier ist er noch einmal.", "Ce salon a déjà une table ouverte : la voici de nouveau."},
	"err.unreadable":        {"This channel's stored table could not be read (its data is damaged), so nothing can be played on it. Its host, %[1]s, or a member who may manage messages can clear it with {/end}; it is kept aside for the bot's operator.", "Der gespeicherte Tisch dieses Kanals ist nicht lesbar (seine Daten sind beschädigt), daher kann darauf nicht gespielt werden. Sein Gastgeber %[1]s oder wer Nachrichten verwalten darf, kann ihn mit {/end} räumen; er wird für den Betreiber des Bots aufbewahrt.", "La table enregistrée de ce salon est illisible (ses données sont endommagées) : on ne peut pas y jouer. Son hôte, %[1]s, ou un membre qui peut gérer les messages peut la retirer avec {/end} ; elle est conservée à part pour l'opérateur du bot."},
	"err.unreadable.nohost": {"This channel's stored table could not be read (its data is damaged), so nothing can be played on it. Who hosted it can no longer be read either: a member who may manage messages can clear it with {/end}; it is kept aside for the bot's operator.", "Der gespeicherte Tisch dieses Kanals ist nicht lesbar (seine Daten sind beschädigt), daher kann darauf nicht gespielt werden. Auch sein Gastgeber ist nicht mehr lesbar: Wer Nachrichten verwalten darf, kann ihn mit {/end} räumen; er wird für den Betreiber des Bots aufbewahrt.", "La table enregistrée de ce salon est illisible (ses données sont endommagées) : on ne peut pas y jouer. Son hôte n'est plus lisible non plus : un membre qui peut gérer les messages peut la retirer avec {/end} ; elle est conservée à part pour l'opérateur du bot."},
	"end.unreadable":        {"%[1]s cleared this channel's unreadable table. {/new} opens a new one.", "%[1]s hat den unlesbaren Tisch dieses Kanals geräumt. {/new} eröffnet einen neuen.", "%[1]s a retiré la table illisible de ce salon. {/new} en ouvre une nouvelle."},
	"btn.addbot":            {"🤖 Add computer (%[1]s)", "🤖 Computer hinzufügen (%[1]s)", "🤖 Ajouter un ordinateur (%[1]s)"},
	"btn.leavers.pass":      {"If someone leaves: they pass from then on", "Wer geht, passt ab dann", "Si quelqu'un part : il passe ensuite"},
	"btn.leavers.computer":  {"If someone leaves: a computer plays for them", "Wer geht, wird vom Computer ersetzt", "Si quelqu'un part : un ordinateur joue à sa place"},
	"btn.unbot":             {"🤖 Remove a computer", "🤖 Computer entfernen", "🤖 Retirer un ordinateur"},
	"level.easy":            {"easy", "leicht", "facile"},
	"level.medium":          {"medium", "mittel", "moyen"},
	"level.hard":            {"hard", "schwer", "difficile"},
	"btn.hints.on":          {"💡 Hints: on", "💡 Tipps: an", "💡 Conseils : activés"},
	"btn.hints.off":         {"💡 Hints: off", "💡 Tipps: aus", "💡 Conseils : désactivés"},
	"btn.hint":              {"💡 Hint", "💡 Tipp", "💡 Conseil"},
	"hint.cross":            {"Cross %[1]s", "Kreuze %[1]s an", "Coche %[1]s"},
	"hint.pass":             {"Pass", "Passe", "Passe"},
	"hint.open":             {"keeps %[1]s open for %[2]s", "hält %[1]s offen für %[2]s", "garde %[1]s ouverte pour %[2]s"},
	"hint.skips":            {"gives up %[1]s", "gibt %[1]s auf", "abandonne %[1]s"},
	"hint.locks":            {"locks %[1]s", "schließt %[1]s ab", "verrouille %[1]s"},
	"hint.gain":             {"about +%[1]d {1:point|points} over passing", "etwa +%[1]d {1:Punkt|Punkte} gegenüber Passen", "environ +%[1]d {1:point|points} de plus qu'en passant"},
	"hint.even":             {"the choices are about equal", "die Möglichkeiten sind etwa gleich gut", "les choix se valent à peu près"},
	"hint.close":            {"a close call against passing", "knapp besser als Passen", "à peine mieux que passer"},
	"hint.costly":           {"every cross would give up more than it brings", "jedes Kreuz gäbe mehr auf, als es bringt", "chaque croix coûterait plus qu'elle ne rapporte"},
	"hint.misthrow":         {"even with the misthrow (−5)", "trotz des Fehlwurfs (−5)", "même avec le coup manqué (−5)"},
	"hint.take":             {"Take %[1]s", "Nimm %[1]s", "Prends %[1]s"},
	"hint.takewhy":          {"the cards that did best when the game was played out", "die Karten, die beim Durchspielen am besten abschnitten", "les cartes qui ont le mieux réussi en jouant la partie jusqu'au bout"},
	"hint.gainother":        {"about +%[1]d {1:point|points} over the weakest choice", "etwa +%[1]d {1:Punkt|Punkte} gegenüber der schwächsten Wahl", "environ +%[1]d {1:point|points} de plus que le choix le plus faible"},
	"hint.play":             {"Play %[1]s and cross %[2]s", "Spiele %[1]s aus und kreuze %[2]s an", "Joue %[1]s et coche %[2]s"},
	"hint.playnone":         {"Play %[1]s and cross nothing: every cross would give up more than it brings", "Spiele %[1]s aus und kreuze nichts an: Jedes Kreuz gäbe mehr auf, als es bringt", "Joue %[1]s sans rien cocher : chaque croix coûterait plus qu'elle ne rapporte"},
	"hint.off":              {"Hints are turned off at this table.", "An diesem Tisch sind Tipps ausgeschaltet.", "Les conseils sont désactivés à cette table."},
	"hint.nothing":          {"There is nothing for you to decide right now.", "Gerade hast du nichts zu entscheiden.", "Tu n'as rien à décider pour l'instant."},
	"err.restarting":        {"I am restarting; nothing was changed. Please try again in a moment.", "Ich starte gerade neu; nichts wurde geändert. Bitte versuche es gleich noch einmal.", "Je redémarre ; rien n'a été modifié. Réessaie dans un instant."},
	"err.internal":          {"Something went wrong on my side; nothing was changed. Please try again.", "Bei mir ist etwas schiefgegangen; nichts wurde geändert. Bitte versuche es noch einmal.", "Un problème est survenu de mon côté ; rien n'a été modifié. Réessaie."},
	"err.endperm":           {"Only the host or members who may manage messages can end the game.", "Nur der Gastgeber oder wer Nachrichten verwalten darf, kann das Spiel beenden.", "Seuls l'hôte ou les membres qui peuvent gérer les messages peuvent terminer la partie."},
	"perm.send":             {"Send Messages", "Nachrichten senden", "Envoyer des messages"},
	"perm.view":             {"View Channel", "Kanal ansehen", "Voir le salon"},
	"perm.attach":           {"Attach Files", "Dateien anhängen", "Joindre des fichiers"},
	"perm.embed":            {"Embed Links", "Links einbetten", "Intégrer des liens"},
	"perm.threads":          {"Send Messages in Threads", "Nachrichten in Threads senden", "Envoyer des messages dans les fils"},
	"end.done":              {"%[1]s ended the game.", "%[1]s hat das Spiel beendet.", "%[1]s a terminé la partie."},
	"end.lobby":             {"%[1]s closed the table.", "%[1]s hat den Tisch aufgelöst.", "%[1]s a annulé la table."},

	// Help
	"help.text": {
		"**Qwixx bot**\n{/new} opens a table (dice game, card game, or card game with jokers); players join with the button and the host starts the game.\nTake your turns with the buttons under the table picture. {/sheet} shows your sheet, {/hand} your cards (only you see them).\n{/leave} leaves the game; {/end} ends it (host or moderators). {/rules} explains the rules, {/settings} shows the time per action.\n{/stats} shows your statistics, {/leaderboard} the server's ranking, {/record} a finished game's record as a file; {/forget-me} deletes your results and your name from the games I keep.\n{/solo} plays a solo game (privately, or in the channel), {/daily} the daily challenge: the same dice for everybody, once a day. After a dice game, 🔍 Review shows what your choices cost.",
		"**Qwixx-Bot**\n{/new} eröffnet einen Tisch (Würfelspiel, Kartenspiel oder Kartenspiel mit Jokern); die Spieler treten per Button bei, der Gastgeber startet das Spiel.\nDeine Züge machst du mit den Buttons unter dem Tischbild. {/sheet} zeigt deinen Zettel, {/hand} deine Karten (nur du siehst sie).\n{/leave} verlässt das Spiel; {/end} beendet es (Gastgeber oder Moderatoren). {/rules} erklärt die Regeln, {/settings} zeigt die Zeit pro Aktion.\n{/stats} zeigt deine Statistik, {/leaderboard} die Rangliste des Servers, {/record} das Protokoll einer beendeten Partie als Datei; {/forget-me} löscht deine Ergebnisse und deinen Namen aus den gespeicherten Partien.\n{/solo} startet ein Solospiel (privat oder im Kanal), {/daily} die Tagesaufgabe: dieselben Würfel für alle, einmal am Tag. Nach einem Würfelspiel zeigt 🔍 Analyse, was deine Entscheidungen gekostet haben.",
		"**Bot Qwixx**\n{/new} ouvre une table (jeu de dés, jeu de cartes, ou jeu de cartes avec jokers) ; les joueurs rejoignent la table avec le bouton et l'hôte lance la partie.\nJoue tes tours avec les boutons sous l'image de la table. {/sheet} affiche ta fiche, {/hand} tes cartes (toi seul les vois).\n{/leave} te fait quitter la partie ; {/end} la termine (hôte ou modérateurs). {/rules} explique les règles, {/settings} montre le temps par action.\n{/stats} affiche tes statistiques, {/leaderboard} le classement du serveur, {/record} le relevé d'une partie terminée en fichier ; {/forget-me} efface tes résultats et ton nom des parties que je garde.\n{/solo} lance une partie en solo (en privé, ou dans le salon), {/daily} le défi du jour : les mêmes dés pour tous, une fois par jour. Après une partie de dés, 🔍 Analyse montre ce que tes choix t'ont coûté.",
	},
}
