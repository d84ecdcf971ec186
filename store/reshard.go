package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Resharding.
//
// Discord sends a guild's events to shard (guild_id >> 22) % shard_count,
// and DMs to shard 0; each shard's process keeps its own database. When
// the shard count changes, every value must move to the database of the
// shard that now owns its guild: Reshard does that, with the bots stopped.

// ShardOf is the shard, among n, that Discord gives guildID's events:
// (guild_id >> 22) % n. DMs, group DMs and anything that is not a guild's
// snowflake (private games outside servers) belong to shard 0.
func ShardOf(guildID string, n int) int {
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil || n <= 1 {
		return 0
	}
	return int((id >> 22) % uint64(n))
}

// ErrReshardTarget is returned by Reshard when a target file exists and is
// not a leftover of the same resharding.
var ErrReshardTarget = errors.New("target database exists")

// ReshardOptions are what Reshard needs besides the files.
type ReshardOptions struct {
	// GuildOfTable tells the guild of a stored table (a value of the
	// games bucket, as the bot stored it), "" for none or unknown: such a
	// table, and its timers and quarantined copies, go to shard 0.
	GuildOfTable func(blob []byte) string
	// Step, if set, is called with the name of each step before it runs
	// (crash tests stop the process there).
	Step func(name string)
}

// ReshardReport says what Reshard moved.
type ReshardReport struct {
	// Sources and Targets summarize each file (Verify), in the order given.
	Sources, Targets []Summary
	// Sharded counts the values moved to exactly one target; Everywhere
	// those copied to every target (secrets, and buckets of no guild).
	Sharded, Everywhere int
	// Checksum is the order-independent SHA-256 sum of every moved
	// (bucket, key, value), the same over the sources and the targets.
	Checksum string
}

// reshardMark, in a target's meta bucket, names the plan that wrote it: a
// target left by a killed run of the same plan may be written again.
var reshardMark = []byte("resharded_from")

// Reshard copies every value of the databases from (shards 0..N-1, in
// order) into new databases to (shards 0..M-1) by Discord's formula
// (ShardOf): games, their timers and quarantined copies by their table's
// guild; results, records, guild settings and departures by their guild;
// the secrets (the daily challenge's key) of shard 0 to every target, so
// every shard deals the same daily dice; other buckets to every target.
//
// The sources are only read, under their file locks (a running bot makes
// Reshard refuse with ErrLocked), and must be at this program's schema
// version. Each target is written beside under a temporary name, synced,
// verified (Verify, counts and the checksum of every value against the
// sources') and only then renamed into place. A target path must not
// exist, or hold the output of an earlier, killed run of the same plan,
// which is written again: a kill at any point leaves the sources as they
// were, and the command can simply run again.
func Reshard(from, to []string, opt ReshardOptions) (rep ReshardReport, err error) {
	step := func(name string) {
		if opt.Step != nil {
			opt.Step(name)
		}
	}
	if err := checkReshardPaths(from, to); err != nil {
		return rep, err
	}
	step("verify sources")
	if rep.Sources, err = verifySources(from); err != nil {
		return rep, err
	}
	step("open sources")
	srcs, err := openSources(from)
	if err != nil {
		return rep, err
	}
	defer func() {
		for _, db := range srcs {
			db.Close()
		}
	}()
	plan, err := reshardPlan(srcs, len(to))
	if err != nil {
		return rep, fmt.Errorf("store: reshard: %w", err)
	}
	for _, p := range to {
		if err := reusableTarget(p, plan); err != nil {
			return rep, fmt.Errorf("store: reshard: %w", err)
		}
	}

	step("create targets")
	tmps := make([]string, len(to))
	dsts := make([]*Store, len(to))
	defer func() {
		for i, d := range dsts {
			if d != nil {
				d.Close()
			}
			if err != nil && tmps[i] != "" {
				os.Remove(tmps[i])
			}
		}
	}()
	if err := createTargets(to, tmps, dsts); err != nil {
		return rep, err
	}

	step("copy")
	var srcSum [sha256.Size]byte
	if err := copyShards(srcs, dsts, opt, &rep, &srcSum); err != nil {
		return rep, fmt.Errorf("store: reshard: %w", err)
	}
	if err := markTargets(dsts, plan); err != nil {
		return rep, err
	}
	step("close targets")
	for i, d := range dsts {
		dsts[i] = nil
		if err := d.Close(); err != nil {
			return rep, fmt.Errorf("store: reshard: %w", err)
		}
	}

	step("verify targets")
	if err := verifyTargets(to, tmps, &rep, srcSum); err != nil {
		return rep, err
	}
	rep.Checksum = hex.EncodeToString(srcSum[:])

	step("rename")
	return rep, renameTargets(to, tmps, step)
}

