package render

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"

	"github.com/qwixxbot/qwixxbot/game"
)

// Score chart layout. The chart is Width × chartH, landscape, so a phone
// shows it whole; all text is at least minFontPx.
const (
	chartH      = 660
	chartPlotY0 = margin + 112         // top of the plot
	chartPlotY1 = chartH - margin - 84 // bottom of the plot (the lowest gridline)
	chartEndGap = 25                   // from the last turn to the name badges
	chartBadgeR = 16                   // radius of a player's badge
	chartLabelH = 38                   // least distance of two name labels
	chartNameW  = 170                  // widest name label
	chartLineW  = 4.5
	chartStack  = 32 // the step by which a marker moves off another
	chartMinDX  = 52 // least distance of two turn labels
	chartMinDY  = 40 // least distance of two gridlines
)

// chartStyle is how a player's line looks: its ink, its dash pattern (on,
// off, …; nil is solid) and its width; chartBadge is the shape at its end.
// The lines differ in dash pattern and badge as well as colour, so they can
// be told apart in greyscale and by colour-blind players.
type chartStyle struct {
	ink   uint8
	dash  []float64
	width float64
	// text is the colour of the rank in the badge.
	text uint8
}

var chartStyles = [game.MaxPlayers]chartStyle{
	{ink: cInk, width: chartLineW, text: cPaper},                                                  // solid, ●
	{ink: rowC(game.Blue, sBg), dash: []float64{16, 11}, width: chartLineW, text: cPaper},         // dashed, ■
	{ink: cFresh, dash: []float64{0.5, 10}, width: 6.5, text: cInk},                               // dotted, ◆
	{ink: rowC(game.Green, sBg), dash: []float64{18, 9, 0.5, 9}, width: chartLineW, text: cPaper}, // dash-dot, ▲
	{ink: rowC(game.Red, sDark), dash: []float64{6, 8}, width: chartLineW, text: cPaper},          // short dashes, ⬢
}

// Chart draws a game's score chart as PNG: each player's running total
// turn by turn (x the turn, y the points, gridlines with numbers), a line
// per player that differs in dash pattern, badge and colour, ending at a
// badge with the player's rank (the number the results put before the
// name, ties sharing it; the leader has the first style, solid ink, on top)
// and the player's name; a padlock in the row's colour with the row's
// symbol where a player locked a row (S3, D7, C8), an ✕ where the active
// player took a misthrow (D6, C7). A series of one turn has no lines (two
// points make no trend): each total is a dot at turn 1 with its badge. The
// names come from v, which must be the game the series is of: its scores
// are the series' last point.
func Chart(v game.PublicView, s game.ScoreSeries, l Labels) ([]byte, error) {
	return encodePooled(func(a alloc) (canvas, error) {
		c, _, err := chart(v, s, l, a)
		return c, err
	}, "chart")
}

// ChartImage draws the score chart (see Chart) without encoding it.
func ChartImage(v game.PublicView, s game.ScoreSeries, l Labels) (*image.Paletted, error) {
	c, _, err := chart(v, s, l, newPage)
	return own(c, err)
}

// chartLayout is where the chart puts things: the plot box, the axes'
// ranges, each line's last point, the markers and the name labels.
type chartLayout struct {
	x0, x1, y0, y1 int // the plot box
	turns          int // turns on the x axis (at least 1)
	lo, hi, ystep  int // the y axis: lowest and highest gridline, gridline step
	xstep          int // turns between two turn labels
	ends           []image.Point
	marks          []chartMark
	labelY         []int // centre of each player's name label
	rank           []int // each player's rank by final score, as in the results (ties share one)
	style          []int // each player's index in chartStyles: the order of the ranking
	lines          bool  // lines are drawn: the series has at least two turns
}

// chartMark is a marker drawn on a line: a lock (with its row) or a
// misthrow. It is drawn at at, on a stem from its point base on the line
// when the two differ.
type chartMark struct {
	kind     game.ScoreEventKind
	player   int
	turn     int
	color    game.Color
	base, at image.Point
}

// chartMarkGap is the least distance, across and down, of two markers.
const chartMarkGap = 30

