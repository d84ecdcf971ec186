package bot

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// playClick handles a move clicked in a running game: on the table, in a
// sheet or hand view, or in a private game's view (routes.go).
func (b *Bot) playClick(r *request, a Action) {
	var (
		chosen string
		was    string // the choice it replaced (P4), if any
		moved  bool
		after  *Table
		seat   int
		live   *liveUpdate
	)
	private := a.View == ViewSolo || a.View == ViewDaily
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		if t == nil || t.ID != a.Table || t.Game == nil {
			if private {
				r.ephemeral(r.lang.T(msg.SoloGone))
			} else {
				r.ephemeral(r.lang.T(msg.ErrStale))
			}
			return nil, errRefused
		}
		if private && a.Stamp != t.Stamp() {
			// An outdated view of the player's own game (a second click
			// before the first one's answer came): shown as it is now.
			b.answerPrivate(r, t, r.lang.T(msg.SoloStale), "")
			return nil, errRefused
		}
		if t.Stage == StageOver {
			r.ephemeral(r.lang.T(msg.ErrOvergame))
			return nil, errRefused
		}
		if a.Stamp != t.Stamp() {
			r.ephemeral(r.lang.T(msg.ErrStale))
			return nil, errRefused
		}
		seat = t.SeatOf(r.userID)
		if seat < 0 {
			r.ephemeral(r.lang.T(msg.ErrNotplaying))
			return nil, errRefused
		}
		m, label, err := moveFromAction(t.Game, seat, a, r.lang)
		if err != nil {
			r.ephemeral(r.lang.T(msg.ErrForged))
			return nil, errRefused
		}
		if prev, ok := t.Game.Decision(seat); ok {
			was = moveLabel(t.Game, prev, r.lang)
		}
		if err := b.apply(t, m); err != nil {
			// A choice on the table that is not one of the clicker's: the
			// reason, and their own choices to click right there (no
			// picture: the table shows their sheet).
			text, choices := explain(r.lang, err), []discordgo.MessageComponent(nil)
			if a.View == ViewTable {
				choices = personalControls(t, seat, r.lang, ViewSheet)
			}
			if len(choices) > 0 {
				text += "\n" + r.lang.T(msg.MoveChoices)
			}
			r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
				Content: text, Flags: discordgo.MessageFlagsEphemeral, Components: choices,
			}})
			return nil, errRefused
		}
		chosen, moved, after = label, true, t
		if b.opt.LiveAnswers && a.View == ViewTable && r.i.Message != nil && r.i.Message.ID == t.Shown.Msg && !b.updateMayOvertake(r) {
			live = b.liveAnswer(t)
		}
		return t, nil
	})
	defer unlock()
	if r.failed(err) {
		return
	}
	if moved {
		text := r.lang.T(msg.OkChose, chosen)
		if chosen == "" {
			text = r.lang.T(msg.OkPassed)
		}
		if was != "" {
			text = r.lang.T(msg.OkChanged, was) + " " + text
		}
		stillOpen := after.Stamp() == a.Stamp // the action has not resolved
		if stillOpen && after.Game.Phase().Simultaneous() {
			text += " " + r.lang.T(msg.OkCanchange)
		}
		switch a.View {
		case ViewSolo, ViewDaily:
			// A private game's one view follows it: the next dice, or the end.
			b.answerPrivate(r, after, "✅ "+text, "")
			return
		case ViewHand:
			// The hand view follows the game: the new cards, what comes next.
			b.answerHand(r, after, seat, playSel{}, "✅ "+text, true)
		case ViewSheet:
			// While the action is open the view keeps its buttons, the
			// choice made in green, to change it (P4).
			comps := []discordgo.MessageComponent{}
			if stillOpen {
				comps = append(comps, personalControls(after, seat, r.lang, ViewSheet)...)
			}
			r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
				Content: text, Components: comps, Attachments: &[]*discordgo.MessageAttachment{},
			}})
		default:
			switch {
			case live == nil:
				r.ephemeral(text)
			case r.respond(live.response()) != nil:
				b.force.Store(r.i.ChannelID, true) // the reconciler edits instead
			case !live.shrink:
				b.noteAnswerView(r, live.content, live.comps)
				// Later edits of this message can go through this click.
				b.liveTokens.Store(r.i.Message.ID, liveToken{msg: r.i.Message.ID, it: tokenOnly(r.i), at: r.at})
			default:
				// Shrunk to its log line by the answer: a past turn's
				// message, which nothing edits again.
				b.liveTokens.Delete(r.i.Message.ID)
			}
		}
		b.refresh.kick(b, r.i.ChannelID)
	}
}

