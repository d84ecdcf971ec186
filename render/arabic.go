package render

import "unicode/utf8"

// arabicForms are the presentation forms of the Arabic letters: isolated,
// final, initial, medial; a letter with no initial form joins only to the
// letter before it (to its right).
var arabicForms = map[rune][4]rune{
	0x0621: {0xFE80, 0, 0, 0},
	0x0622: {0xFE81, 0xFE82, 0, 0},
	0x0623: {0xFE83, 0xFE84, 0, 0},
	0x0624: {0xFE85, 0xFE86, 0, 0},
	0x0625: {0xFE87, 0xFE88, 0, 0},
	0x0626: {0xFE89, 0xFE8A, 0xFE8B, 0xFE8C},
	0x0627: {0xFE8D, 0xFE8E, 0, 0},
	0x0628: {0xFE8F, 0xFE90, 0xFE91, 0xFE92},
	0x0629: {0xFE93, 0xFE94, 0, 0},
	0x062A: {0xFE95, 0xFE96, 0xFE97, 0xFE98},
	0x062B: {0xFE99, 0xFE9A, 0xFE9B, 0xFE9C},
	0x062C: {0xFE9D, 0xFE9E, 0xFE9F, 0xFEA0},
	0x062D: {0xFEA1, 0xFEA2, 0xFEA3, 0xFEA4},
	0x062E: {0xFEA5, 0xFEA6, 0xFEA7, 0xFEA8},
	0x062F: {0xFEA9, 0xFEAA, 0, 0},
	0x0630: {0xFEAB, 0xFEAC, 0, 0},
	0x0631: {0xFEAD, 0xFEAE, 0, 0},
	0x0632: {0xFEAF, 0xFEB0, 0, 0},
	0x0633: {0xFEB1, 0xFEB2, 0xFEB3, 0xFEB4},
	0x0634: {0xFEB5, 0xFEB6, 0xFEB7, 0xFEB8},
	0x0635: {0xFEB9, 0xFEBA, 0xFEBB, 0xFEBC},
	0x0636: {0xFEBD, 0xFEBE, 0xFEBF, 0xFEC0},
	0x0637: {0xFEC1, 0xFEC2, 0xFEC3, 0xFEC4},
	0x0638: {0xFEC5, 0xFEC6, 0xFEC7, 0xFEC8},
	0x0639: {0xFEC9, 0xFECA, 0xFECB, 0xFECC},
	0x063A: {0xFECD, 0xFECE, 0xFECF, 0xFED0},
	0x0641: {0xFED1, 0xFED2, 0xFED3, 0xFED4},
	0x0642: {0xFED5, 0xFED6, 0xFED7, 0xFED8},
	0x0643: {0xFED9, 0xFEDA, 0xFEDB, 0xFEDC},
	0x0644: {0xFEDD, 0xFEDE, 0xFEDF, 0xFEE0},
	0x0645: {0xFEE1, 0xFEE2, 0xFEE3, 0xFEE4},
	0x0646: {0xFEE5, 0xFEE6, 0xFEE7, 0xFEE8},
	0x0647: {0xFEE9, 0xFEEA, 0xFEEB, 0xFEEC},
	0x0648: {0xFEED, 0xFEEE, 0, 0},
	0x0649: {0xFEEF, 0xFEF0, 0xFBE8, 0xFBE9},
	0x064A: {0xFEF1, 0xFEF2, 0xFEF3, 0xFEF4},
	0x0671: {0xFB50, 0xFB51, 0, 0},
	0x0679: {0xFB66, 0xFB67, 0xFB68, 0xFB69},
	0x067E: {0xFB56, 0xFB57, 0xFB58, 0xFB59},
	0x0686: {0xFB7A, 0xFB7B, 0xFB7C, 0xFB7D},
	0x0688: {0xFB88, 0xFB89, 0, 0},
	0x0691: {0xFB8C, 0xFB8D, 0, 0},
	0x0698: {0xFB8A, 0xFB8B, 0, 0},
	0x06A9: {0xFB8E, 0xFB8F, 0xFB90, 0xFB91},
	0x06AF: {0xFB92, 0xFB93, 0xFB94, 0xFB95},
	0x06BA: {0xFB9E, 0xFB9F, 0, 0},
	0x06BE: {0xFBAA, 0xFBAB, 0xFBAC, 0xFBAD},
	0x06C1: {0xFBA6, 0xFBA7, 0xFBA8, 0xFBA9},
	0x06CC: {0xFBFC, 0xFBFD, 0xFBFE, 0xFBFF},
	0x06D2: {0xFBAE, 0xFBAF, 0, 0},
}

// lamAlef are the ligatures of lam with the alef after it: isolated, final.
var lamAlef = map[rune][2]rune{
	0x0622: {0xFEF5, 0xFEF6},
	0x0623: {0xFEF7, 0xFEF8},
	0x0625: {0xFEF9, 0xFEFA},
	0x0627: {0xFEFB, 0xFEFC},
}

const (
	tatweel = 0x0640
	lam     = 0x0644
)

// joinsNext reports whether r connects to the letter after it.
func joinsNext(r rune) bool {
	if r == tatweel {
		return true
	}
	f, ok := arabicForms[r]
	return ok && f[2] != 0
}

// joinsPrev reports whether r connects to the letter before it.
func joinsPrev(r rune) bool {
	if r == tatweel {
		return true
	}
	f, ok := arabicForms[r]
	return ok && f[1] != 0
}

// shapeArabic replaces the Arabic letters of s by their contextual
// presentation forms (and lam-alef by its ligature), the simple shaping of
// the Arabic alphabet that the fonts' missing layout tables would do. Marks
// between letters are skipped when looking for neighbours. Forms no face
// can draw keep the plain letter. Presentation forms are not letters of the
// table, so shaping twice changes nothing.
func shapeArabic(s string) string {
	has := false
	for _, r := range s {
		if _, ok := arabicForms[r]; ok {
			has = true
			break
		}
	}
	if !has {
		return s
	}
	rs := []rune(s)
	// neighbour finds the next letter from i in steps of d, past marks.
	neighbour := func(i, d int) rune {
		for i += d; i >= 0 && i < len(rs); i += d {
			if !isMark(rs[i]) {
				return rs[i]
			}
		}
		return 0
	}
	out := make([]rune, 0, len(rs))
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		f, ok := arabicForms[r]
		if !ok {
			out = append(out, r)
			continue
		}
		prev := joinsNext(neighbour(i, -1))
		if r == lam {
			// Lam and a directly following alef make one ligature.
			if j := i + 1; j < len(rs) {
				if lf, ok := lamAlef[rs[j]]; ok {
					form := lf[0]
					if prev {
						form = lf[1]
					}
					if drawable(form) {
						out = append(out, form)
						i = j
						continue
					}
				}
			}
		}
		next := joinsPrev(neighbour(i, +1))
		k := 0 // isolated
		switch {
		case prev && next && f[3] != 0:
			k = 3
		case prev && f[1] != 0:
			k = 1
		case next && f[2] != 0:
			k = 2
		}
		if form := f[k]; form != 0 && drawable(form) {
			r = form
		}
		out = append(out, r)
	}
	return string(out)
}

// hasArabic reports whether s may need shaping.
func hasArabic(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r >= 0x0600 && r <= 0x06FF {
			return true
		}
		i += n
	}
	return false
}