// markNear reports whether a marker placed so far is closer to at than
// chartMarkGap both across and down.
func (lay *chartLayout) markNear(at image.Point) bool {
	for _, m := range lay.marks {
		if abs(m.at.X-at.X) < chartMarkGap && abs(m.at.Y-at.Y) < chartMarkGap {
			return true
		}
	}
	return false
}

func abs(x int) int { return max(x, -x) }

func (lay *chartLayout) xf(t int) float64 {
	return float64(lay.x0) + float64(t)*float64(lay.x1-lay.x0)/float64(lay.turns)
}

func (lay *chartLayout) yf(v int) float64 {
	return float64(lay.y1) - float64(v-lay.lo)*float64(lay.y1-lay.y0)/float64(lay.hi-lay.lo)
}

func (lay *chartLayout) pt(t, v int) image.Point {
	return image.Pt(int(math.Round(lay.xf(t))), int(math.Round(lay.yf(v))))
}

// ErrNoTurn is returned (with ErrView) for a chart of a game stopped
// before its first turn ended: there is nothing to draw. Callers show no
// chart then.
var ErrNoTurn = errors.New("no turn finished")

// checkSeries checks that s is a series of v's game.
func checkSeries(v game.PublicView, s game.ScoreSeries) error {
	if len(s.Totals) != len(v.Players) {
		return fmt.Errorf("%w: a series of %d players for %d players", ErrView, len(s.Totals), len(v.Players))
	}
	n := len(s.Totals[0])
	if n == 1 {
		// A game stopped before its first turn ended: every total is 0 at
		// turn 0, and a chart of it would be empty axes.
		return fmt.Errorf("%w: %w", ErrView, ErrNoTurn)
	}
	if n == 0 || n > 4*52*game.MaxPlayers {
		return fmt.Errorf("%w: a series of %d points", ErrView, n)
	}
	for p, t := range s.Totals {
		if len(t) != n {
			return fmt.Errorf("%w: player %d has %d points, player 1 has %d", ErrView, p+1, len(t), n)
		}
		if t[len(t)-1] != v.Players[p].Score {
			return fmt.Errorf("%w: player %d's series ends at %d, the score is %d", ErrView, p+1, t[len(t)-1], v.Players[p].Score)
		}
		for _, x := range t {
			if x < -5*game.MaxMisthrows || x > 4*game.RowScore(12) {
				return fmt.Errorf("%w: player %d's series has %d points", ErrView, p+1, x)
			}
		}
	}
	for _, e := range s.Events {
		if e.Turn < 1 || e.Turn >= n || e.Player < 0 || e.Player >= len(v.Players) || !e.Color.Valid() ||
			(e.Kind != game.EventLock && e.Kind != game.EventMisthrow) {
			return fmt.Errorf("%w: series event %+v", ErrView, e)
		}
	}
	return nil
}