// moveLabel names a choice of an action everybody decides as its button
// does: "Red 5", or "Pass".
func moveLabel(g *game.Game, m game.Move, l Lang) string {
	switch m.Kind {
	case game.White:
		return l.T(msg.BtnRow, colorName(l, m.Color), g.WhiteSum())
	case game.Number:
		return l.T(msg.BtnRow, colorName(l, m.Color), g.TopNumber())
	}
	return l.T(msg.BtnPass)
}

// moveFromAction turns a clicked action into a move for seat, with a label
// for the confirmation ("" for a pass).
func moveFromAction(g *game.Game, seat int, a Action, l Lang) (game.Move, string, error) {
	switch a.Verb {
	case "pass":
		return game.PassMove(seat), "", nil
	case "white", "number":
		c, err := game.ParseColor(a.Arg)
		if err != nil {
			return game.Move{}, "", err
		}
		n := g.WhiteSum()
		if a.Verb == "number" {
			n = g.TopNumber()
			return game.NumberMove(seat, c), l.T(msg.BtnRow, colorName(l, c), n), nil
		}
		return game.WhiteMove(seat, c), l.T(msg.BtnRow, colorName(l, c), n), nil
	case "color":
		w, col, ok := strings.Cut(a.Arg, ".")
		c, err := game.ParseColor(col)
		wi, err2 := strconv.Atoi(w)
		if !ok || err != nil || err2 != nil || (wi != 1 && wi != 2) {
			return game.Move{}, "", errForged
		}
		d := g.Dice()
		return game.ColoredMove(seat, wi, c), l.T(msg.BtnRow, colorName(l, c), d[wi-1]+d[game.DieOf(c)]), nil
	case "take":
		var nums []int
		for _, f := range strings.Split(a.Arg, "-") {
			n, err := strconv.Atoi(f)
			if err != nil || n < 2 || n > 12 {
				return game.Move{}, "", errForged
			}
			nums = append(nums, n)
		}
		if len(nums) > 3 {
			return game.Move{}, "", errForged
		}
		return game.TakeMove(seat, nums...), takeLabel(l, nums), nil
	case "play":
		p, err := decodePlay(a.Arg)
		if err != nil || !p.hasColor {
			return game.Move{}, "", errForged
		}
		return game.PlayMove(seat, p.color, p.cards, p.cross...), playLabel(l, p, true), nil
	}
	return game.Move{}, "", errForged
}

// apply plays move m on the table's game (session.Table.Apply: the seats
// nobody decides for, the news, the timer, the end of the game) and logs
// what could not be recorded.
func (b *Bot) apply(t *Table, m game.Move) error {
	err := t.Apply(m, b.timing(t))
	b.logProblems(t)
	return err
}

// timing is the clock and the timer settings of t's server.
func (b *Bot) timing(t *Table) session.Timing {
	return session.Timing{Now: b.opt.Now(), Timeout: func() time.Duration { return b.turnTimeout(b.life, t.GuildID) }, ReminderLead: b.opt.ReminderBefore}
}

// logProblems logs (and forgets) what went wrong in t without stopping a
// change.
func (b *Bot) logProblems(t *Table) {
	for _, err := range t.Problems {
		b.log.Error().Err(err).Str("table", t.ID).Msg("table problem")
	}
	t.Problems = nil
}

