// Package render draws Qwixx pictures for the bot: the public table (every
// player's score sheet with the dice or the card display), one player's
// sheet, a private hand, the results of a game and a match, and a game's
// score chart (Chart: each player's total turn by turn, locks and
// misthrows marked).
//
// The public pictures take a game.PublicView only, which cannot hold a
// hidden card colour (RULES C10); only Hand takes a game.PrivateView. Every
// word comes from the Labels passed in. The fonts are embedded, so the
// output is the same on every machine: the Go fonts, and for every other
// script, symbol and monochrome emoji the fallback fonts in fonts/ (see
// fonts/README.md), loaded on first use. All text is cleaned before it is
// drawn (see CleanName) and a name with nothing drawable is shown as its
// seat ("Player 2"). Right-to-left and complex-script text is put in
// visual order by Unicode's bidi algorithm and shaped with HarfBuzz
// (bidi.go, shape.go).
//
// Pictures are Width pixels wide and drawn with a fixed palette into an
// image.Paletted: rows are told apart by colour, lightness and a symbol
// (red ●, yellow ▲, green ■, blue ◆); the coloured dice have their row's
// symbol as pips and the cards played carry it large, so nothing depends
// on telling hues apart. This turn's crosses are ink cells with an orange X,
// plain in greyscale on every row. Sheet marks the viewer's choices with
// dashed rings; the public table has no such parameter. Everything that does not change
// between states (empty sheets, glyphs, shapes) is drawn once and cached, and
// the PNG encoder is specialised for these flat-colour images. All functions
// are safe for concurrent use.
package render