func chart(v game.PublicView, s game.ScoreSeries, l Labels, alloc alloc) (canvas, *chartLayout, error) {
	fail := func(err error) (canvas, *chartLayout, error) {
		return canvas{}, nil, fmt.Errorf("render: chart: %w", err)
	}
	if err := prepare(v, l); err != nil {
		return fail(err)
	}
	if err := checkSeries(v, s); err != nil {
		return fail(err)
	}
	n := len(v.Players)
	names := make([]string, n)
	nameW := 0
	for p, pv := range v.Players {
		names[p] = fit(fLabelB, playerName(pv.Name, p, l), chartNameW)
		nameW = max(nameW, fLabelB.width(names[p]))
	}
	lay := layoutChart(s, nameW)
	c := alloc(Width, chartH)
	c.rbox(margin, margin, panelW, chartH-2*margin, 14, cPaper)
	c.textIn(fTitle, fit(fTitle, l.ChartTitle, panelW-32), margin+16, margin+34, left, cInk)
	c.textIn(fLabel, fit(fLabel, l.Points, panelW-32), margin+16, lay.y0-38, left, cInkSoft)

	// Gridlines with their numbers; the zero line stronger.
	for y := lay.lo; y <= lay.hi; y += lay.ystep {
		py := lay.pt(0, y).Y
		ink, w := uint8(cPassBg), 1
		if y == 0 {
			ink, w = cInkSoft, 2
		}
		c.fill(image.Rect(lay.x0, py-w/2, lay.x1+1, py-w/2+w), ink)
		c.textIn(fLabel, strconv.Itoa(y), lay.x0-10, py, right, cInkSoft)
	}
	for t := 0; t <= lay.turns; t += lay.xstep {
		px := lay.pt(t, 0).X
		c.fill(image.Rect(px, lay.y0, px+1, lay.y1), cPassBg)
		c.textIn(fLabel, strconv.Itoa(t), px, lay.y1+22, center, cInkSoft)
	}
	c.textIn(fLabel, fit(fLabel, l.TurnAxis, lay.x1-lay.x0), (lay.x0+lay.x1)/2, lay.y1+58, center, cInkSoft)

	// The lines, the last in the ranking drawn first so the leader's is on
	// top.
	byStyle := make([]int, n) // players from the last style to the first
	for p := range n {
		byStyle[n-1-lay.style[p]] = p
	}
	for _, p := range byStyle {
		if !lay.lines {
			break
		}
		st := lay.styleOf(p)
		pts := make([]fpt, len(s.Totals[p]))
		for t, x := range s.Totals[p] {
			pts[t] = fpt{lay.xf(t), lay.yf(x)}
		}
		c.stroke(pts, st.width, st.dash, st.ink)
	}
	// Each line's end: a leader to its badge if the label had to move, and
	// a dot.
	bx := lay.x1 + chartEndGap + chartBadgeR
	for _, p := range byStyle {
		e, ly := lay.ends[p], lay.labelY[p]
		if ly != e.Y {
			c.stroke([]fpt{{float64(e.X), float64(e.Y)}, {float64(bx - chartBadgeR), float64(ly)}}, 2, nil, lay.styleOf(p).ink)
		}
	}
	dot := 6.0
	if !lay.lines {
		dot = 9 // the only mark of a total: larger
	}
	for _, p := range byStyle {
		e := lay.ends[p]
		c.draw(disc(dot), e.X, e.Y, lay.styleOf(p).ink)
	}
	// The markers over the lines, moved ones on a stem.
	for _, m := range lay.marks {
		if m.at != m.base {
			c.stroke([]fpt{{float64(m.base.X), float64(m.base.Y)}, {float64(m.at.X), float64(m.at.Y)}}, 2, nil, lay.styleOf(m.player).ink)
		}
	}
	for _, m := range lay.marks {
		st := lay.styleOf(m.player)
		switch m.kind {
		case game.EventLock:
			c.draw(disc(18), m.at.X, m.at.Y, cPaper)
			c.draw(chartLock(), m.at.X, m.at.Y, rowC(m.color, sBg))
			c.draw(rowSymbol(m.color, 4.5), m.at.X, m.at.Y+chartLockBodyY, rowC(m.color, sSymbol))
		case game.EventMisthrow:
			c.draw(disc(14), m.at.X, m.at.Y, cPaper)
			c.draw(cross(8, 4.5), m.at.X, m.at.Y, st.ink)
		}
	}
	// The badges (the rank) and names.
	for p := range n {
		st := lay.styleOf(p)
		ly := lay.labelY[p]
		c.draw(chartBadge(lay.style[p]), bx, ly, st.ink)
		dy := 0
		if lay.style[p]%len(chartStyles) == 3 {
			dy = 4 // the triangle's centre of mass is low
		}
		c.textIn(fBox, strconv.Itoa(lay.rank[p]), bx, ly+dy, center, st.text)
		c.textIn(fLabelB, names[p], bx+chartBadgeR+8, ly, left, cInk)
	}
	return c, lay, nil
}