// tableContent is the text of the table message.
func tableContent(t *Table, l Lang) string {
	g := t.Game
	var sb strings.Builder
	act := t.Seats[g.Active()]
	if g.Over() {
		return ""
	}
	header := l.T(msg.TurnHeader, g.Turn(), act.Mention())
	if m := t.Match; m != nil && m.Games > 1 {
		header = l.T(msg.TurnMatchgame, m.Played()+1, m.Games) + " · " + header
	}
	fmt.Fprintln(&sb, header)
	switch g.Phase() {
	case game.PhaseWhite:
		fmt.Fprintln(&sb, l.T(msg.TurnWhite, g.WhiteSum()))
	case game.PhaseColor:
		fmt.Fprintln(&sb, l.T(msg.TurnColor, act.Mention()))
	case game.PhaseTake:
		fmt.Fprintln(&sb, l.T(msg.TurnTake, act.Mention()))
	case game.PhaseNumber:
		fmt.Fprintln(&sb, l.T(msg.TurnNumber, g.TopNumber()))
	case game.PhasePlay:
		fmt.Fprintln(&sb, l.T(msg.TurnPlay, act.Mention()))
	}
	var waiting []string
	for _, p := range g.Waiting() {
		waiting = append(waiting, t.Seats[p].Mention())
	}
	fmt.Fprintln(&sb, l.T(msg.TurnWaiting, strings.Join(waiting, " ")))
	if !t.Deadline.IsZero() {
		fmt.Fprintln(&sb, l.T(msg.TurnDeadline, fmt.Sprintf("<t:%d:R>", t.Deadline.Unix())))
	}
	// Events of this turn so far; earlier turns' are in their log lines.
	for _, n := range t.News {
		if n.Turn == g.Turn() {
			fmt.Fprintln(&sb, "> "+newsWords(n, l, t.Seats))
		}
	}
	return strings.TrimSpace(sb.String())
}

// tableControls are the public buttons of the current action. They carry
// nothing private (RULES C10): rows, dice, display numbers.
func tableControls(t *Table, l Lang) []discordgo.MessageComponent {
	g := t.Game
	var btns []discordgo.MessageComponent
	add := func(label, verb, arg string, style discordgo.ButtonStyle, disabled bool) {
		btns = append(btns, discordgo.Button{Label: label, Style: style, CustomID: actionID(t, ViewTable, verb, arg), Disabled: disabled})
	}
	switch g.Phase() {
	case game.PhaseWhite, game.PhaseNumber:
		n, verb := g.WhiteSum(), "white"
		if g.Phase() == game.PhaseNumber {
			n, verb = g.TopNumber(), "number"
		}
		// Only the rows somebody still deciding can cross the number in:
		// a button nobody can take would only earn a private refusal.
		var open [game.NumColors]bool
		for p := range t.Seats {
			for _, m := range g.Choices(p) { // who decided may still change (P4)
				if m.Kind != game.Pass {
					open[m.Color] = true
				}
			}
		}
		for _, c := range game.Colors {
			if open[c] {
				add(l.T(msg.BtnRow, colorName(l, c), n), verb, c.String(), discordgo.PrimaryButton, false)
			}
		}
		add(l.T(msg.BtnPass), "pass", "", discordgo.SecondaryButton, false)
	case game.PhaseColor:
		d := g.Dice()
		for _, m := range byColorPassLast(g.LegalMoves(g.Active())) {
			if m.Kind == game.Colored {
				w := d[m.White-1]
				add(l.T(msg.BtnColor, colorName(l, m.Color), w+d[game.DieOf(m.Color)], w, d[game.DieOf(m.Color)]),
					"color", fmt.Sprintf("%d.%s", m.White, m.Color), discordgo.PrimaryButton, false)
			}
		}
		label, style := passButton(t, g.Active(), l)
		add(label, "pass", "", style, false)
	case game.PhaseTake:
		for _, m := range g.LegalMoves(g.Active()) {
			nums := m.TakeNumbers()
			add(takeLabel(l, nums), "take", joinInts(nums, "-"), discordgo.PrimaryButton, false)
		}
	}
	rows := chunkButtons(btns)
	personal := []discordgo.MessageComponent{discordgo.Button{Label: l.T(msg.BtnSheet), Style: discordgo.SecondaryButton, CustomID: actionID(t, ViewTable, "sheet", "")}}
	if t.Variant.CardGame() {
		personal = append(personal, discordgo.Button{Label: l.T(msg.BtnHand), Style: discordgo.SuccessButton, CustomID: actionID(t, ViewTable, "hand", "")})
	}
	return append(rows, discordgo.ActionsRow{Components: personal})
}

