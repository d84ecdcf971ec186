package ai

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

// DailyEpoch is the UTC day of daily challenge #1.
var DailyEpoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// DailySeed is the seed of the daily challenge's solo dice game on the UTC
// day of t: HMAC-SHA256(secret, "qwixx-daily:" + YYYY-MM-DD). Every player
// on every server with the same secret gets the same dice that day.
//
// Tomorrow's dice cannot be computed from what players see today: they see
// dice, scores and the day's number, all functions of today's seed; HMAC
// with a secret key is a pseudo-random function, so without the key one
// day's output says nothing about another day's, and the key cannot be
// recovered from outputs. (An unkeyed hash of the date, or a seed counted
// up from yesterday's, would let anyone roll tomorrow's game tonight.) The
// secret must therefore be long and random (32 bytes from crypto/rand) and
// kept like a token; a changed secret changes every later day's dice.
func DailySeed(secret []byte, t time.Time) [32]byte {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("qwixx-daily:" + t.UTC().Format(time.DateOnly)))
	var seed [32]byte
	copy(seed[:], mac.Sum(nil))
	return seed
}

// DailyNumber is the number of the daily challenge on the UTC day of t
// ("Qwixx daily #123"): 1 on DailyEpoch, counting up by one a day; days
// before the epoch give numbers below 1.
func DailyNumber(t time.Time) int {
	u := t.UTC()
	day := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	return int(day.Sub(DailyEpoch).Hours()/24) + 1
}

// DailyGame starts the solo dice game of seed for the named player. The
// dice depend on the seed only, not on the name.
func DailyGame(seed [32]byte, player string) (*game.Game, error) {
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{player}, Seed: seed})
	if err != nil {
		return nil, fmt.Errorf("daily game: %w", err)
	}
	return g, nil
}

// Par is the hard solo player's score on the dice of seed: the daily
// challenge's par, what (near-)optimal play makes of exactly those dice.
// It is deterministic. It also returns the game, whose Record shows how.
func Par(seed [32]byte) (int, *game.Game, error) {
	g, err := DailyGame(seed, "par")
	if err != nil {
		return 0, nil, err
	}
	for steps := 0; !g.Over(); steps++ {
		if steps > 10000 {
			return 0, g, fmt.Errorf("par: the game did not end")
		}
		p := g.Waiting()[0]
		m := Choose(Hard, g.Private(p), g.LegalMoves(p))
		if err := g.Apply(m); err != nil {
			return 0, g, fmt.Errorf("par: %w", err)
		}
	}
	return g.Sheet(0).Score(), g, nil
}