// checkReshardPaths refuses a resharding without sources or targets, or
// one that names a file twice.
func checkReshardPaths(from, to []string) error {
	if len(from) == 0 || len(to) == 0 {
		return errors.New("store: reshard: give at least one source and one target")
	}
	seen := map[string]bool{}
	for _, p := range append(append([]string{}, from...), to...) {
		if seen[p] {
			return fmt.Errorf("store: reshard: %s is named twice: write the new shards to new files", p)
		}
		seen[p] = true
	}
	return nil
}

// verifySources verifies each source (Verify) and that it is at this
// program's schema version, and returns their summaries.
func verifySources(from []string) ([]Summary, error) {
	var sums []Summary
	for _, p := range from {
		sum, err := Verify(p)
		if err != nil {
			return sums, fmt.Errorf("store: reshard: source %w", err)
		}
		if sum.Version != SchemaVersion {
			return sums, fmt.Errorf("store: reshard: source %s is at schema %d, this program writes %d: start the bot once on it first", p, sum.Version, SchemaVersion)
		}
		sums = append(sums, sum)
	}
	return sums, nil
}

// openSources opens the sources read-only under their file locks (a
// running bot holds them: ErrLocked). On an error it closes those it
// opened.
func openSources(from []string) ([]*bbolt.DB, error) {
	srcs := make([]*bbolt.DB, 0, len(from))
	for _, p := range from {
		db, err := openBolt(p, &bbolt.Options{ReadOnly: true, Timeout: DefaultLockTimeout})
		if err != nil {
			for _, db := range srcs {
				db.Close()
			}
			if errors.Is(err, berrors.ErrTimeout) {
				err = fmt.Errorf("%w: stop the bot first", ErrLocked)
			}
			return nil, fmt.Errorf("store: reshard: source %s: %w", p, err)
		}
		srcs = append(srcs, db)
	}
	return srcs, nil
}

// createTargets opens a new store beside each target under a temporary
// name (a killed run's removed first), filling tmps and dsts as it goes so
// that the caller can clean up after an error.
func createTargets(to, tmps []string, dsts []*Store) error {
	for i, p := range to {
		tmps[i] = p + ".reshard-tmp"
		os.Remove(tmps[i]) // a killed run's
		var err error
		if dsts[i], err = Open(tmps[i]); err != nil {
			return fmt.Errorf("store: reshard: target %w", err)
		}
	}
	return nil
}

// markTargets writes the plan's name into each target's meta bucket.
func markTargets(dsts []*Store, plan string) error {
	for _, d := range dsts {
		err := d.update(func(tx *bbolt.Tx, _ func(func())) error {
			return tx.Bucket(bucketMeta).Put(reshardMark, []byte(plan))
		})
		if err != nil {
			return fmt.Errorf("store: reshard: mark target: %w", err)
		}
	}
	return nil
}

