package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

func TestReplayJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"replay", "../../game/testdata/records/dice-short.json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var s game.Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("output is not a summary: %v\n%s", err, out.String())
	}
	if s.Players[0].Score != 7 || s.Players[1].Score != -3 || s.Players[1].Misthrows != 1 {
		t.Fatalf("scores %+v", s.Players)
	}
	if got := s.Players[0].Rows["red"].Crossed; len(got) != 2 || got[0] != 7 || got[1] != 11 {
		t.Fatalf("Anna's red row %v, want [7 11]", got)
	}
}

func TestReplayText(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"replay", "../../game/testdata/records/dice-short.json", "--format", "text"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"Anna: 7 points", "Ben: -3 points", "red     7 11", "leading: Anna"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestReplayIllegalStep(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"replay", "../../game/testdata/records/dice-illegal.json"}, &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, want := range []string{"step 3", "turn 1", "Anna", "red 4 is left of your last red cross (5)"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr %q lacks %q", errb.String(), want)
		}
	}
}

func TestReplayBadUsage(t *testing.T) {
	for _, args := range [][]string{{"replay"}, {"replay", "x.json", "--format", "xml"}, {"replay", "/nonexistent.json"}, {"bogus"}} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if errb.Len() == 0 {
			t.Errorf("%v: no message", args)
		}
	}
}
