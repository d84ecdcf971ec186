package bot

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/view"

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
func (b *Bot) reviewClick(r *request, a customid.Action) {
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
	k := records{b.opt.History}
	if _, ok := k.history(); !ok {
		r.ephemeral(r.lang.T(msg.ReviewGone))
		return
	}
	gr, found, err := k.findRecord(r, key)
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
func (b *Bot) reviewPrivate(r *request, a customid.Action) {
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
	spawn(func() {
		a, err := b.reviewAnswer(r, key, g, seat)
		done <- result{a, err}
	})
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
		a := reviewAnswer{text: view.ReviewText(r.lang, rv)}
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
	return view.ReviewText(l, rv), png, nil
}
