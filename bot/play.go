package bot

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
)

// playClick handles a move clicked in a running game: on the table, in a
// sheet or hand view, or in a private game's view (routes.go, bot/customid).
func (b *Bot) playClick(r *request, a customid.Action) {
	var (
		chosen string
		was    string // the choice it replaced (P4), if any
		moved  bool
		after  *Table
		seat   int
		live   *liveUpdate
	)
	private := a.View == customid.ViewSolo || a.View == customid.ViewDaily
	// The table saved is only read afterwards, to answer (after).
	unlock, err := r.withTableRead(func(t *Table) (*Table, error) {
		var err error
		if seat, err = r.click(a).Move(t, private); errors.Is(err, session.ErrPrivateStale) {
			// An outdated view of the player's own game (a second click
			// before the first one's answer came): shown as it is now.
			b.answerPrivateAs(r, t, view.Refusal(r.lang, t, err), "", true)
			return nil, errRefused
		} else if err != nil {
			return nil, r.refuse(t, err)
		}
		m, label, err := moveFromAction(t.Game, seat, a, r.lang)
		if err != nil {
			r.ephemeral(r.lang.T(msg.ErrForged))
			return nil, errRefused
		}
		if prev, ok := t.Game.Decision(seat); ok {
			was = view.MoveLabel(t.Game, prev, r.lang)
		}
		if err := b.apply(t, m); err != nil {
			// A choice on the table that is not one of the clicker's: the
			// reason, and their own choices to click right there.
			r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: view.MoveRefused(t, seat, r.lang, err, a.View == customid.ViewTable)})
			return nil, errRefused
		}
		chosen, moved, after = label, true, t
		if b.opt.LiveAnswers && a.View == customid.ViewTable && r.i.Message != nil && r.i.Message.ID == t.Shown.Msg && !b.updateMayOvertake(r) {
			live = b.liveAnswer(t)
		}
		return t, nil
	})
	defer unlock()
	if r.failed(err) {
		return
	}
	if moved {
		stillOpen := after.Stamp() == a.Stamp // the action has not resolved
		text := view.MoveDone(r.lang, chosen, was, stillOpen && after.Game.Phase().Simultaneous())
		switch a.View {
		case customid.ViewSolo, customid.ViewDaily:
			// A private game's one view follows it: the next dice, or the end.
			b.answerPrivateAs(r, after, "✅ "+text, "", true)
			return
		case customid.ViewHand:
			// The hand view follows the game: the new cards, what comes next.
			b.answerHand(r, after, seat, session.PlaySel{}, "✅ "+text, true)
		case customid.ViewSheet:
			// While the action is open the view keeps its buttons, the
			// choice made in green, to change it (P4).
			r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
				Data: view.SheetAfterMove(after, seat, r.lang, text, stillOpen)})
		default:
			switch {
			case live == nil:
				r.ephemeral(text)
			case r.respond(live.response()) != nil:
				b.force.Store(r.i.ChannelID, true) // the reconciler edits instead
			case !live.shrink:
				b.noteAnswerView(r, live.content, nil, live.comps)
				// Later edits of this message can go through this click.
				b.liveTokens.Store(r.i.Message.ID, liveToken{msg: r.i.Message.ID, it: tokenOnly(r.i), at: r.at})
			default:
				// Shrunk to its log line by the answer: a past turn's
				// message, which nothing edits again.
				b.liveTokens.Delete(r.i.Message.ID)
			}
		}
		if live != nil && !live.shrink {
			// The reconciler's next look at the table finds this view.
			b.noteAnsweredLive(r.tableKey(), after, live.w)
		}
		b.refresh.kick(b, r.i.ChannelID)
	}
}

