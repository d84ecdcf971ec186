package main

// This file has no build tag, so the ordinary test run keeps the tool and
// the experiments (built only with -tags experiments) compiling, vetted
// and running.

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// qwixxlab builds the tool with the tag experiments, after vetting it and
// game/ai with the tag.
func qwixxlab(t *testing.T) string {
	t.Helper()
	if out, err := exec.Command("go", "vet", "-tags", "experiments", ".", "../../game/ai").CombinedOutput(); err != nil {
		t.Fatalf("go vet -tags experiments: %v\n%s", err, out)
	}
	bin := filepath.Join(t.TempDir(), "qwixxlab")
	if out, err := exec.Command("go", "build", "-tags", "experiments", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags experiments: %v\n%s", err, out)
	}
	return bin
}

// Every experiment runs on one game and prints what its description
// (qwixxlab -list) says it prints; -list names them all; a knob that does
// not exist is refused with the list of knobs.
func TestLabExperimentsPrintWhatTheySay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tool and plays a few games")
	}
	bin := qwixxlab(t)
	list, err := exec.Command(bin, "-list").Output()
	if err != nil {
		t.Fatalf("qwixxlab -list: %v", err)
	}
	want := map[string]string{ // the first words of the first line
		"tune-heur":       "TUNE ",
		"rank-hist":       "cards decisions ",
		"calib-judge":     "CALIB base ",
		"calib-sigma":     "SIG a ",
		"calib-fit":       "FIT beta ",
		"calib-dice":      "CALIBDICE positions ",
		"hazard-dice":     "HAZARD x ",
		"hazard-by-other": "HAZARD locked ",
		"misthrows-dice":  "MIS hard end ",
		"slow-decisions":  "",
		"scaled-duo":      "",
	}
	for name := range want {
		if !strings.Contains(string(list), name+"\n") {
			t.Errorf("qwixxlab -list does not name %s:\n%s", name, list)
		}
	}
	for name, prefix := range want {
		if name == "scaled-duo" { // three and a half minutes
			continue
		}
		out, err := exec.Command(bin, "-n", "1", name).Output()
		if err != nil {
			t.Errorf("qwixxlab -n 1 %s: %v", name, err)
			continue
		}
		first, _, _ := strings.Cut(string(out), "\n")
		if name == "slow-decisions" {
			if !strings.Contains(first, " decisions, p99 ") {
				t.Errorf("%s prints %q first", name, first)
			}
			continue
		}
		if !strings.HasPrefix(first, prefix) {
			t.Errorf("%s prints %q first, want %q…", name, first, prefix)
		}
	}
	out, err := exec.Command(bin, "-set", "nosuchknob=1", "tune-heur").CombinedOutput()
	if err == nil || !strings.Contains(string(out), `no knob "nosuchknob"`) || !strings.Contains(string(out), "heur.rate") {
		t.Errorf("an unknown knob: err %v, output %q", err, out)
	}
	out, err = exec.Command(bin, "scaled-duo").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "give -o") {
		t.Errorf("scaled-duo without -o: err %v, output %q", err, out)
	}
}
