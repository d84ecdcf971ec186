#!/usr/bin/env python3
"""Writes ../fontpages.go: the 256-character pages each fallback font in
this folder has characters on, so render loads a font only for characters
it may have. Run from render/ after subset.py, with fontTools on PYTHONPATH:

    PYTHONPATH=x/usr/lib/python3/dist-packages python3 fonts/pages.py && gofmt -w fontpages.go
"""
import glob
import gzip
import io
import os

from fontTools.ttLib import TTFont

out = ['// Code generated from the cmaps of fonts/*.gz by fonts/pages.py; DO NOT EDIT.', '', 'package render', '',
       '// fontPages lists, for each fallback font, the 256-character pages its cmap',
       '// has characters in: a font is only loaded for a character on one of them.',
       'var fontPages = map[string][]uint16{']
for p in sorted(glob.glob('fonts/*.gz')):
    f = TTFont(io.BytesIO(gzip.open(p).read()), lazy=True)
    pages = sorted(set(c >> 8 for c in f.getBestCmap()))
    out.append('\t"%s": {%s},' % (os.path.basename(p), ', '.join('0x%x' % x for x in pages)))
out.append('}')
open('fontpages.go', 'w').write('\n'.join(out) + '\n')