// verifyTargets verifies each written target (Verify, into rep.Targets)
// and checks that together they hold the sharded values of the sources:
// as many, with the same checksum.
func verifyTargets(to, tmps []string, rep *ReshardReport, srcSum [sha256.Size]byte) error {
	var dstSum [sha256.Size]byte
	sharded := 0
	for i, p := range tmps {
		sum, err := Verify(p)
		if err != nil {
			return fmt.Errorf("store: reshard: target %s: %w", to[i], err)
		}
		rep.Targets = append(rep.Targets, sum)
		n, err := sumShardedValues(p, &dstSum)
		if err != nil {
			return fmt.Errorf("store: reshard: target %s: %w", to[i], err)
		}
		sharded += n
	}
	if sharded != rep.Sharded || dstSum != srcSum {
		return fmt.Errorf("store: reshard: the targets hold %d values (checksum %x), the sources %d (%x): nothing was put in place",
			sharded, dstSum[:8], rep.Sharded, srcSum[:8])
	}
	return nil
}

// renameTargets puts the verified targets in place and syncs their
// directories.
func renameTargets(to, tmps []string, step func(string)) error {
	for i, p := range to {
		if err := os.Rename(tmps[i], p); err != nil {
			return fmt.Errorf("store: reshard: %w", err)
		}
		step("renamed " + strconv.Itoa(i))
	}
	for _, p := range to {
		if err := syncDir(dirOf(p)); err != nil {
			return fmt.Errorf("store: reshard: %w", err)
		}
	}
	return nil
}

func dirOf(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if os.IsPathSeparator(p[i]) {
			if i == 0 {
				return p[:1]
			}
			return p[:i]
		}
	}
	return "."
}

// reshardPlan names a resharding: the sources' contents (their bbolt
// transaction ids and sizes) and the target count.
func reshardPlan(srcs []*bbolt.DB, m int) (string, error) {
	h := sha256.New()
	for _, db := range srcs {
		err := db.View(func(tx *bbolt.Tx) error {
			var b [16]byte
			binary.BigEndian.PutUint64(b[:], uint64(tx.ID()))
			binary.BigEndian.PutUint64(b[8:], uint64(tx.Size()))
			h.Write(b[:])
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	fmt.Fprintf(h, "->%d", m)
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// reusableTarget refuses a target path that exists, unless it is the
// output of the same plan (a run killed while renaming).
func reusableTarget(p, plan string) error {
	fi, err := os.Stat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Size() > 0 {
		db, err := openBolt(p, &bbolt.Options{ReadOnly: true, Timeout: DefaultLockTimeout})
		if err == nil {
			var mark []byte
			_ = db.View(func(tx *bbolt.Tx) error {
				if b := tx.Bucket(bucketMeta); b != nil {
					mark = copyBytes(b.Get(reshardMark))
				}
				return nil
			})
			db.Close()
			if string(mark) == plan {
				return os.Remove(p)
			}
		}
	}
	return fmt.Errorf("%s: %w: write the new shards to new files", p, ErrReshardTarget)
}

// reshardItem is one value to place: its bucket path, key and value.
type reshardItem struct {
	path  [][]byte // bucket names, outermost first
	key   []byte
	value []byte
}

// addSum adds the item's hash to sum (an order-independent multiset hash:
// byte-wise sums of SHA-256 digests, mod 2^8 per byte of a 256-bit
// word, computed as four 64-bit lanes).
func addSum(sum *[sha256.Size]byte, it reshardItem) {
	h := sha256.New()
	for _, p := range it.path {
		fmt.Fprintf(h, "%d:%s/", len(p), p)
	}
	fmt.Fprintf(h, "%d:%s=", len(it.key), it.key)
	h.Write(it.value)
	d := h.Sum(nil)
	for i := 0; i < sha256.Size; i += 8 {
		a := binary.BigEndian.Uint64(sum[i:])
		binary.BigEndian.PutUint64(sum[i:], a+binary.BigEndian.Uint64(d[i:]))
	}
}

// copyShards copies every value of srcs into dsts.
func copyShards(srcs []*bbolt.DB, dsts []*Store, opt ReshardOptions, rep *ReshardReport, sum *[sha256.Size]byte) error {
	m := len(dsts)
	guildOfTable := opt.GuildOfTable
	if guildOfTable == nil {
		guildOfTable = func([]byte) string { return "" }
	}
	chanShard, err := channelShards(srcs, guildOfTable, m)
	if err != nil {
		return err
	}
	sh := sharding{m: m, chanShard: chanShard, items: make([][]reshardItem, m), rep: rep, sum: sum}
	for si, db := range srcs {
		err := db.View(func(tx *bbolt.Tx) error {
			return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
				return sh.collect(si, name, b)
			})
		})
		if err != nil {
			return err
		}
	}
	rep.Everywhere = len(sh.everywhere)
	for i, d := range dsts {
		if err := writeShard(d, append(sh.items[i], sh.everywhere...)); err != nil {
			return fmt.Errorf("write shard %d: %w", i, err)
		}
	}
	return nil
}

// channelShards returns the channels' shards, from their tables' guilds,
// for their timers and quarantined copies.
func channelShards(srcs []*bbolt.DB, guildOfTable func([]byte) string, m int) (map[string]int, error) {
	chanShard := map[string]int{}
	for _, db := range srcs {
		err := db.View(func(tx *bbolt.Tx) error {
			return tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
				payload, err := decodeFrame(v)
				if err != nil {
					return fmt.Errorf("games key %q: %w", k, err)
				}
				chanShard[string(k)] = ShardOf(guildOfTable(payload), m)
				return nil
			})
		})
		if err != nil {
			return nil, err
		}
	}
	return chanShard, nil
}