// byColorPassLast orders moves as their buttons are shown: grouped by
// colour, Pass last.
func byColorPassLast(moves []game.Move) []game.Move {
	slices.SortStableFunc(moves, func(a, b game.Move) int {
		if (a.Kind == game.Pass) != (b.Kind == game.Pass) {
			if a.Kind == game.Pass {
				return 1
			}
			return -1
		}
		return int(a.Color) - int(b.Color)
	})
	return moves
}

// passButton words the Pass button for seat: where passing ends the turn
// without a cross, it costs the active player a misthrow (D6), and a 4th
// ends the game (D9); the button says so, in red.
func passButton(t *Table, seat int, l Lang) (string, discordgo.ButtonStyle) {
	g := t.Game
	if g.Phase() != game.PhaseColor || seat != g.Active() || g.ActiveHasCrossed() {
		return l.T(msg.BtnPass), discordgo.SecondaryButton
	}
	if g.Sheet(seat).Misthrows+1 >= game.MaxMisthrows {
		return l.T(msg.BtnPassEnd), discordgo.DangerButton
	}
	return l.T(msg.BtnPassMisthrow, game.MisthrowPenalty), discordgo.DangerButton
}

// chunkButtons lays buttons out in rows of at most five.
func chunkButtons(btns []discordgo.MessageComponent) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	for len(btns) > 0 {
		n := min(5, len(btns))
		rows = append(rows, discordgo.ActionsRow{Components: btns[:n]})
		btns = btns[n:]
	}
	return rows
}

func joinInts(ns []int, sep string) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, sep)
}

func takeLabel(l Lang, nums []int) string { return l.T(msg.BtnTake, joinInts(nums, " + ")) }

// refreshChannel shows the channel's table as it is now in the channel's
// messages (reconcile). It runs in the channel's refresher goroutine, never
// under the channel lock while it talks to Discord; the open hand views
// have workers of their own (refresher.kick).
func (b *Bot) refreshChannel(channelID string) {
	log := b.log.With().Str("channel", channelID).Logger()
	b.reconcile(log, channelID)
}

// waitingUsers are the user IDs of the players who must act now.
func waitingUsers(t *Table) []string {
	var ids []string
	for _, p := range t.Game.Waiting() {
		if t.Seats[p].Computer == "" {
			ids = append(ids, t.Seats[p].UserID)
		}
	}
	return ids
}

