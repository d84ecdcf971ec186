//go:build pressurehook

package ai

// The experiment hook of pressure.go (not part of the player: built only
// with -tags pressurehook, as go build -tags pressurehook -o /tmp/dz
// ./cmd/qwixxbot). It sets the knobs from the environment:
//
//	QT_DZ=alpha,min,max,base  levels on (hazLevels: duo.tbl ×1, hardduo.tbl
//	                          ×1.25, and s160.tbl ×1.6, s200.tbl ×2 from
//	                          QT_DZDIR, default /tmp/dzt, when present;
//	                          TestBuildScaledDuo writes them)
//	QT_DZFIRST=1              the other's next turn ends the game with
//	                          firstHazard (needs QT_DZ)
//	QT_DZPURE=k               firstHazard is k × endChance alone
//	QT_DZFILL=x               levelScale from the fill mix x (needs QT_DZ)
//	QT_DZMARGIN=g,min,max     the level from the expected margin (needs QT_DZ)
//	QT_DZMRIVAL=1             the rival's level from the margin too
//	QT_DZTHREAT=q5,q4         threatTable (needs QT_DZ)
//	QT_DZENDNOW=p             endNowP
//	QT_DZLOCKNOW=p            lockNowP
//	QT_DZMIS=p1,p2,p3         misPenalty
//	QT_DZRW=w                 rivalW

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

func init() {
	fmt.Sscanf(os.Getenv("QT_DZMIS"), "%g,%g,%g", &misPenalty[1], &misPenalty[2], &misPenalty[3])
	fmt.Sscanf(os.Getenv("QT_DZENDNOW"), "%g", &endNowP)
	fmt.Sscanf(os.Getenv("QT_DZLOCKNOW"), "%g", &lockNowP)
	fmt.Sscanf(os.Getenv("QT_DZPURE"), "%g", &firstPure)
	if x := os.Getenv("QT_DZRW"); x != "" {
		fmt.Sscanf(x, "%g", &rivalW)
	}
	spec := os.Getenv("QT_DZ")
	if spec == "" {
		return
	}
	fmt.Sscanf(spec, "%g,%g,%g,%g", &pressureAlpha, &pressureMin, &pressureMax, &pressureBase)
	pressureFirst = os.Getenv("QT_DZFIRST") != ""
	fmt.Sscanf(os.Getenv("QT_DZMARGIN"), "%g,%g,%g", &marginGamma, &marginMin, &marginMax)
	marginRival = os.Getenv("QT_DZMRIVAL") != ""
	fmt.Sscanf(os.Getenv("QT_DZFILL"), "%g", &fillMix)
	fmt.Sscanf(os.Getenv("QT_DZTHREAT"), "%g,%g", &threat5, &threat4)
	dir := os.Getenv("QT_DZDIR")
	if dir == "" {
		dir = "/tmp/dzt"
	}
	file := func(name string) func() *valueTable {
		return sync.OnceValue(func() *valueTable {
			b, err := os.ReadFile(name)
			if err != nil {
				panic(err)
			}
			return mustDecode(b)
		})
	}
	hazLevels = []hazLevel{{1, duoTable}, {1.25, func() *valueTable { return duoHard().before }}}
	for _, l := range []struct {
		scale float64
		name  string
	}{{1.6, "s160.tbl"}, {2, "s200.tbl"}} {
		if _, err := os.Stat(filepath.Join(dir, l.name)); err == nil {
			hazLevels = append(hazLevels, hazLevel{l.scale, file(filepath.Join(dir, l.name))})
		}
	}
	fmt.Fprintf(os.Stderr, "pressure hook: alpha %g, levels %g–%g around %g (%d tables), first %v, pure %g, fill %g, margin %g (%g–%g, rival %v), threat %g/%g, end now %g, lock now %g, misthrow penalty %v, rival weight %g\n",
		pressureAlpha, pressureMin, pressureMax, pressureBase, len(hazLevels), pressureFirst, firstPure, fillMix,
		marginGamma, marginMin, marginMax, marginRival, threat5, threat4, endNowP, lockNowP, misPenalty, rivalW)
}
