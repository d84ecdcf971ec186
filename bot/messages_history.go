package bot

// historyMessages are the words of the history of finished games:
// statistics, leaderboards, game records and forgetting a user.
var historyMessages = map[string][3]string{
	"cmd.stats":                 {"Your Qwixx statistics in this server, or another player's (only you see them)", "Deine Qwixx-Statistik auf diesem Server oder die eines anderen (nur du siehst sie)", "Tes statistiques de Qwixx sur ce serveur, ou celles d'un autre (toi seul les vois)"},
	"cmd.stats.player":          {"Whose statistics (you if empty)", "Wessen Statistik (deine, wenn leer)", "Les statistiques de qui (les tiennes si vide)"},
	"cmd.leaderboard":           {"The ranking of this server's players", "Die Rangliste der Spieler dieses Servers", "Le classement des joueurs de ce serveur"},
	"cmd.leaderboard.variant":   {"Only games of this variant", "Nur Partien dieses Spiels", "Seulement les parties de ce jeu"},
	"cmd.leaderboard.computers": {"List computer players too", "Auch Computerspieler aufführen", "Inclure aussi les joueurs virtuels (ordinateur)"},
	"cmd.record":                {"Get a finished game's record as a file (only you see it)", "Das Protokoll einer beendeten Partie als Datei (nur du siehst es)", "Le relevé d'une partie terminée en fichier (toi seul le vois)"},
	"cmd.record.game":           {"Which game (the latest if empty)", "Welche Partie (die letzte, wenn leer)", "Quelle partie (la dernière si vide)"},
	"cmd.forget":                {"Delete your game results and your name from the games I keep", "Deine Ergebnisse und deinen Namen aus den gespeicherten Partien löschen", "Effacer tes résultats et ton nom des parties que je garde"},

	"variant.short.dice":   {"dice", "Würfel", "dés"},
	"variant.short.cards":  {"cards", "Karten", "cartes"},
	"variant.short.jokers": {"jokers", "Joker", "jokers"},

	"btn.record":    {"Record", "Protokoll", "Relevé"},
	"btn.showstats": {"Show in channel", "Im Kanal zeigen", "Montrer dans le salon"},
	"btn.forget":    {"Forget me", "Vergiss mich", "Oublie-moi"},
	"btn.keep":      {"Cancel", "Abbrechen", "Annuler"},

	"hist.none":       {"This bot keeps no history of games.", "Dieser Bot speichert keine Partien.", "Ce bot ne garde pas l'historique des parties."},
	"record.missing":  {"I have no record of that game. Records are kept for %[1]d {1:day|days}, and games stopped with {/end} are not kept.", "Von dieser Partie habe ich kein Protokoll. Protokolle bleiben %[1]d {1:Tag|Tage} gespeichert; mit {/end} abgebrochene Partien werden nicht gespeichert.", "Je n'ai pas de relevé de cette partie. Les relevés sont gardés %[1]d {1:jour|jours}, et les parties arrêtées avec {/end} ne sont pas gardées."},
	"record.damaged":  {"That game's record could not be read: its stored data is damaged. It is no longer offered in the list.", "Das Protokoll dieser Partie ist nicht lesbar: Seine gespeicherten Daten sind beschädigt. Es wird nicht mehr in der Liste angeboten.", "Le relevé de cette partie est illisible : ses données enregistrées sont endommagées. Il n'est plus proposé dans la liste."},
	"hist.damaged":    {"⚠️ %[1]d {1:game|games} of this server could not be read (damaged data) and {1:is|are} not counted.", "⚠️ %[1]d {1:Partie|Partien} dieses Servers {1:ist|sind} nicht lesbar (beschädigte Daten) und {1:zählt|zählen} nicht mit.", "⚠️ %[1]d {1:partie|parties} de ce serveur {1:est illisible|sont illisibles} (données endommagées) et {1:n'est pas comptée|ne sont pas comptées}."},
	"hist.alldamaged": {"The results kept for this server could not be read: their stored data is damaged.", "Die gespeicherten Ergebnisse dieses Servers sind nicht lesbar: Ihre Daten sind beschädigt.", "Les résultats gardés pour ce serveur sont illisibles : leurs données sont endommagées."},
	"record.gone":     {"I have no record of that game. The oldest records are deleted, and games stopped with {/end} are not kept.", "Von dieser Partie habe ich kein Protokoll. Die ältesten Protokolle werden gelöscht; mit {/end} abgebrochene Partien werden nicht gespeichert.", "Je n'ai pas de relevé de cette partie. Les plus anciens relevés sont effacés, et les parties arrêtées avec {/end} ne sont pas gardées."},
	"record.sent":     {"The record of the game of %[1]s · %[2]s · %[3]s. `qwixxbot replay` and `qwixxbot render` read it as it is.", "Das Protokoll der Partie vom %[1]s · %[2]s · %[3]s. `qwixxbot replay` und `qwixxbot render` lesen es so, wie es ist.", "Le relevé de la partie du %[1]s · %[2]s · %[3]s. `qwixxbot replay` et `qwixxbot render` le lisent tel quel."},

	"stats.nogames":     {"%[1]s has no finished games in this server yet.", "%[1]s hat auf diesem Server noch keine beendete Partie.", "%[1]s n'a pas encore de partie terminée sur ce serveur."},
	"stats.title":       {"📊 %[1]s: Qwixx statistics", "📊 %[1]s: Qwixx-Statistik", "📊 %[1]s : statistiques de Qwixx"},
	"stats.games":       {"%[1]d {1:game|games} · %[2]d {2:win|wins}", "%[1]d {1:Partie|Partien} · %[2]d {2:Sieg|Siege}", "%[1]d {1:partie|parties} · %[2]d {2:victoire|victoires}"},
	"stats.sharedwins":  {"(shared: %[1]d)", "(geteilt: %[1]d)", "(partagées : %[1]d)"},
	"stats.scores":      {"win share %[1]s · mean %[2]s · best %[3]d", "Siegquote %[1]s · Schnitt %[2]s · Bestwert %[3]d", "taux de victoire %[1]s · moyenne %[2]s · record %[3]d"},
	"stats.recent":      {"Last games", "Letzte Partien", "Dernières parties"},
	"stats.place":       {"%[1]s place", "Platz %[1]s", "%[1]s place"},
	"stats.placed":      {"%[1]s: %[2]s", "%[1]s: %[2]s", "%[1]s : %[2]s"},
	"stats.sharedfirst": {"shared win", "geteilter Sieg", "victoire partagée"},
	"stats.shared":      {"Shown by %[1]s:", "Gezeigt von %[1]s:", "Montré par %[1]s :"},

	"board.computer": {"Computer (%[1]s)", "Computer (%[1]s)", "Ordinateur (%[1]s)"},
	"board.empty":    {"No finished games in this server yet: play one with {/new}.", "Auf diesem Server gibt es noch keine beendete Partie: spielt eine mit {/new}.", "Pas encore de partie terminée sur ce serveur : jouez-en une avec {/new}."},
	"board.all":      {"all games", "alle Spiele", "tous les jeux"},
	"board.title":    {"🏆 Leaderboard: %[1]s", "🏆 Rangliste: %[1]s", "🏆 Classement : %[1]s"},
	"board.line":     {"**%[1]d.** %[2]s · rating %[3]s · %[4]d {4:game|games} · %[5]s wins", "**%[1]d.** %[2]s · Wertung %[3]s · %[4]d {4:Partie|Partien} · %[5]s Siege", "**%[1]d.** %[2]s · cote %[3]s · %[4]d {4:partie|parties} · %[5]s de victoires"},
	"board.unranked": {"Not ranked yet (fewer than %[1]d {1:game|games}):", "Noch nicht gewertet (weniger als %[1]d {1:Partie|Partien}):", "Pas encore classés (moins de %[1]d {1:partie|parties}) :"},
	"board.measure":  {"Rating: a skill estimate from the places of every game (OpenSkill), minus three times its uncertainty, so it grows as you play and win; ranked from %[1]d {1:game|games}. %[2]d {2:game|games}.", "Wertung: eine Spielstärke aus den Plätzen jeder Partie (OpenSkill), abzüglich dreimal ihrer Unsicherheit: sie wächst, je mehr du spielst und gewinnst; gewertet ab %[1]d {1:Partie|Partien}. %[2]d {2:Partie|Partien}.", "Cote : une estimation du niveau d'après les places de chaque partie (OpenSkill), moins trois fois son incertitude : elle monte à mesure que tu joues et gagnes ; classé dès %[1]d {1:partie|parties}. %[2]d {2:partie|parties}."},
	"forget.ask":     {"**Forget me?** In every server where I keep games, your results and game records lose your user ID and your name becomes \"Player N\". Your scores stay as an anonymous player's, so the others' statistics do not change. This cannot be undone; games you play later are kept again.", "**Vergessen?** Auf jedem Server, auf dem ich Partien speichere, verlieren deine Ergebnisse und Protokolle deine Nutzer-ID, und dein Name wird zu \"Player N\". Deine Punkte bleiben als die eines anonymen Spielers, damit sich die Statistik der anderen nicht ändert. Das lässt sich nicht rückgängig machen; spätere Partien werden wieder gespeichert.", "**T'oublier ?** Sur chaque serveur où je garde des parties, tes résultats et tes relevés perdent ton identifiant et ton nom devient « Player N ». Tes points restent ceux d'un joueur anonyme, pour que les statistiques des autres ne changent pas. C'est définitif ; les parties que tu joueras ensuite seront de nouveau gardées."},
	"forget.kept":    {"Nothing was deleted.", "Es wurde nichts gelöscht.", "Rien n'a été effacé."},
	"forget.done":    {"Done: you are forgotten in %[1]d {1:result|results} and %[2]d {2:game record|game records}.", "Erledigt: du bist in %[1]d {1:Ergebnis|Ergebnissen} und %[2]d {2:Protokoll|Protokollen} vergessen.", "C'est fait : ton nom et ton identifiant sont effacés de %[1]d {1:résultat|résultats} et de %[2]d {2:relevé|relevés}."},
}