// layoutChart places the plot, the axes, the markers and the labels for a
// series whose widest name label is nameW pixels.
func layoutChart(s game.ScoreSeries, nameW int) *chartLayout {
	lay := &chartLayout{y0: chartPlotY0, y1: chartPlotY1, turns: max(s.Turns(), 1), lines: s.Turns() >= 2}
	lay.rank, lay.style = chartRanks(s)
	lo, hi := 0, 10
	for _, t := range s.Totals {
		for _, x := range t {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	for _, step := range []int{1, 2, 5, 10, 20, 25, 50, 100} {
		a := floorTo(lo, step)
		b := -floorTo(-hi, step)
		if b == a {
			b += step
		}
		lay.lo, lay.hi, lay.ystep = a, b, step
		if (lay.y1-lay.y0)*step/(b-a) >= chartMinDY {
			break
		}
	}
	labW := max(fLabel.width(strconv.Itoa(lay.lo)), fLabel.width(strconv.Itoa(lay.hi)))
	lay.x0 = margin + 16 + labW + 12
	lay.x1 = Width - margin - 16 - nameW - 8 - 2*chartBadgeR - chartEndGap
	for _, step := range []int{1, 2, 5, 10, 20, 25, 50, 100} {
		lay.xstep = step
		if (lay.x1-lay.x0)*step/lay.turns >= chartMinDX {
			break
		}
	}
	n := len(s.Totals)
	lay.ends = make([]image.Point, n)
	for p, t := range s.Totals {
		lay.ends[p] = lay.pt(len(t)-1, t[len(t)-1])
	}
	// A marker sits on its point of the line; where it would cover another
	// marker it moves up (down near the top) by steps, on a stem.
	for _, e := range s.Events {
		base := lay.pt(e.Turn, s.Totals[e.Player][e.Turn])
		at := base
		for dir := -1; ; dir = 1 {
			at = base
			for lay.markNear(at) && at.Y >= lay.y0 && at.Y <= lay.y1+chartStack {
				at.Y += dir * chartStack
			}
			if !lay.markNear(at) && at.Y >= lay.y0-chartStack/2 || dir == 1 {
				break
			}
		}
		lay.marks = append(lay.marks, chartMark{kind: e.Kind, player: e.Player, turn: e.Turn, color: e.Color, base: base, at: at})
	}
	// Name labels at their line's end, moved apart where they would touch.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return lay.ends[a].Y - lay.ends[b].Y })
	lay.labelY = make([]int, n)
	top, bottom := lay.y0-chartLabelH/2, lay.y1+chartLabelH/2
	prev := math.MinInt
	for _, p := range order {
		y := max(lay.ends[p].Y, top)
		if prev != math.MinInt {
			y = max(y, prev+chartLabelH)
		}
		lay.labelY[p] = y
		prev = y
	}
	next := math.MaxInt
	for i := n - 1; i >= 0; i-- {
		p := order[i]
		y := min(lay.labelY[p], bottom)
		if next != math.MaxInt {
			y = min(y, next-chartLabelH)
		}
		lay.labelY[p] = y
		next = y
	}
	return lay
}

// styleOf is player p's line style.
func (lay *chartLayout) styleOf(p int) chartStyle {
	return chartStyles[lay.style[p]%len(chartStyles)]
}

// chartRanks ranks the players by their final totals as the results do
// (ties share a rank, seat order among them) and gives each their place in
// that order as style.
func chartRanks(s game.ScoreSeries) (rank, style []int) {
	n := len(s.Totals)
	final := func(p int) int { return s.Totals[p][len(s.Totals[p])-1] }
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return final(b) - final(a) })
	rank, style = make([]int, n), make([]int, n)
	for i, p := range order {
		style[p] = i
		rank[p] = i + 1
		if i > 0 && final(p) == final(order[i-1]) {
			rank[p] = rank[order[i-1]]
		}
	}
	return rank, style
}

// floorTo rounds x down to a multiple of step.
func floorTo(x, step int) int {
	if x >= 0 {
		return x / step * step
	}
	return -((-x + step - 1) / step * step)
}

// fpt is a point in float coordinates.
type fpt struct{ x, y float64 }

// stroke draws the polyline pts, w wide with round ends, solid or dashed
// (dash: on, off, … lengths along the line). It is drawn in short pieces,
// so every mask stays small.
func (c canvas) stroke(pts []fpt, w float64, dash []float64, fg uint8) {
	const piece = 96.0
	on, idx, left := true, 0, math.Inf(1)
	if len(dash) > 0 {
		left = dash[0]
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		l := math.Hypot(b.x-a.x, b.y-a.y)
		if l == 0 {
			continue
		}
		dx, dy := (b.x-a.x)/l, (b.y-a.y)/l
		for pos := 0.0; pos < l; {
			step := min(l-pos, left, piece)
			if on {
				c.capsule(a.x+dx*pos, a.y+dy*pos, a.x+dx*(pos+step), a.y+dy*(pos+step), w/2, fg)
			}
			pos += step
			if len(dash) > 0 {
				if left -= step; left <= 1e-9 {
					idx = (idx + 1) % len(dash)
					left, on = dash[idx], idx%2 == 0
				}
			}
		}
	}
}

