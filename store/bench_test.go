package store

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// BenchmarkUpdate is one durable read-modify-write of a 4 KiB game blob,
// the bot's cost per move; it includes the fsync of the commit.
func BenchmarkUpdate(b *testing.B) {
	s := newStore(b)
	if err := s.Put("channel", make([]byte, 4<<10)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		err := s.Update("channel", func(old []byte, _ bool) ([]byte, bool, error) {
			old[0]++ // old is the caller's copy
			return old, false, nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGet reads a 4 KiB game blob among 1000.
func BenchmarkGet(b *testing.B) {
	s := newStore(b)
	blob := make([]byte, 4<<10)
	for i := range 1000 {
		if err := s.Put(channelID(i), blob); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok, err := s.Get(channelID(i % 1000)); err != nil || !ok {
			b.Fatal(ok, err)
		}
		i++
	}
}

func channelID(i int) string {
	return "1234567890123" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
}

// BenchmarkUpdateParallel has 64 goroutines (about: 64/GOMAXPROCS per
// processor) each read-modify-write its own 4 KiB game blob, durably, as
// the bot does for moves in many channels at once. "group" is the Store
// as it is, with group commit; "solo" is one transaction and one fsync per
// write, as before it. It reports writes/s and commits (fsyncs) per write.
func BenchmarkUpdateParallel(b *testing.B) {
	for _, mode := range []struct {
		name string
		solo bool
	}{{"group", false}, {"solo", true}} {
		b.Run(mode.name, func(b *testing.B) {
			s := newStore(b)
			s.solo = mode.solo
			const writers = 64
			for i := range writers {
				if err := s.Put(channelID(i), make([]byte, 4<<10)); err != nil {
					b.Fatal(err)
				}
			}
			before := s.Stats()
			var next atomic.Int64
			b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				ch := channelID(int(next.Add(1)-1) % writers)
				for pb.Next() {
					err := s.Update(ch, func(old []byte, _ bool) ([]byte, bool, error) {
						old[0]++
						return old, false, nil
					})
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			st := s.Stats()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
			b.ReportMetric(float64(st.Commits-before.Commits)/float64(b.N), "commits/write")
		})
	}
}
