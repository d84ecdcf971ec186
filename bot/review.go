package bot

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
	"github.com/qwixxbot/qwixxbot/render"
	"github.com/qwixxbot/qwixxbot/render/lru"
)

// The game review (🔍 Review) tells a player, privately, which of their
// choices in a finished game cost expected points (ai.Review): in a solo
// dice game exactly, from the solo table; at a dice table of 2–5 as an
// estimate; in the card games as an estimate from play-outs over the same
// deals of the unseen cards for every choice, each loss with its standard
// error. Every decision is classed (best, good, inaccuracy, mistake,
// blunder) and the costliest are numbered on the score chart, their rings
// coloured by class. A card game's review takes a moment: the answer is
// deferred when it is not ready within reviewDefer, and reviews are kept
// (reviewCache), so that asking again costs nothing.

// reviewLines is how many mistakes the review lists beyond the three
// costliest (Discord's 2,000 characters bound the rest).
const reviewLines = 12

// reviewDefer is how long after the click the review may take before the
// answer is deferred (Discord fails an interaction answered after 3 s).
const reviewDefer = 1500 * time.Millisecond

// reviewBudget bounds the memory of the kept reviews (reviewCache).
const reviewBudget = 4 << 20

// reviewAnswer is a review worded in one language: the text and the chart.
type reviewAnswer struct {
	text string
	png  []byte
}

// reviewCache keeps the reviews graded (by game and seat) and the answers
// worded (by game, seat and language), least recently used out first; one
// review is graded once however many ask for it at the same time.
type reviewCache struct {
	graded  *lru.Cache[string, ai.GameReview]
	answers *lru.Cache[string, reviewAnswer]
}

// newReviewCache makes an empty reviewCache.
func newReviewCache() *reviewCache {
	return &reviewCache{
		graded:  lru.New[string](reviewBudget, func(rv ai.GameReview) int { return 256 + 160*len(rv.Graded) }),
		answers: lru.New[string](reviewBudget, func(a reviewAnswer) int { return len(a.text) + cap(a.png) }),
	}
}

// reviewClick answers the Review button of a table's results: the review
// of the clicker's own seat in that game, from the table while it still
// holds the game, else from the game's kept record.
func (b *Bot) reviewClick(r *request, a Action) {
	n, _ := strconv.Atoi(a.Arg)
	key := a.Table + "-" + a.Arg
	unlock := b.locks.Lock(r.tableKey())
	t, err := b.loadTable(r.ctx, r.tableKey())
	unlock()
	if err == nil && t != nil && t.ID == a.Table && t.GameNo == n && t.Game != nil && t.Game.Over() && session.SamePlace(t.GuildID, r.i.GuildID, r.i.ChannelID) {
		seat := t.SeatOf(r.userID)
		if seat < 0 {
			r.refuse(t, session.ErrNotInGame)
			return
		}
		b.sendReview(r, key, t.Game, seat)
		return
	}
	h, ok := b.history()
	if !ok {
		r.ephemeral(r.lang.T(msg.ReviewGone))
		return
	}
	gr, found, err := b.findRecord(r, h, key)
	if err != nil && !found {
		r.fail(err)
		return
	}
	if !found || err != nil {
		r.ephemeral(r.lang.T(msg.ReviewGone))
		return
	}
	seat, err := session.ReviewSeat(gr.Users, r.userID)
	if err != nil {
		r.refuse(nil, err)
		return
	}
	rec, err := game.ParseRecord(gr.JSON)
	if err != nil {
		r.ephemeral(r.lang.T(msg.ReviewGone))
		return
	}
	g, err := game.Replay(rec)
	if err != nil {
		r.ephemeral(r.lang.T(msg.ReviewGone))
		return
	}
	b.sendReview(r, key, g, seat)
}

// reviewPrivate answers the Review button of a finished private game.
func (b *Bot) reviewPrivate(r *request, a Action) {
	t, seat, ok := b.seatedTable(r, a.Table)
	if !ok {
		return
	}
	if err := session.ReviewPrivate(t, a.Arg); err != nil {
		r.refuse(t, err)
		return
	}
	b.sendReview(r, a.Table+"-"+a.Arg, t.Game, seat)
}

