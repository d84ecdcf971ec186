package store

import "testing"

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