// sharding is the values of the sources by the target shard they go to,
// and those every target gets, as Reshard collects them.
type sharding struct {
	m          int
	chanShard  map[string]int // a channel's shard, by its table's guild
	items      [][]reshardItem
	everywhere []reshardItem
	rep        *ReshardReport
	sum        *[sha256.Size]byte
}

// place puts an item in one shard, counted and summed.
func (sh *sharding) place(shard int, it reshardItem) {
	sh.items[shard] = append(sh.items[shard], it)
	sh.rep.Sharded++
	addSum(sh.sum, it)
}

// collect places the values of the top-level bucket name of source si:
// each by its guild, the secrets (of shard 0) and buckets of no guild in
// every target.
func (sh *sharding) collect(si int, name []byte, b *bbolt.Bucket) error {
	top := copyBytes(name)
	m := sh.m
	switch string(name) {
	case string(bucketMeta):
		if si != 0 {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			if bytes.HasPrefix(k, []byte(secretPrefix)) {
				sh.everywhere = append(sh.everywhere, reshardItem{[][]byte{top}, copyBytes(k), copyBytes(v)})
			}
			return nil
		})
	case string(bucketGames):
		return b.ForEach(func(k, v []byte) error {
			sh.place(sh.chanShard[string(k)], reshardItem{[][]byte{top}, copyBytes(k), copyBytes(v)})
			return nil
		})
	case string(bucketGuilds), string(bucketDeparted):
		return b.ForEach(func(k, v []byte) error {
			sh.place(ShardOf(string(k), m), reshardItem{[][]byte{top}, copyBytes(k), copyBytes(v)})
			return nil
		})
	case string(bucketResults), string(bucketRecords):
		return b.ForEachBucket(func(g []byte) error {
			gb := b.Bucket(g)
			path := [][]byte{top, copyBytes(g)}
			return gb.ForEach(func(k, v []byte) error {
				sh.place(ShardOf(string(g), m), reshardItem{path, copyBytes(k), copyBytes(v)})
				return nil
			})
		})
	case string(bucketTimers):
		keys, due := b.Bucket(bucketKeys), b.Bucket(bucketDue)
		if keys == nil || due == nil {
			return nil
		}
		return keys.ForEach(func(k, at []byte) error {
			shard := sh.chanShard[string(k)]
			sh.place(shard, reshardItem{[][]byte{top, bucketKeys}, copyBytes(k), copyBytes(at)})
			dk := append(copyBytes(at), k...)
			if v := due.Get(dk); v != nil {
				sh.place(shard, reshardItem{[][]byte{top, bucketDue}, dk, copyBytes(v)})
			}
			return nil
		})
	case string(bucketQuarantine):
		return b.ForEach(func(k, v []byte) error {
			ch, _, _ := bytes.Cut(k, []byte("/"))
			sh.place(sh.chanShard[string(ch)], reshardItem{[][]byte{top}, copyBytes(k), copyBytes(v)})
			return nil
		})
	default:
		// A bucket of no guild (none today): every target keeps it.
		return copyEverywhere(&sh.everywhere, [][]byte{top}, b)
	}
}