// moveFromAction turns a clicked action into a move for seat, with a label
// for the confirmation ("" for a pass).
func moveFromAction(g *game.Game, seat int, a customid.Action, l Lang) (game.Move, string, error) {
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
			return game.NumberMove(seat, c), l.T(msg.BtnRow, view.ColorName(l, c), n), nil
		}
		return game.WhiteMove(seat, c), l.T(msg.BtnRow, view.ColorName(l, c), n), nil
	case "color":
		w, col, ok := strings.Cut(a.Arg, ".")
		c, err := game.ParseColor(col)
		wi, err2 := strconv.Atoi(w)
		if !ok || err != nil || err2 != nil || (wi != 1 && wi != 2) {
			return game.Move{}, "", customid.ErrForged
		}
		d := g.Dice()
		return game.ColoredMove(seat, wi, c), l.T(msg.BtnRow, view.ColorName(l, c), d[wi-1]+d[game.DieOf(c)]), nil
	case "take":
		var nums []int
		for _, f := range strings.Split(a.Arg, "-") {
			n, err := strconv.Atoi(f)
			if err != nil || n < 2 || n > 12 {
				return game.Move{}, "", customid.ErrForged
			}
			nums = append(nums, n)
		}
		if len(nums) > 3 {
			return game.Move{}, "", customid.ErrForged
		}
		return game.TakeMove(seat, nums...), view.TakeLabel(l, nums), nil
	case "play":
		p, err := session.DecodePlay(a.Arg)
		if err != nil {
			return game.Move{}, "", err
		}
		m, err := p.Move(seat)
		return m, view.PlayLabel(l, p, true), err
	}
	return game.Move{}, "", customid.ErrForged
}

// apply plays move m on the table's game (session.Table.Apply: the seats
// nobody decides for, the news, the timer, the end of the game) and logs
// what could not be recorded.
func (b *Bot) apply(t *Table, m game.Move) error {
	err := t.Apply(m, b.timing(t))
	logProblems(b.log, t)
	return err
}

// timing is the clock and the timer settings of t's server.
func (b *Bot) timing(t *Table) session.Timing {
	return session.Timing{Now: b.opt.Now(), Timeout: func() time.Duration { return b.turnTimeout(b.life, t.GuildID) }, ReminderLead: b.opt.ReminderBefore}
}

// logProblems logs (and forgets) what went wrong in t without stopping a
// change.
func logProblems(log zerolog.Logger, t *Table) {
	for _, err := range t.Problems {
		log.Error().Err(err).Str("table", t.ID).Msg("table problem")
	}
	t.Problems = nil
}

// refreshChannel shows the channel's table as it is now in the channel's
// messages (reconcile). It runs in the channel's refresher goroutine, never
// under the channel lock while it talks to Discord; the open hand views
// have workers of their own (refresher.kick).
func (b *Bot) refreshChannel(channelID string) {
	b.reconcile(b.log, channelID)
}

// resultsMessage shows the final sheets, the ranking (ties share), the
// match totals and a button to play again (view.Results), with the
// pictures of the sheets and the score chart.
func (b *Bot) resultsMessage(log zerolog.Logger, t *Table, headline string) *discordgo.InteractionResponseData {
	l := LangFor(t.Lang)
	g := t.Game
	_, kept := b.history()
	data := view.Results(t, l, headline, kept)
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
	return data
}

// playAgain starts the next game of the match, or a new match, with the
// same players.
func (b *Bot) playAgain(r *request, a customid.Action) {
	var lobby *Table
	var match bool
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		if err := r.click(a).Again(t); err != nil {
			return nil, r.refuse(t, err)
		}
		again, err := t.PlayAgain(r.userID)
		if err != nil {
			return nil, r.refuse(t, err)
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
			if ra, err := customid.Decode(id); err == nil && ra.Table == a.Table {
				switch ra.Verb {
				case "record":
					record = id
				case "review":
					review = id
				}
			}
		}
		keep := view.KeptResultsButtons(r.glang, record, review)
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Components: keep}})
	} else {
		r.log.Info().Str("table", lobby.ID).Int("seats", len(lobby.Seats)).Msg("play again: lobby")
		if r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: view.AgainLobby(lobby)}) == nil {
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
