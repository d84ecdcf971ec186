package game

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// RULES.md in this directory is the rule set the tests cite by id (S3, D7,
// C6, P1 …). These tests keep it and the repository in step: every id cited
// anywhere must be a rule there, and every rule there must be cited by a test.

var (
	// ruleHeading is how RULES.md defines a rule: "### D7. Locking …".
	ruleHeading = regexp.MustCompile(`^### ([SDCP])([0-9]+)\. \S`)
	// ruleRef is a rule id where it stands as a word: "(D7)", "RULES C10",
	// "C4–C7". Card names (R5, J9) use other letters.
	ruleRef = regexp.MustCompile(`\b[SDCP][0-9]+\b`)
	// testNameIDs is the run of ids a test's name starts with:
	// TestD10P3SharedWin cites D10 and P3.
	testNameIDs = regexp.MustCompile(`^(?:Test|Fuzz|Benchmark)((?:[SDCP][0-9]+)+)`)
	ruleIDs     = regexp.MustCompile(`[SDCP][0-9]+`)
	// notRules are words of the same shape that name something else.
	notRules = map[string]bool{
		"D65": true, // the CIE standard illuminant (daylight white point)
	}
)

// citation is one place that names a rule id.
type citation struct {
	id    string
	where string // file:line
	test  bool   // in a _test.go file
}

// rulesDoc reads RULES.md: the ids it defines (with their line) in order,
// and the ids its text mentions outside the headings.
func rulesDoc(t *testing.T) (defined []string, lines map[string]int, mentions []citation) {
	t.Helper()
	f, err := os.Open("RULES.md")
	if err != nil {
		t.Fatalf("the rules document: %v", err)
	}
	defer f.Close()
	lines = map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := ruleHeading.FindStringSubmatch(line); m != nil {
			id := m[1] + m[2]
			if prev, ok := lines[id]; ok {
				t.Errorf("RULES.md:%d defines %s again (first at line %d)", n, id, prev)
				continue
			}
			defined = append(defined, id)
			lines[id] = n
			continue
		}
		if strings.HasPrefix(line, "#") && ruleRef.MatchString(line) {
			t.Errorf("RULES.md:%d: %q names a rule id but is not a rule heading (### X1. Title)", n, line)
		}
		for _, id := range ruleRef.FindAllString(line, -1) {
			mentions = append(mentions, citation{id: id, where: fmt.Sprintf("RULES.md:%d", n)})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading RULES.md: %v", err)
	}
	return defined, lines, mentions
}

// TestRulesDocDefinesEachRuleOnce checks the document's own shape: each
// group (S, D, C, P) is numbered 1, 2, 3 … in order without gaps, and every
// id the text refers to ("see D7") is a rule of the document.
func TestRulesDocDefinesEachRuleOnce(t *testing.T) {
	defined, lines, mentions := rulesDoc(t)
	next := map[byte]int{}
	for _, id := range defined {
		n, _ := strconv.Atoi(id[1:])
		if want := next[id[0]] + 1; n != want {
			t.Errorf("RULES.md:%d: %s where %c%d comes next", lines[id], id, id[0], want)
		}
		next[id[0]] = n
	}
	for _, g := range "SDCP" {
		if next[byte(g)] == 0 {
			t.Errorf("RULES.md defines no %c rule", g)
		}
	}
	for _, m := range mentions {
		if _, ok := lines[m.id]; !ok {
			t.Errorf("%s refers to %s, which it does not define", m.where, m.id)
		}
	}
}

// TestRulesDocCoversCitedRules reads every Go file and Markdown document of
// the module: each rule id in a test's name, a comment, a string (test case
// names, failure messages) or a document must be a rule in RULES.md, and
// each rule in RULES.md must be cited by at least one test.
func TestRulesDocCoversCitedRules(t *testing.T) {
	_, lines, _ := rulesDoc(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root: %v", err)
	}
	self, err := filepath.Abs("RULES.md")
	if err != nil {
		t.Fatal(err)
	}
	var cites []citation
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case strings.HasSuffix(path, ".go"):
			c, err := goCitations(path, rel)
			if err != nil {
				return err
			}
			cites = append(cites, c...)
		case strings.HasSuffix(path, ".md") && path != self:
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(b), "\n") {
				for _, id := range ruleRef.FindAllString(line, -1) {
					if notRules[id] {
						continue
					}
					cites = append(cites, citation{id: id, where: fmt.Sprintf("%s:%d", rel, i+1)})
				}
			}
		default:
			return nil
		}
		files++
		return nil
	})
	if err != nil {
		t.Fatalf("reading the module: %v", err)
	}

	tested := map[string]bool{}
	unknown := map[string][]string{}
	for _, c := range cites {
		if _, ok := lines[c.id]; !ok {
			unknown[c.id] = append(unknown[c.id], c.where)
		}
		if c.test {
			tested[c.id] = true
		}
	}
	ids := make([]string, 0, len(unknown))
	for id := range unknown {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		where := unknown[id]
		if len(where) > 5 {
			where = append(where[:5:5], fmt.Sprintf("and %d more", len(where)-5))
		}
		t.Errorf("%s is cited but is no rule in game/RULES.md: %s", id, strings.Join(where, ", "))
	}
	for id, n := range lines {
		if !tested[id] {
			t.Errorf("RULES.md:%d: no test cites %s (in its name, a comment or a case name)", n, id)
		}
	}
	t.Logf("%d files, %d citations of %d rules", files, len(cites), len(lines))
}

// goCitations lists the rule ids a Go file cites: in the names of its tests,
// fuzz tests and benchmarks, in its comments and in its string literals.
// Other identifiers do not count: a field named after a percentile is no
// rule.
func goCitations(path, rel string) ([]citation, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", rel, err)
	}
	test := strings.HasSuffix(path, "_test.go")
	var out []citation
	add := func(pos token.Pos, ids []string) {
		where := fmt.Sprintf("%s:%d", rel, fset.Position(pos).Line)
		for _, id := range ids {
			if notRules[id] {
				continue
			}
			out = append(out, citation{id: id, where: where, test: test})
		}
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			add(c.Pos(), ruleRef.FindAllString(c.Text, -1))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if m := testNameIDs.FindStringSubmatch(n.Name.Name); m != nil && n.Recv == nil {
				add(n.Pos(), ruleIDs.FindAllString(m[1], -1))
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				add(n.Pos(), ruleRef.FindAllString(n.Value, -1))
			}
		}
		return true
	})
	return out, nil
}
