package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// guildN is a guild snowflake whose shard among n is k % n.
func guildN(k int) string { return strconv.FormatUint(uint64(k)<<22|uint64(k), 10) }

func tableBlob(guild string) []byte {
	b, _ := json.Marshal(map[string]string{"guild_id": guild})
	return b
}

func guildOfBlob(b []byte) string {
	var t struct {
		Guild string `json:"guild_id"`
	}
	json.Unmarshal(b, &t)
	return t.Guild
}

// shardedSources writes n shard databases holding guilds 1..6 (each in
// its shard by ShardOf), a private game outside servers in shard 0, and
// a daily secret in each.
func shardedSources(t *testing.T, dir string, n int) []string {
	t.Helper()
	var paths []string
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("src%d.db", i))
		s, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Secret("daily"); err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= 6; k++ {
			g := guildN(k)
			if ShardOf(g, n) != i {
				continue
			}
			ch := "chan-" + strconv.Itoa(k)
			must1(t, s.Put(ch, tableBlob(g)))
			must1(t, s.PutGuildSettings(g, []byte(`{"lang":"de"}`)))
			must1(t, s.PutTimer(ch, time.Unix(int64(1000+k), 0), []byte("due")))
			for j := range 2 {
				must1(t, s.AppendResult(simpleResult(g, 10*k+j, k, j)))
			}
		}
		if i == 0 {
			must1(t, s.Put("solo:u1", tableBlob("@dm")))
		}
		must1(t, s.Close())
		paths = append(paths, p)
	}
	return paths
}

