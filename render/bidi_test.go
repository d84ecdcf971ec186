package render

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-text/typesetting/bidi"
)

// Unicode's bidi conformance files (Unicode 17, the version of the bidi
// package's tables) ship in the go-text/typesetting module, whose content
// go.sum pins: the tests read them from the module cache, no network.
var (
	bidiDirOnce sync.Once
	bidiDir     string
	bidiDirErr  error
)

func bidiTestFile(t testing.TB, name string) string {
	t.Helper()
	bidiDirOnce.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/go-text/typesetting").Output()
		if err != nil {
			bidiDirErr = err
			return
		}
		bidiDir = filepath.Join(strings.TrimSpace(string(out)), "bidi", "test")
	})
	if bidiDirErr != nil {
		t.Fatalf("locate go-text/typesetting in the module cache: %v", bidiDirErr)
	}
	return filepath.Join(bidiDir, name)
}

// A bidiCase is one line of a conformance file (one paragraph direction).
type bidiCase struct {
	line   int
	rs     []rune
	dir    bidi.Direction
	levels []int8 // -1 for x (removed by rule X9)
	order  []int
}

func parseLevelList(s string) []int8 {
	var out []int8
	for _, f := range strings.Fields(s) {
		if f == "x" {
			out = append(out, -1)
			continue
		}
		n, _ := strconv.Atoi(f)
		out = append(out, int8(n))
	}
	return out
}

func parseIntList(s string) []int {
	var out []int
	for _, f := range strings.Fields(s) {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

func readLines(t *testing.T, name string, each func(n int, line string)) {
	t.Helper()
	f, err := os.Open(bidiTestFile(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if l := sc.Text(); l != "" && l[0] != '#' {
			each(n, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// bidiClassChar is a character of each bidi class, for BidiTest.txt.
var bidiClassChar = map[string]rune{"L": 'a', "R": 0x05D0, "AL": 0x0627, "EN": '1', "ES": '+', "ET": '$',
	"AN": 0x0660, "CS": ',', "NSM": 0x0300, "BN": 0x00AD, "B": 0x2029, "S": '\t', "WS": ' ', "ON": '!',
	"LRE": 0x202A, "LRO": 0x202D, "RLE": 0x202B, "RLO": 0x202E, "PDF": 0x202C,
	"LRI": 0x2066, "RLI": 0x2067, "FSI": 0x2068, "PDI": 0x2069}

func bidiTestCases(t *testing.T) []bidiCase {
	var out []bidiCase
	var levels []int8
	var order []int
	readLines(t, "BidiTest.txt", func(n int, l string) {
		switch {
		case strings.HasPrefix(l, "@Levels:"):
			levels = parseLevelList(l[len("@Levels:"):])
			return
		case strings.HasPrefix(l, "@Reorder:"):
			order = parseIntList(l[len("@Reorder:"):])
			return
		case l[0] == '@':
			return
		}
		classes, bits, _ := strings.Cut(l, ";")
		var rs []rune
		for _, c := range strings.Fields(classes) {
			r, ok := bidiClassChar[c]
			if !ok {
				t.Fatalf("BidiTest.txt:%d: class %q", n, c)
			}
			rs = append(rs, r)
		}
		set, _ := strconv.Atoi(strings.TrimSpace(bits))
		for _, d := range []struct {
			bit int
			dir bidi.Direction
		}{{1, bidi.Neutral}, {2, bidi.LeftToRight}, {4, bidi.RightToLeft}} {
			if set&d.bit != 0 {
				out = append(out, bidiCase{n, rs, d.dir, levels, order})
			}
		}
	})
	return out
}

func bidiCharacterTestCases(t *testing.T) []bidiCase {
	var out []bidiCase
	readLines(t, "BidiCharacterTest.txt", func(n int, l string) {
		f := strings.Split(l, ";")
		if len(f) < 5 {
			t.Fatalf("BidiCharacterTest.txt:%d: %d fields", n, len(f))
		}
		var rs []rune
		for _, h := range strings.Fields(f[0]) {
			c, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				t.Fatalf("BidiCharacterTest.txt:%d: %v", n, err)
			}
			rs = append(rs, rune(c))
		}
		dir := map[string]bidi.Direction{"0": bidi.LeftToRight, "1": bidi.RightToLeft, "2": bidi.Neutral}[f[1]]
		out = append(out, bidiCase{n, rs, dir, parseLevelList(f[3]), parseIntList(f[4])})
	})
	return out
}

// checkBidi runs cases through bidiLevels and visualOrder and returns how
// many pass (levels and order both as the file says), logging the first
// failures.
func checkBidi(t *testing.T, name string, cases []bidiCase) int {
	passed, logged := 0, 0
	for _, c := range cases {
		got := bidiLevels(c.rs, c.dir)
		ok := len(got) == len(c.levels)
		for i := range got {
			if !ok {
				break
			}
			if c.levels[i] < 0 {
				got[i] = -1 // removed: not compared, left out of the order
			} else if got[i] != c.levels[i] {
				ok = false
			}
		}
		if ok && slices.Equal(visualOrder(got), c.order) {
			passed++
		} else if logged < 5 {
			logged++
			t.Errorf("%s:%d %U dir %d: levels %v order %v, want %v %v", name, c.line, c.rs, c.dir, got, visualOrder(got), c.levels, c.order)
		}
	}
	return passed
}

// TestBidiConformance: every line of Unicode's BidiTest.txt (each listed
// paragraph direction) and BidiCharacterTest.txt gets the levels and the
// visual order the file gives. The old hand-written reordering failed 3,832
// of the 45,791 BidiCharacterTest lines it could handle.
func TestBidiConformance(t *testing.T) {
	for _, f := range []struct {
		name  string
		cases func(*testing.T) []bidiCase
		min   int // lines in the Unicode 17 file, so a truncated file fails
	}{{"BidiTest.txt", bidiTestCases, 770000}, {"BidiCharacterTest.txt", bidiCharacterTestCases, 91000}} {
		cases := f.cases(t)
		passed := checkBidi(t, f.name, cases)
		t.Logf("%s: %d of %d passed", f.name, passed, len(cases))
		if len(cases) < f.min {
			t.Errorf("%s: only %d cases", f.name, len(cases))
		}
		if passed != len(cases) {
			t.Errorf("%s: %d of %d cases fail", f.name, len(cases)-passed, len(cases))
		}
	}
}