// capsule paints the segment (ax, ay)–(bx, by) with round ends of radius r.
func (c canvas) capsule(ax, ay, bx, by, r float64, fg uint8) {
	x0, y0 := int(math.Floor(min(ax, bx)-r-1)), int(math.Floor(min(ay, by)-r-1))
	x1, y1 := int(math.Ceil(max(ax, bx)+r+1)), int(math.Ceil(max(ay, by)+r+1))
	p := newPath(x0, y0, x1, y1)
	th := math.Atan2(by-ay, bx-ax)
	const steps = 8
	var pts []float64
	for i := 0; i <= steps; i++ {
		a := th - math.Pi/2 + math.Pi*float64(i)/steps
		pts = append(pts, bx+r*math.Cos(a), by+r*math.Sin(a))
	}
	for i := 0; i <= steps; i++ {
		a := th + math.Pi/2 + math.Pi*float64(i)/steps
		pts = append(pts, ax+r*math.Cos(a), ay+r*math.Sin(a))
	}
	p.poly(pts...)
	c.draw(p.done(), 0, 0, fg)
}

// chartLockBodyY is the centre of chartLock's body below its anchor.
const chartLockBodyY = 7

// chartLock is the padlock of a lock marker, nine tenths of padlock's
// size, centred on its anchor.
func chartLock() *mask {
	return shape("chartlock", 18, func(p *path) {
		lockPath(p, 0.9, 1, 2.5, true, false)
	})
}

// chartBadge is the shape of style p behind a player's rank at the end of
// their line: ●, ■, ◆, ▲ and ⬢, so the lines differ in more than colour.
func chartBadge(p int) *mask {
	const r = chartBadgeR
	return shape(fmt.Sprintf("badge/%d", p%len(chartStyles)), r+6, func(b *path) {
		switch p % len(chartStyles) {
		case 0:
			b.circle(0, 0, r, false)
		case 1:
			b.rrect(-r+1, -r+1, r-1, r-1, 4, false)
		case 2:
			b.poly(0, -r-4, r+4, 0, 0, r+4, -r-4, 0)
		case 3:
			b.poly(0, -r-5, r+5, r-1, -r-5, r-1)
		default:
			var pts []float64
			for i := range 6 {
				a := math.Pi / 3 * float64(i)
				pts = append(pts, (r+1)*math.Cos(a), (r+1)*math.Sin(a))
			}
			b.poly(pts...)
		}
	})
}

// Moment is a point a review marks on a score chart: player's decision in
// turn Turn, labelled with its number N (1 the costliest), its ring
// coloured by its Class.
type Moment struct {
	Turn, Player, N int
	Class           MarkClass
}

// MarkClass is the class a review gives a marked decision, which colours
// its ring: MarkPlain (the zero value) and MarkMistake a dark red ring,
// MarkGood a green one, MarkInaccuracy a yellow one, MarkBlunder a red
// disc with the number in white.
type MarkClass uint8

// The mark classes (see MarkClass).
const (
	MarkPlain MarkClass = iota
	MarkGood
	MarkInaccuracy
	MarkMistake
	MarkBlunder
)

// ReviewChart draws the score chart (see Chart) with the moments marked:
// a numbered ring on the player's line at each moment's turn, so that a
// game review's costliest decisions can be found on the chart.
func ReviewChart(v game.PublicView, s game.ScoreSeries, l Labels, moments []Moment) ([]byte, error) {
	return encodePooled(func(a alloc) (canvas, error) {
		c, lay, err := chart(v, s, l, a)
		if err != nil {
			return c, err
		}
		if err := drawMoments(c, lay, s, moments); err != nil {
			return canvas{}, fmt.Errorf("render: review chart: %w", err)
		}
		return c, nil
	}, "review chart")
}