// sendReview answers privately with the review of seat in the finished
// game g (key names the game: table ID and game number): the summary, the
// costliest choices and the other mistakes, and the score chart with the
// costliest marked. When the answer is not ready within reviewDefer of
// the click, it is deferred ("thinking…", privately) and then edited in.
func (b *Bot) sendReview(r *request, key string, g *game.Game, seat int) {
	type result struct {
		a   reviewAnswer
		err error
	}
	done := make(chan result, 1)
	go func() {
		a, err := b.reviewAnswer(r, key, g, seat)
		done <- result{a, err}
	}()
	wait := b.opt.ReviewDefer
	if wait == 0 {
		wait = reviewDefer
	}
	var timeout <-chan time.Time
	if wait > 0 {
		timer := time.NewTimer(wait - time.Since(r.arrived))
		defer timer.Stop()
		timeout = timer.C
	} else {
		now := make(chan time.Time)
		close(now)
		timeout = now
	}
	select {
	case res := <-done:
		if res.err != nil {
			r.fail(res.err)
			return
		}
		data := &discordgo.InteractionResponseData{Content: res.a.text, Flags: discordgo.MessageFlagsEphemeral}
		if res.a.png != nil {
			data.Files = []*discordgo.File{{Name: "review.png", ContentType: "image/png", Reader: bytes.NewReader(res.a.png)}}
		}
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data})
	case <-timeout:
		if err := r.respond(&discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
		}); err != nil {
			<-done // the review is kept for the next asking
			return
		}
		res := <-done
		text := r.lang.T(msg.ErrInternal)
		var files []*discordgo.File
		if res.err != nil {
			r.log.Error().Err(res.err).Msg("review failed")
		} else {
			text = res.a.text
			if res.a.png != nil {
				files = []*discordgo.File{{Name: "review.png", ContentType: "image/png", Reader: bytes.NewReader(res.a.png)}}
			}
		}
		ctx, cancel := context.WithTimeout(r.ctx, 10*time.Second)
		defer cancel()
		if _, err := b.dc.InteractionResponseEdit(r.i, &discordgo.WebhookEdit{Content: &text, Files: files}, discordgo.WithContext(ctx)); err != nil {
			r.log.Error().Err(withoutURL(err)).Msg("review: editing the deferred answer")
		}
	}
}

// reviewAnswer is the review of seat in g worded in the request's
// language, from the cache or else graded and drawn.
func (b *Bot) reviewAnswer(r *request, key string, g *game.Game, seat int) (reviewAnswer, error) {
	id := key + "/" + strconv.Itoa(seat)
	// The chart shows the players' names, which forget-me may have
	// changed in the kept record since: they are part of the key.
	return b.reviews.answers.GetOrLoad(r.lang.Code()+" "+id+" "+pictureKey(g.Players()), func() (reviewAnswer, error) {
		rv, err := b.reviews.graded.GetOrLoad(id, func() (ai.GameReview, error) {
			start := time.Now()
			rv, err := ai.Review(g.Record(), seat)
			if err == nil {
				r.log.Info().Int("seat", seat).Str("variant", rv.Variant.String()).Float64("lost", rv.Lost).Int("mistakes", len(rv.Mistakes)).Dur("took", time.Since(start)).Msg("game reviewed")
			}
			return rv, err
		})
		if err != nil {
			return reviewAnswer{}, fmt.Errorf("review: %w", err)
		}
		a := reviewAnswer{text: reviewText(r.lang, rv)}
		png, err := b.rd.ReviewChart(g.Public(), g.ScoreSeries(), reviewMoments(rv), r.lang)
		if err != nil {
			r.log.Error().Err(err).Msg("render review chart")
		} else {
			a.png = png
		}
		return a, nil
	})
}

// reviewMoments are the chart's marks of a review: its costliest
// decisions, numbered, coloured by class.
func reviewMoments(rv ai.GameReview) []render.Moment {
	moments := make([]render.Moment, len(rv.Costliest))
	for i, d := range rv.Costliest {
		moments[i] = render.Moment{Turn: d.Turn, Player: rv.Seat, N: i + 1, Class: markClass(d.Class)}
	}
	return moments
}

// markClass is the chart's mark of a class.
func markClass(c ai.Class) render.MarkClass {
	switch c {
	case ai.ClassGood:
		return render.MarkGood
	case ai.ClassInaccuracy:
		return render.MarkInaccuracy
	case ai.ClassMistake:
		return render.MarkMistake
	case ai.ClassBlunder:
		return render.MarkBlunder
	}
	return render.MarkPlain
}

// reviewText words a review: the summary with the count per class, how
// it was graded, the three costliest choices (numbered as on the chart),
// then the other mistakes in game order.
func reviewText(l Lang, rv ai.GameReview) string {
	cards := rv.Variant.CardGame()
	lines := []string{l.T(msg.ReviewTitle)}
	lost := decimal(l, rv.Lost)
	if cards {
		lost += " ± " + decimal(l, rv.LostSE)
	}
	lines = append(lines, l.T(msg.ReviewSummary, percent(rv.Accuracy/100), rv.Decisions, lost))
	lines = append(lines, l.T(msg.ReviewClasses, rv.Classes[ai.ClassBest], rv.Classes[ai.ClassGood], rv.Classes[ai.ClassInaccuracy], rv.Classes[ai.ClassMistake], rv.Classes[ai.ClassBlunder]))
	switch {
	case cards:
		lines = append(lines, l.T(msg.ReviewCards, rv.Deals))
	case rv.Estimate:
		lines = append(lines, l.T(msg.ReviewEstimate))
	default:
		lines = append(lines, l.T(msg.ReviewExact))
	}
	lines = append(lines, l.T(msg.ReviewScale))
	if len(rv.Mistakes) == 0 {
		if cards {
			lines = append(lines, l.T(msg.ReviewNomistake))
		} else {
			lines = append(lines, l.T(msg.ReviewPerfect))
		}
		return joinWithin(lines, 2000)
	}
	lines = append(lines, "", l.T(msg.ReviewCostliest))
	top := map[[2]int]bool{}
	for i, d := range rv.Costliest {
		lines = append(lines, fmt.Sprintf("**%d.** %s", i+1, decisionLine(l, d, cards)))
		top[[2]int{d.Turn, d.Action}] = true
	}
	var rest []string
	for _, d := range rv.Mistakes {
		if !top[[2]int{d.Turn, d.Action}] {
			rest = append(rest, "• "+decisionLine(l, d, cards))
		}
	}
	if len(rest) > 0 {
		lines = append(lines, "", l.T(msg.ReviewOthers, len(rest)))
		if len(rest) > reviewLines {
			rest = append(rest[:reviewLines], l.T(msg.ReviewMore, len(rest)-reviewLines))
		}
		lines = append(lines, rest...)
	}
	return joinWithin(lines, 2000)
}

