package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/game/ai/arena"
)

// The arena prints each computer player's games, win share (shared first
// places as shares), its 95 % interval and mean score; the shares add up
// to 1 and the same seed gives the same figures.
func TestArenaJSON(t *testing.T) {
	play := func() []arena.Result {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"arena", "--variant", "cards", "--players", "medium,easy,easy", "--games", "60", "--seed", "5", "--format", "json"}, &out, &errb)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		var res []arena.Result
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out.String())
		}
		return res
	}
	res := play()
	if len(res) != 3 || res[0].Level != "medium" || res[1].Level != "easy" {
		t.Fatalf("players %+v", res)
	}
	sum := 0.0
	for _, r := range res {
		sum += r.WinShare
		if r.Games != 60 || r.MeanScore <= 0 || r.MeanTurns < 5 || r.WinShareCI95[0] > r.WinShare || r.WinShareCI95[1] < r.WinShare {
			t.Errorf("figures %+v", r)
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("win shares add up to %v", sum)
	}
	if again := play(); again[0] != res[0] {
		t.Errorf("the same seed gave %+v, then %+v", res[0], again[0])
	}
}

func TestArenaTextAndBadUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"arena", "--games", "20"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"dice, 20 games", "win share", "1-hard", "2-medium"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
	for _, args := range [][]string{{"--players", "medium"}, {"--players", "medium,grandmaster"}, {"--variant", "chess"}, {"--games", "0"}, {"--format", "xml"},
		{"--solo", "hard", "--variant", "cards"}, {"--solo", "hard,medium"}, {"--players", "hard,medium,easy,easy,easy,medium"}} {
		errb.Reset()
		if code := run(context.Background(), append([]string{"arena"}, args...), &out, &errb); code != 2 || errb.Len() == 0 {
			t.Errorf("arena %v: exit %d, %q", args, code, errb.String())
		}
	}
}

// --solo plays the solo dice game: one sheet, always active; the hard
// player scores near the published optimum (115.48) even over a few games.
func TestArenaSolo(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"arena", "--solo", "hard", "--games", "200", "--format", "json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var res []arena.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Level != "hard" || res[0].WinShare != 1 || res[0].MeanScore < 105 {
		t.Fatalf("solo figures %+v", res)
	}
}

// --endings lists each player's game-ending choices by their result; the
// baselines (heuristic, hard-v1, ga) play in the arena; at most one
// player's choice (or, at once, several) ends each game.
func TestArenaEndingsAndBaselines(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"arena", "--players", "hard,ga", "--games", "200", "--endings", "--format", "json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var res []arena.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	ended := 0
	for _, r := range res {
		e := r.Endings
		ended += e.Won + e.Lost + e.Tied
	}
	if ended < 50 || ended > 260 || res[1].Level != "ga" {
		t.Fatalf("%d game-ending choices in 200 games: %+v", ended, res)
	}
	out.Reset()
	if code := run(context.Background(), []string{"arena", "--variant", "cards", "--players", "heuristic,hard-v1", "--games", "4", "--endings"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"1-heuristic", "2-hard-v1", "game-ending choices", "lost"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// --swap plays each seed once per seating, so its figures are those of
// the two orders played apart, summed per player.
func TestArenaSwap(t *testing.T) {
	play := func(args ...string) []arena.Result {
		var out, errb bytes.Buffer
		args = append([]string{"arena", "--games", "40", "--seed", "7", "--format", "json"}, args...)
		if code := run(context.Background(), args, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		var res []arena.Result
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	ab, ba := play("--players", "medium,easy"), play("--players", "easy,medium")
	both := play("--players", "medium,easy", "--swap")
	if both[0].Games != 80 || both[0].Level != "medium" || both[1].Level != "easy" {
		t.Fatalf("swapped figures %+v", both)
	}
	for p, q := range []int{1, 0} { // player p of ab is player q of ba
		mean := (ab[p].MeanScore + ba[q].MeanScore) / 2
		share := (ab[p].WinShare + ba[q].WinShare) / 2
		if math.Abs(both[p].MeanScore-mean) > 1e-9 || math.Abs(both[p].WinShare-share) > 1e-9 {
			t.Errorf("player %d: swapped %.3f points, %.3f wins; the two orders %.3f, %.3f", p, both[p].MeanScore, both[p].WinShare, mean, share)
		}
	}
}

// --times lists each player's decision times: the searching hard card
// player takes far longer than easy, and the percentiles are in order.
func TestArenaTimes(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"arena", "--variant", "cards", "--players", "hard,easy", "--games", "2", "--swap", "--times", "--format", "json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var res []arena.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		tm := r.Times
		if tm == nil || tm.Decisions < 4*5 || tm.P50 > tm.P99 || tm.P99 > tm.Max || tm.Mean > tm.Max || tm.Mean <= 0 {
			t.Fatalf("%s: decision times %+v", r.Player, tm)
		}
	}
	if hard, easy := res[0].Times, res[1].Times; hard.Mean < 10*easy.Mean {
		t.Errorf("hard's mean decision %.4f ms, easy's %.4f ms", hard.Mean, easy.Mean)
	}
	if lv := res[0].LevelTimes; lv == nil || *lv != *res[0].Times {
		t.Errorf("the only hard player's times %+v, all hard players' %+v", res[0].Times, lv)
	}
	out.Reset()
	if code := run(context.Background(), []string{"arena", "--players", "easy,medium,easy", "--games", "3", "--times", "--format", "json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if lv := res[0].LevelTimes; lv == nil || lv.Decisions != res[0].Times.Decisions+res[2].Times.Decisions || *res[2].LevelTimes != *lv {
		t.Errorf("the easy players' decisions %+v and %+v, all of them %+v", res[0].Times, res[2].Times, lv)
	}
	out.Reset()
	if code := run(context.Background(), []string{"arena", "--games", "3", "--times", "--players", "medium,medium"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "p99") || !strings.Contains(out.String(), "all  medium") {
		t.Errorf("exit %d, text output:\n%s", code, out.String())
	}
}