// resultsMessage shows the final sheets, the ranking (ties share), the
// match totals and a button to play again.
func (b *Bot) resultsMessage(log zerolog.Logger, t *Table, headline string) *discordgo.InteractionResponseData {
	l := LangFor(t.Lang)
	g := t.Game
	var sb strings.Builder
	if headline != "" {
		fmt.Fprintln(&sb, headline)
	}
	stopped := g.EndReason() == game.NotOver
	if stopped {
		fmt.Fprintln(&sb, l.T(msg.OverStopped))
	} else {
		fmt.Fprintln(&sb, l.T(msg.OverTitle))
		fmt.Fprintln(&sb, endHeadline(l, t))
	}
	scores := g.Scores()
	win := game.Winners(scores)
	var wn []string
	for _, w := range win {
		wn = append(wn, t.Seats[w].Mention())
	}
	switch {
	case stopped:
		// Nobody wins a game that was not played to its end.
		fmt.Fprintln(&sb, l.T(msg.OverStanding))
	case len(scores) == 1:
		fmt.Fprintln(&sb, l.T(msg.OverSolo, wn[0], scores[0])) // nobody to beat
	case len(win) == 1:
		fmt.Fprintln(&sb, l.T(msg.OverWinner, wn[0], scores[win[0]]))
	default:
		fmt.Fprintln(&sb, l.T(msg.OverWinners, listAnd(l, wn), scores[win[0]]))
	}
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, c int) int { return scores[c] - scores[a] })
	rank := 0
	for i, p := range order {
		if i == 0 || scores[p] != scores[order[i-1]] {
			rank = i + 1 // equal totals share a rank (RULES P3)
		}
		fmt.Fprintln(&sb, l.T(msg.OverRank, rank, t.Seats[p].ShownName(), scores[p]))
	}
	if m := t.Match; m != nil && m.Games > 1 {
		fmt.Fprintln(&sb)
		fmt.Fprint(&sb, matchStandings(l, t, m))
	}
	data := &discordgo.InteractionResponseData{Content: strings.TrimSpace(sb.String()), AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if png, err := b.rd.Results(g.Public(), t.Match, l); err != nil {
		log.Error().Err(err).Msg("render results")
	} else {
		data.Files = []*discordgo.File{{Name: "results.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}
	}
	// Beside it the score chart: every player's total turn by turn, the
	// turns played so far for a stopped game; none for a game stopped
	// before its first turn ended (it would be empty axes).
	if s := g.ScoreSeries(); s.Turns() == 0 {
		// no chart
	} else if png, err := b.rd.Chart(g.Public(), s, l); err != nil {
		log.Error().Err(err).Msg("render chart")
	} else {
		data.Files = append(data.Files, &discordgo.File{Name: "chart.png", ContentType: "image/png", Reader: bytes.NewReader(png)})
	}
	label := l.T(msg.BtnAgain)
	if t.Match != nil && !t.Match.Done() {
		label = l.T(msg.BtnNext)
	}
	if t.Stage == StageOver {
		btns := []discordgo.MessageComponent{
			discordgo.Button{Label: label, Style: discordgo.SuccessButton, CustomID: actionID(t, ViewResults, "again", "")},
		}
		if rec := b.recordButton(t, l); rec != nil {
			btns = append(btns, rec)
			// The review reads the kept record once the table moved on.
			btns = append(btns, reviewButton(l, actionID(t, ViewResults, "review", strconv.Itoa(t.GameNo))))
		}
		data.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: btns}}
	}
	return data
}

// endHeadline says what ended a finished game (D9, C9), naming the players:
// "Ben took a fourth misthrow: the game is over.", "Red (Anna) and blue
// (Ben) locked: the game is over." (the rows locked for everybody, each with
// the players who crossed its lock), "Anna locked red and blue: the game is
// over." (card game: the player's own two locked rows).
func endHeadline(l Lang, t *Table) string {
	g := t.Game
	var lines []string
	switch g.EndReason() {
	case game.EndLocks:
		if t.Variant.CardGame() {
			for p := range t.Seats {
				if g.Sheet(p).Locks() < 2 {
					continue
				}
				var rows []string
				for _, c := range game.Colors {
					if g.Sheet(p).Rows[c].Locked() {
						rows = append(rows, l.T(i18n.RowColor[c]))
					}
				}
				lines = append(lines, l.T(msg.OverLockscard, t.Seats[p].Name, listAnd(l, rows)))
			}
			break
		}
		var rows []string
		for _, c := range game.Colors {
			if !g.Closed(c) {
				continue
			}
			var who []string
			for p := range t.Seats {
				if g.Sheet(p).Rows[c].Locked() {
					who = append(who, t.Seats[p].Name)
				}
			}
			row := l.T(i18n.RowColor[c])
			if len(who) > 0 {
				row += " (" + strings.Join(who, ", ") + ")"
			}
			rows = append(rows, row)
		}
		lines = append(lines, upperFirst(l.T(msg.OverLocks, listAnd(l, rows))))
	case game.EndMisthrows:
		for p := range t.Seats {
			if g.Sheet(p).Misthrows >= game.MaxMisthrows {
				lines = append(lines, l.T(msg.OverMisthrows, t.Seats[p].Name))
			}
		}
	}
	return strings.Join(lines, "\n")
}