// writeShard writes a target's values in one transaction. A key in two
// sources must hold the same value (the meta bucket's excepted); results
// go on numbering after the highest one moved.
func writeShard(d *Store, batch []reshardItem) error {
	return d.update(func(tx *bbolt.Tx, _ func(func())) error {
		for _, it := range batch {
			b, err := bucketPath(tx, it.path)
			if err != nil {
				return err
			}
			if old := b.Get(it.key); old != nil && !bytes.Equal(old, it.value) && !bytes.Equal(it.path[0], bucketMeta) {
				return fmt.Errorf("%s key %q is in two sources with different values", bytes.Join(it.path, []byte("/")), it.key)
			}
			if err := b.Put(it.key, it.value); err != nil {
				return err
			}
			if bytes.Equal(it.path[0], bucketResults) && len(it.key) == 8 {
				// Results are numbered by the bucket's sequence: go on
				// after the highest one moved.
				if n := binary.BigEndian.Uint64(it.key); n > b.Sequence() {
					if err := b.SetSequence(n); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
}

// copyEverywhere adds every value of b (nested buckets included) to out.
func copyEverywhere(out *[]reshardItem, path [][]byte, b *bbolt.Bucket) error {
	return b.ForEach(func(k, v []byte) error {
		if v == nil {
			return copyEverywhere(out, append(append([][]byte{}, path...), copyBytes(k)), b.Bucket(k))
		}
		*out = append(*out, reshardItem{path, copyBytes(k), copyBytes(v)})
		return nil
	})
}

// bucketPath returns the bucket at path, made if missing.
func bucketPath(tx *bbolt.Tx, path [][]byte) (*bbolt.Bucket, error) {
	b, err := tx.CreateBucketIfNotExists(path[0])
	if err != nil {
		return nil, err
	}
	for _, p := range path[1:] {
		if b, err = b.CreateBucketIfNotExists(p); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// sumShardedValues adds the values of the target at path that Reshard
// places by shard to sum, and counts them: what the sources' sum covers.
func sumShardedValues(path string, sum *[sha256.Size]byte) (int, error) {
	db, err := openBolt(path, &bbolt.Options{ReadOnly: true, Timeout: DefaultLockTimeout})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n := 0
	err = db.View(func(tx *bbolt.Tx) error {
		add := func(path [][]byte, k, v []byte) {
			addSum(sum, reshardItem{path, k, v})
			n++
		}
		for _, name := range [][]byte{bucketGames, bucketGuilds, bucketDeparted, bucketQuarantine} {
			if b := tx.Bucket(name); b != nil {
				b.ForEach(func(k, v []byte) error { add([][]byte{name}, k, v); return nil })
			}
		}
		for _, name := range [][]byte{bucketResults, bucketRecords} {
			if b := tx.Bucket(name); b != nil {
				b.ForEachBucket(func(g []byte) error {
					return b.Bucket(g).ForEach(func(k, v []byte) error { add([][]byte{name, g}, k, v); return nil })
				})
			}
		}
		if t := tx.Bucket(bucketTimers); t != nil {
			for _, sub := range [][]byte{bucketKeys, bucketDue} {
				if b := t.Bucket(sub); b != nil {
					b.ForEach(func(k, v []byte) error { add([][]byte{bucketTimers, sub}, k, v); return nil })
				}
			}
		}
		return nil
	})
	return n, err
}
