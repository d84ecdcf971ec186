#!/usr/bin/env python3
"""Builds the fallback fonts in this folder from Debian's font packages.

The Go fonts (drawn first) cover Latin-1, Latin Extended-A, Greek and basic
Cyrillic. These files add, in the order render tries them: Noto Sans (more
Latin, Vietnamese, IPA, combining marks, Greek and Cyrillic extensions) and
the Noto Sans fonts of other scripts, Droid Sans Fallback (Han, kana,
Hangul), Symbola (symbols and monochrome emoji) and GNU Unifont (the rest of
the Basic Multilingual Plane and more emoji, as a last resort). Each file
keeps only the characters no earlier font has, without hinting; the fonts
of the scripts in SHAPED keep their layout tables (GSUB, GPOS, GDEF), which render's HarfBuzz
shaping needs (Indic reordering and conjuncts, Arabic joining, mark
positioning), the others have none.

Run from an empty folder with fontTools on PYTHONPATH (Debian's
python3-fonttools works unpacked: apt-get download python3-fonttools
fonts-noto-core fonts-droid-fallback fonts-symbola fonts-unifont, then
dpkg-deb -x each into x/):

    PYTHONPATH=x/usr/lib/python3/dist-packages python3 subset.py x OUT GOFONTS
    for f in OUT/*; do gzip -9nc $f > $(basename $f).gz; done

where GOFONTS is golang.org/x/image/font/gofont/ttfs in the module cache.
The output is the same each time (no timestamps). Then run pages.py.
"""
import os
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

src, out = sys.argv[1], sys.argv[2]
noto = src + "/usr/share/fonts/truetype/noto/"
gofonts = sys.argv[3] if len(sys.argv) > 3 else None

SCRIPTS = ["Arabic", "Hebrew", "Devanagari", "Bengali", "Gurmukhi", "Gujarati",
           "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Thai", "Lao",
           "Khmer", "Myanmar", "Georgian", "Armenian", "Ethiopic"]

# The scripts whose fonts keep their layout tables: the ones that need
# shaping. Latin, Georgian, Armenian and Ethiopic draw right without it
# (their tables are kerning and would add 0.3 MB).
SHAPED = ["Arabic", "Hebrew", "Devanagari", "Bengali", "Gurmukhi", "Gujarati",
          "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Thai", "Lao",
          "Khmer", "Myanmar"]

# Each chain: (output name, source file). Regular and bold chains share
# the CJK, symbol and Unifont files.
def chain(weight):
    c = [("NotoSans-" + weight, noto + "NotoSans-" + weight + ".ttf")]
    for s in SCRIPTS:
        c.append(("NotoSans" + s + "-" + weight, noto + "NotoSans" + s + "-" + weight + ".ttf"))
    return c

shared = [
    ("DroidSansFallback", src + "/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf"),
    ("Symbola", src + "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),
    ("Unifont", src + "/usr/share/fonts/opentype/unifont/unifont.otf"),
    ("UnifontUpper", src + "/usr/share/fonts/opentype/unifont/unifont_upper.otf"),
]

def cmap(path):
    return set(TTFont(path, lazy=True).getBestCmap().keys())

def skip(name, cp):
    # Private use, controls and the emoji modifiers and tags render drops;
    # mathematical letters, which render folds to plain ones (NFKC); from
    # Symbola only its symbols and emoji.
    if (cp < 0x20 or 0x7F <= cp < 0xA0 or 0xE000 <= cp <= 0xF8FF
            or cp >= 0xF0000 or 0x1F3FB <= cp <= 0x1F3FF or 0xE0000 <= cp <= 0xE007F
            or 0x1D400 <= cp <= 0x1D7FF):
        return True
    if name == "Symbola":
        return not (0x2000 <= cp <= 0x2BFF or 0x1F000 <= cp <= 0x1FAFF)
    return False

def build(weight, covered):
    for name, path in chain(weight) + shared:
        dst = os.path.join(out, name + ".ttf" if not name.startswith("Unifont") else name + ".otf")
        if os.path.exists(dst):
            covered |= cmap(dst)
            continue
        want = sorted(cp for cp in cmap(path) if cp not in covered and not skip(name, cp))
        if not want:
            continue
        opts = subset.Options()
        opts.hinting = False
        opts.drop_tables += ["vhea", "vmtx", "DSIG", "gasp", "BASE", "JSTF", "MATH", "meta"]
        if any(name.startswith("NotoSans" + s + "-") for s in SHAPED):
            # Keep the layout tables (GSUB, GPOS, GDEF) and every feature:
            # render shapes these scripts with HarfBuzz (Indic reordering
            # and conjuncts, Arabic joining, mark positioning).
            opts.layout_features = ["*"]
            opts.layout_scripts = ["*"]
        else:
            opts.layout_features = []
            opts.drop_tables += ["GSUB", "GPOS", "GDEF"]
        opts.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
        opts.notdef_outline = True
        opts.prune_unicode_ranges = False
        opts.glyph_names = False
        f = TTFont(path, recalcTimestamp=False)
        s = subset.Subsetter(opts)
        s.populate(unicodes=want)
        s.subset(f)
        f.save(dst)
        covered |= set(want)
        print(name, len(want), os.path.getsize(dst))

go = {"Regular": "Go-Regular.ttf", "Bold": "Go-Bold.ttf"}
for w in ["Bold", "Regular"]:
    build(w, cmap(os.path.join(gofonts, go[w])))