// reviewClass names a decision's class.
var reviewClass = [...]msg.Key{
	ai.ClassBest: msg.ReviewClassBest, ai.ClassGood: msg.ReviewClassGood, ai.ClassInaccuracy: msg.ReviewClassInaccuracy,
	ai.ClassMistake: msg.ReviewClassMistake, ai.ClassBlunder: msg.ReviewClassBlunder,
}

// decisionLine is one graded decision: the turn and action, the dice or
// the number for everyone, the choice, the best choice, the expected
// points it cost (in a card game with its standard error) and its class.
func decisionLine(l Lang, d ai.Decision, cards bool) string {
	class := l.T(reviewClass[d.Class])
	if cards {
		at := l.T(msg.ReviewAt, d.Turn, d.Action)
		if d.Number > 0 {
			at += " · " + l.T(msg.ReviewNumber, d.Number)
		}
		return l.T(msg.ReviewCardline, at, cardMoveWords(l, d.Number, d.Chosen), cardMoveWords(l, d.Number, d.Best), decimal(l, d.Lost), decimal(l, d.SE), class)
	}
	return l.T(msg.ReviewLine, d.Turn, d.Action, diceWords(d.Dice), reviewMove(l, d.Dice, d.Chosen), reviewMove(l, d.Dice, d.Best), decimal(l, d.Lost)) + " · " + class
}

// cardMoveWords names a card game's move (number is the number for
// everyone of action 2): "take 5 + 9", "Red 7", "play Red 4, Red 6,
// cross 4, 6", "pass".
func cardMoveWords(l Lang, number int, m game.Move) string {
	switch m.Kind {
	case game.Take:
		return l.T(msg.ReviewTake, joinInts(m.TakeNumbers(), " + "))
	case game.Number:
		return l.T(msg.BtnRow, colorName(l, m.Color), number)
	case game.Play:
		var crossed []int
		for n := 2; n <= 12; n++ {
			if m.Cross&(1<<n) != 0 {
				crossed = append(crossed, n)
			}
		}
		played := playedList(l, m.Cards[:m.N], m.Color, true)
		if len(crossed) == 0 {
			return l.T(msg.ReviewPlaynone, played)
		}
		return l.T(msg.ReviewPlay, played, joinInts(crossed, ", "))
	}
	return l.T(msg.BtnPass)
}

// diceWords shows a turn's dice: the two white, then the coloured dice
// still in the game behind their row's square.
func diceWords(d [6]int) string {
	s := fmt.Sprintf("⚪%d ⚪%d", d[0], d[1])
	squares := [...]string{"🟥", "🟨", "🟩", "🟦"}
	for i, sq := range squares {
		if d[2+i] > 0 {
			s += fmt.Sprintf(" %s%d", sq, d[2+i])
		}
	}
	return s
}

// reviewMove names a dice move with the number it crosses: "red 7", or
// "pass".
func reviewMove(l Lang, d [6]int, m game.Move) string {
	switch m.Kind {
	case game.White:
		return l.T(msg.BtnRow, colorName(l, m.Color), d[0]+d[1])
	case game.Colored:
		if m.White >= 1 && m.White <= 2 {
			return l.T(msg.BtnRow, colorName(l, m.Color), d[m.White-1]+d[game.DieOf(m.Color)])
		}
	}
	return l.T(msg.BtnPass)
}

// ReviewOf is the review of seat in the finished game g as 🔍 Review
// answers it in language l: the text and the chart (PNG), drawn by
// Images. The binary's render command writes them (--review).
func ReviewOf(g *game.Game, seat int, l Lang) (text string, png []byte, err error) {
	rv, err := ai.Review(g.Record(), seat)
	if err != nil {
		return "", nil, fmt.Errorf("review: %w", err)
	}
	png, err = Images{}.ReviewChart(g.Public(), g.ScoreSeries(), reviewMoments(rv), l)
	if err != nil {
		return "", nil, fmt.Errorf("review chart: %w", err)
	}
	return reviewText(l, rv), png, nil
}
