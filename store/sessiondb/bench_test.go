package sessiondb

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/store"
)

// benchTables is how many tables the benchmarks' database holds: the
// channels of the load test's 1,000 games.
const benchTables = 1000

// midGame is the stored form of a table of 3 players, dice and cards, 40
// moves in (bot/session's TestMidGameBlob writes it).
func midGame(b *testing.B) []byte {
	b.Helper()
	blob, err := os.ReadFile(filepath.Join("testdata", "midgame-table.blob"))
	if err != nil {
		b.Fatal(err)
	}
	return blob
}

func benchChannel(i int) string { return strconv.Itoa(1311000000000000000 + i) }

// benchStore is a database of benchTables mid-game tables, as the bot's
// at 1,000 games.
func benchStore(b *testing.B, blob []byte) (*store.Store, *OnDisk) {
	b.Helper()
	st, err := store.Open(filepath.Join(b.TempDir(), "q.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := st.Close(); err != nil {
			b.Error(err)
		}
	})
	for i := range benchTables {
		if err := st.Put(benchChannel(i), blob); err != nil {
			b.Fatal(err)
		}
	}
	return st, NewOnDisk(st)
}

// written is what this process has written to files so far (wchar of
// /proc/self/io), or -1 where that is not to be had.
func written() int64 {
	f, err := os.Open("/proc/self/io")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := bytes.CutPrefix(sc.Bytes(), []byte("wchar: ")); ok {
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}

// cpuTime is the CPU this process has used so far, user and system (the
// kernel's work of writing and syncing the file included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// report adds the per-save figures: CPU (the process's, user and system),
// commits (a bbolt commit is two fdatasyncs: pages, then the meta page)
// and bytes written to the file.
func report(b *testing.B, st *store.Store, before store.Stats, cpu0 time.Duration, w0 int64) {
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(st.Stats().Commits-before.Commits)/float64(b.N), "commits/op")
	if w0 >= 0 {
		b.ReportMetric(float64(written()-w0)/float64(b.N), "wbytes/op")
	}
}

// saveFn is the bot's write function (bot.saveTableBlob's): it stores the
// table's new bytes whatever was there.
func saveFn(blob []byte) func([]byte, bool) ([]byte, bool, error) {
	return func([]byte, bool) ([]byte, bool, error) { return blob, false, nil }
}

// BenchmarkSaveTable saves a mid-game table among 1,000 the way the bot
// does (bot.saveTableBlob: OnDisk.Update with a function that returns the
// table's new bytes), one after the other, each durable before the next.
// It reports the process's CPU, commits and bytes written per save.
func BenchmarkSaveTable(b *testing.B) {
	blob := midGame(b)
	st, d := benchStore(b, blob)
	ctx := context.Background()
	before, cpu0, w0 := st.Stats(), cpuTime(), written()
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if err := d.Update(ctx, benchChannel(i%benchTables), saveFn(blob)); err != nil {
			b.Fatal(err)
		}
		i++
	}
	report(b, st, before, cpu0, w0)
}

// BenchmarkSaveTableParallel is BenchmarkSaveTable with 64 goroutines
// saving tables of their own at once, as the bot does for clicks in many
// channels: they share commits (group commit).
func BenchmarkSaveTableParallel(b *testing.B) {
	blob := midGame(b)
	st, d := benchStore(b, blob)
	ctx := context.Background()
	const writers = 64
	var next atomic.Int64
	before, cpu0, w0 := st.Stats(), cpuTime(), written()
	b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := int(next.Add(1) - 1)
		for i := 0; pb.Next(); i++ {
			ch := benchChannel((w + writers*i) % benchTables)
			if err := d.Update(ctx, ch, saveFn(blob)); err != nil {
				b.Error(fmt.Errorf("save %s: %w", ch, err))
				return
			}
		}
	})
	b.StopTimer()
	report(b, st, before, cpu0, w0)
}