// matchStandings words a match of several games: the totals of the games
// finished so far and who leads or has won, or that no game was finished
// (a match ended with /qwixx end during its first game).
func matchStandings(l Lang, t *Table, m *game.Match) string {
	if m.Played() == 0 {
		return l.T(msg.OverNomatch, m.Games) + "\n"
	}
	var sb strings.Builder
	fmt.Fprintln(&sb, l.T(msg.OverMatch, m.Played(), m.Games))
	tot := m.Totals()
	for p, s := range t.Seats {
		if p < len(tot) {
			fmt.Fprintln(&sb, l.T(msg.OverMatchrow, s.ShownName(), tot[p]))
		}
	}
	var lead []string
	for _, p := range m.Leaders() {
		if p < len(t.Seats) {
			lead = append(lead, t.Seats[p].Mention())
		}
	}
	if m.Done() {
		fmt.Fprintln(&sb, l.T(msg.OverMatchwin, listAnd(l, lead)))
	} else {
		fmt.Fprintln(&sb, l.T(msg.OverMatchlead, listAnd(l, lead)))
	}
	return sb.String()
}

// playAgain starts the next game of the match, or a new match, with the
// same players.
func (b *Bot) playAgain(r *request, a Action) {
	var lobby *Table
	var match bool
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		if t == nil || t.ID != a.Table || t.Stage != StageOver || a.Stamp != t.Stamp() {
			r.ephemeral(r.lang.T(msg.ErrStale))
			return nil, errRefused
		}
		again, err := t.PlayAgain(r.userID)
		if err != nil {
			r.ephemeral(refusal(r.lang, t, err))
			return nil, errRefused
		}
		if again {
			match = true
			return t, b.startGame(t) // the match's next game, the same seats
		}
		lobby = t
		// The lobby goes out as this click's answer: until it is known to
		// have arrived, the reconciler makes sure the channel shows it.
		t.Shown.LobbyPending = true
		return t, nil
	})
	defer unlock()
	if r.failed(err) {
		return
	}
	if match {
		// The finished game's Record and Review buttons stay; Next game
		// goes (the reconciler makes sure of it, should this answer be
		// lost).
		var record, review string
		for _, id := range messageCustomIDs(r.i.Message) {
			if ra, err := DecodeAction(id); err == nil && ra.Table == a.Table {
				switch ra.Verb {
				case "record":
					record = id
				case "review":
					review = id
				}
			}
		}
		keep := keptResultsButtons(r.glang, record, review)
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Components: keep}})
	} else {
		r.log.Info().Str("table", lobby.ID).Int("seats", len(lobby.Seats)).Msg("play again: lobby")
		if r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: againLobby(lobby)}) == nil {
			// Shown: the reconciler need not look for it. (Should this
			// save fail, it finds the lobby in the channel.)
			lobby.Shown.LobbyPending = false
			if err := b.saveTable(b.life, r.i.ChannelID, lobby); err != nil {
				r.log.Warn().Err(err).Msg("play again: record the lobby shown")
			}
		}
	}
	b.refresh.kick(b, r.i.ChannelID)
}

// againLobby is the lobby that Play again opened (its host asked): it
// says so and pings the others seated.
func againLobby(lobby *Table) *discordgo.InteractionResponseData {
	l := LangFor(lobby.Lang)
	data := lobbyMessage(lobby, l)
	data.Content = l.T(msg.LobbyAgainby, "<@"+lobby.Host+">")
	var ping []string
	for _, s := range lobby.Seats {
		if s.Computer == "" && s.UserID != lobby.Host {
			ping = append(ping, s.UserID)
		}
	}
	if len(ping) > 0 {
		data.Content += " " + l.T(msg.LobbySeated, mentions(ping))
	}
	data.AllowedMentions = &discordgo.MessageAllowedMentions{Users: ping}
	return data
}

// mentions is the users' mentions, separated by spaces.
func mentions(users []string) string {
	out := make([]string, len(users))
	for i, u := range users {
		out[i] = "<@" + u + ">"
	}
	return strings.Join(out, " ")
}