func must1(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReshard2To3To1 moves six guilds' tables, timers, results and
// settings, and a private game, from 2 shards to 3 and then to 1: each
// value lands in the shard of its guild, nothing is lost or doubled, the
// daily secret of shard 0 is every shard's, and results go on numbering.
func TestReshard2To3To1(t *testing.T) {
	dir := t.TempDir()
	src := shardedSources(t, dir, 2)
	secret0 := func(p string) []byte {
		s, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		v, err := s.Secret("daily")
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	want := secret0(src[0])
	if bytes.Equal(want, secret0(src[1])) {
		t.Fatal("the two sources share a secret: the test proves nothing")
	}
	before := [][]byte{mustRead(t, src[0]), mustRead(t, src[1])}

	three := []string{filepath.Join(dir, "three0.db"), filepath.Join(dir, "three1.db"), filepath.Join(dir, "three2.db")}
	rep, err := Reshard(src, three, ReshardOptions{GuildOfTable: guildOfBlob})
	if err != nil {
		t.Fatal(err)
	}
	// 6 tables + 1 private, 6 settings, 6 timers × 2 entries, 12 results.
	if rep.Sharded != 7+6+12+12 || rep.Everywhere != 1 {
		t.Errorf("moved %d sharded and %d everywhere values, want 37 and 1", rep.Sharded, rep.Everywhere)
	}
	for i, p := range src {
		if !bytes.Equal(mustRead(t, p), before[i]) {
			t.Errorf("source %s changed", p)
		}
	}
	for i, p := range three {
		s, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= 6; k++ {
			g, ch := guildN(k), "chan-"+strconv.Itoa(k)
			_, has, err := s.Get(ch)
			must1(t, err)
			rs, err := s.Results(g, 0)
			must1(t, err)
			timers, err := s.DueTimers(time.Unix(2000, 0))
			must1(t, err)
			hasTimer := false
			for _, tm := range timers {
				hasTimer = hasTimer || tm.Key == ch
			}
			mine := k%3 == i
			if has != mine || (len(rs) == 2) != mine || hasTimer != mine {
				t.Errorf("shard %d of 3, guild %d (shard %d): table %v, %d results, timer %v", i, k, k%3, has, len(rs), hasTimer)
			}
		}
		_, solo, _ := s.Get("solo:u1")
		if solo != (i == 0) {
			t.Errorf("shard %d: private game outside servers present = %v", i, solo)
		}
		if got, _ := s.Secret("daily"); !bytes.Equal(got, want) {
			t.Errorf("shard %d: the daily secret is not shard 0's", i)
		}
		s.Close()
	}
	// Results go on numbering after the moved ones.
	s, err := Open(three[1])
	must1(t, err)
	must1(t, s.AppendResult(simpleResult(guildN(4), 99, 1)))
	rs, err := s.Results(guildN(4), 0)
	must1(t, err)
	if len(rs) != 3 || rs[0].GameID != "game-99" {
		t.Errorf("after a new result, guild 4 has %d results, newest %q", len(rs), rs[0].GameID)
	}
	must1(t, s.Close())

	one := []string{filepath.Join(dir, "one.db")}
	rep1, err := Reshard(three, one, ReshardOptions{GuildOfTable: guildOfBlob})
	if err != nil {
		t.Fatal(err)
	}
	if rep1.Sharded != rep.Sharded+1 {
		t.Errorf("3 → 1 moved %d values, want %d", rep1.Sharded, rep.Sharded+1)
	}
	sum, err := Verify(one[0])
	must1(t, err)
	if sum.Games != 7 || sum.Results != 13 || sum.Guilds != 6 || sum.Timers != 6 {
		t.Errorf("the one shard holds %s", sum)
	}
}

// TestReshardRefuses: a running bot's database, a target that exists,
// and a file named twice are refused, and nothing is written.
func TestReshardRefuses(t *testing.T) {
	dir := t.TempDir()
	src := shardedSources(t, dir, 2)
	other := filepath.Join(dir, "other.db")
	must1(t, os.WriteFile(other, []byte("somebody's file"), 0o600))
	if _, err := Reshard(src, []string{other}, ReshardOptions{}); !errors.Is(err, ErrReshardTarget) {
		t.Errorf("an existing target: %v, want ErrReshardTarget", err)
	}
	if got := mustRead(t, other); string(got) != "somebody's file" {
		t.Error("the existing target was changed")
	}
	if _, err := Reshard(src, []string{src[0]}, ReshardOptions{}); err == nil {
		t.Error("a source named as target was accepted")
	}
	s, err := Open(src[1])
	must1(t, err)
	defer s.Close()
	target := filepath.Join(dir, "t.db")
	if _, err := Reshard(src, []string{target}, ReshardOptions{}); !errors.Is(err, ErrLocked) {
		t.Errorf("a source in use: %v, want ErrLocked", err)
	}
	if fileExists(target) || fileExists(target+".reshard-tmp") {
		t.Error("a refused reshard left files")
	}
}

// TestReshardStoppedAtEveryStep stops the resharding at each step (as a
// crash would) and runs it again: the sources never change, and the run
// after the stop finishes with the same contents.
func TestReshardStoppedAtEveryStep(t *testing.T) {
	steps := []string{"verify sources", "open sources", "create targets", "copy", "close targets", "verify targets", "rename", "renamed 0", "renamed 1"}
	for _, stop := range steps {
		t.Run(stop, func(t *testing.T) {
			dir := t.TempDir()
			src := shardedSources(t, dir, 2)
			before := [][]byte{mustRead(t, src[0]), mustRead(t, src[1])}
			to := []string{filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db"), filepath.Join(dir, "c.db")}
			func() {
				defer func() {
					if r := recover(); r != nil && r != "stop" {
						panic(r)
					}
				}()
				Reshard(src, to, ReshardOptions{GuildOfTable: guildOfBlob, Step: func(name string) {
					if name == stop {
						panic("stop")
					}
				}})
				t.Fatalf("step %q never came", stop)
			}()
			for i, p := range src {
				if !bytes.Equal(mustRead(t, p), before[i]) {
					t.Fatalf("source %d changed by a run stopped at %q", i, stop)
				}
			}
			rep, err := Reshard(src, to, ReshardOptions{GuildOfTable: guildOfBlob})
			if err != nil {
				t.Fatalf("run again after a stop at %q: %v", stop, err)
			}
			if rep.Sharded != 37 {
				t.Errorf("run again moved %d values, want 37", rep.Sharded)
			}
			for _, p := range to {
				if fileExists(p + ".reshard-tmp") {
					t.Errorf("%s.reshard-tmp left", p)
				}
			}
		})
	}
}
