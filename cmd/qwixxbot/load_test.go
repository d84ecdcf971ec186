package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/load"
)

// The load harness runs the real bot binary against the fake Discord and
// measures it: a short flat-out run of dice and card games. Its figures
// must describe what happened: clicks answered with latencies, moves made,
// REST requests split by route, counted ones among them, and the bot
// process's counters read through its debug server.
func TestLoadHarnessMeasuresTheBot(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	var out, errs bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code := runLoad(ctx, []string{"--bot", bin, "--games", "4", "--pace", "0", "--warmup", "1s", "--duration", "5s",
		"--sample", "1s", "--format", "json"}, &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var rep load.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	// A few clicks suffice to check the figures; the suite's other tests
	// run beside this one (with the race detector, a flat-out run here
	// has made as few as 7 clicks in 4 s), so the count is no speed check.
	if rep.Clicks < 5 || rep.Failed != 0 || rep.Moves == 0 || rep.Moves > rep.Clicks {
		var routes strings.Builder
		rep.Write(&routes)
		t.Fatalf("4 games flat out for 5 s: %d clicks, %d failed, %d moves; problems %v\n%s", rep.Clicks, rep.Failed, rep.Moves, rep.Problems, routes.String())
	}
	// A game goes wrong only when the bot does (its last game's results
	// are not taken for the end of the next).
	if rep.Restarted != 0 || len(rep.Problems) != 0 {
		t.Errorf("%d games restarted after a problem: %v", rep.Restarted, rep.Problems)
	}
	if !(rep.P50 > 0 && rep.P50 <= rep.P95 && rep.P95 <= rep.P99 && rep.P99 <= rep.Max && rep.Max < 3000) {
		t.Errorf("latencies p50 %v p95 %v p99 %v max %v ms", rep.P50, rep.P95, rep.P99, rep.Max)
	}
	callbacks := int64(0)
	for _, r := range rep.Routes {
		if strings.HasSuffix(r.Route, "/callback") {
			callbacks = r.Requests
			if !r.Exempt {
				t.Error("interaction callbacks counted against the global limit")
			}
		}
	}
	// Every click is answered by one callback (some are in flight at
	// either end of the measuring time).
	if d := callbacks - int64(rep.Clicks); d < -int64(rep.Clicks)/20-8 || d > int64(rep.Clicks)/20+8 {
		t.Errorf("%d callbacks for %d clicks", callbacks, rep.Clicks)
	}
	// Issue 25: a turn's message and its edits go through the clicks'
	// tokens; what the global limit counts is what no click carries (at
	// most 0.03 per click).
	if rep.RequestsPerClick < 1 || rep.CountedPerClick < 0 || rep.CountedPerClick > 0.03 || rep.KiBPerClick <= 0 {
		t.Errorf("per click: %.2f requests, %.2f counted, %.1f KiB", rep.RequestsPerClick, rep.CountedPerClick, rep.KiBPerClick)
	}
	if rep.StoreCommitsPerClk <= 0 || rep.DrawnPerClick <= 0 || rep.BotHeap <= 0 || rep.BotRSS <= 0 || rep.Goroutines <= 0 {
		t.Errorf("the bot's own figures: commits %.2f, drawn %.2f per click, heap %.1f MiB, RSS %.1f MiB, %d goroutines",
			rep.StoreCommitsPerClk, rep.DrawnPerClick, rep.BotHeap, rep.BotRSS, rep.Goroutines)
	}
	// The bot's own /metrics count what the harness counted, but for the
	// interactions and requests in flight at either end of the window
	// (a few per game).
	near := func(what string, got float64, want int64) {
		t.Helper()
		slack := max(0.01*float64(want), 3*float64(rep.Games))
		if d := got - float64(want); d < -slack || d > slack {
			t.Errorf("/metrics: %.0f %s, the harness counted %d", got, what, want)
		}
	}
	near("interaction answers", rep.MetricAnswers, int64(rep.Clicks+rep.Failed))
	near("REST requests", rep.MetricRequests, rep.Requests)
	if rep.MetricAnswers <= 0 || rep.MetricRequests < rep.MetricAnswers || rep.MetricLimited != float64(rep.Limited) {
		t.Errorf("/metrics: %.0f answers, %.0f requests, %.0f 429s (harness %d)", rep.MetricAnswers, rep.MetricRequests, rep.MetricLimited, rep.Limited)
	}
	if len(rep.Samples) < 2 || rep.BotErrors != 0 {
		t.Errorf("%d samples, %d error lines in the bot's log", len(rep.Samples), rep.BotErrors)
	}
}

// With --ingress http the fake POSTs every click, signed, to the bot's
// interactions endpoint and takes the HTTP responses as the answers: the
// clicks are answered in time, the answers are no REST requests of the
// bot's (its /metrics agree), and the bot's CPU a click is reported.
func TestLoadHarnessHTTPIngress(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	var out, errs bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code := runLoad(ctx, []string{"--bot", bin, "--games", "4", "--pace", "0", "--warmup", "1s", "--duration", "4s",
		"--ingress", "http", "--format", "json"}, &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var rep load.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if rep.Ingress != "http" || rep.Clicks < 5 || rep.Failed != 0 || rep.Restarted != 0 || rep.BotCPUPerClick <= 0 {
		var w strings.Builder
		rep.Write(&w)
		t.Fatalf("4 games flat out through the endpoint: %s", w.String())
	}
	callbacks := int64(0)
	for _, r := range rep.Routes {
		if strings.HasSuffix(r.Route, "/callback") {
			callbacks = r.Requests
		}
	}
	if d := callbacks - int64(rep.Clicks); d < -int64(rep.Clicks)/20-8 || d > int64(rep.Clicks)/20+8 {
		t.Errorf("%d answers taken from the endpoint for %d clicks", callbacks, rep.Clicks)
	}
	slack := max(0.01*float64(rep.Requests), 3*float64(rep.Games))
	if d := rep.MetricRequests - float64(rep.Requests); d < -slack || d > slack {
		t.Errorf("/metrics: %.0f REST requests, the harness counted %d (answers excluded)", rep.MetricRequests, rep.Requests)
	}
	if rep.BotErrors != 0 {
		t.Errorf("%d error lines in the bot's log", rep.BotErrors)
	}
}

// Bad flags are refused with a reason, before anything starts.
func TestLoadHarnessFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--games", "0"}, {"--players", "6"}, {"--variants", "chess"}, {"--pace", "3s-1s"}, {"--format", "xml"}, {"extra"}, {"--ingress", "carrier-pigeon"},
	} {
		var out, errs bytes.Buffer
		if code := runLoad(context.Background(), args, &out, &errs); code != 2 || errs.Len() == 0 {
			t.Errorf("%v: exit %d, %q", args, code, errs.String())
		}
	}
}