// ReviewChartImage draws the review chart (see ReviewChart) without
// encoding it.
func ReviewChartImage(v game.PublicView, s game.ScoreSeries, l Labels, moments []Moment) (*image.Paletted, error) {
	c, lay, err := chart(v, s, l, newPage)
	if err == nil {
		err = drawMoments(c, lay, s, moments)
	}
	return own(c, err)
}

// momentR is the outer radius of a moment's numbered ring; momentStep
// is how far a ring moves off another, so the two leave a gap.
const (
	momentR    = 17
	momentStep = 2*momentR + 4
)

// momentBox is the box a moment's ring drawn at at covers.
func momentBox(at image.Point) image.Rectangle {
	return image.Rect(at.X-momentR, at.Y-momentR, at.X+momentR+1, at.Y+momentR+1)
}

// placeMoments finds where each moment's ring goes: on its player's line
// at its turn, or, where that would cover a ring placed before it (two
// choices of one turn share the point), the nearest free place above or
// below it, then beside it, on a stem from the point. Earlier moments
// (the costlier) are placed first and keep their points. It returns each
// moment's point on the line and its ring's centre.
func placeMoments(lay *chartLayout, s game.ScoreSeries, moments []Moment) (base, at []image.Point, err error) {
	base, at = make([]image.Point, len(moments)), make([]image.Point, len(moments))
	free := func(p image.Point, upTo int) bool {
		for _, q := range at[:upTo] {
			if momentBox(p).Overlaps(momentBox(q)) {
				return false
			}
		}
		return true
	}
	for i, m := range moments {
		if m.Player < 0 || m.Player >= len(s.Totals) || m.Turn < 0 || m.Turn >= len(s.Totals[m.Player]) {
			return nil, nil, fmt.Errorf("%w: moment at turn %d of player %d is off the series", ErrView, m.Turn, m.Player)
		}
		b := lay.pt(m.Turn, s.Totals[m.Player][m.Turn])
		base[i], at[i] = b, b
		if free(b, i) {
			continue
		}
		// Rings go up first (into the plot's room above a line), then
		// down, then to the sides; every place stays on the canvas.
		var cands []image.Point
		for k := 1; k <= len(moments); k++ {
			d := k * momentStep
			cands = append(cands, image.Pt(b.X, b.Y-d), image.Pt(b.X, b.Y+d))
		}
		for k := 1; k <= len(moments); k++ {
			d := k * momentStep
			cands = append(cands, image.Pt(b.X+d, b.Y), image.Pt(b.X-d, b.Y))
		}
		for _, c := range cands {
			if c.Y-momentR >= margin && c.Y+momentR < chartH-margin && c.X-momentR >= margin && c.X+momentR < Width-margin && free(c, i) {
				at[i] = c
				break
			}
		}
	}
	return base, at, nil
}

// drawMoments marks moments on a drawn chart, later numbers under
// earlier ones; no ring covers another (placeMoments).
func drawMoments(c canvas, lay *chartLayout, s game.ScoreSeries, moments []Moment) error {
	base, at, err := placeMoments(lay, s, moments)
	if err != nil {
		return err
	}
	ink := rowC(game.Red, sDark)
	for i := range moments {
		if at[i] != base[i] {
			c.draw(disc(5), base[i].X, base[i].Y, ink)
			c.stroke([]fpt{{float64(base[i].X), float64(base[i].Y)}, {float64(at[i].X), float64(at[i].Y)}}, 2.5, nil, ink)
		}
	}
	for i := len(moments) - 1; i >= 0; i-- {
		p := at[i]
		// The ring's colour is the choice's class (the zero class draws
		// as a mistake).
		ring, inside, text := ink, uint8(cPaper), ink
		switch moments[i].Class {
		case MarkGood:
			ring, text = rowC(game.Green, sDark), rowC(game.Green, sDark)
		case MarkInaccuracy:
			ring, text = rowC(game.Yellow, sDark), cInk
		case MarkBlunder:
			inside, text = ink, cPaper
		}
		c.draw(disc(momentR), p.X, p.Y, ring)
		c.draw(disc(14), p.X, p.Y, inside)
		c.textIn(fBox, strconv.Itoa(moments[i].N), p.X, p.Y, center, text)
	}
	return nil
}
