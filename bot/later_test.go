package bot

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/session"
)

// laterStore is memStore with writes made later (session.LaterTables), as
// store.Store makes them: read at once, and in the map (on disk) once a
// durable write comes after them; crash drops those still waiting.
type laterStore struct {
	*memStore
	mu      sync.Mutex
	pending map[string][]byte
	later   int // PutLater calls
	durable int // Update calls
}

var _ session.LaterTables = (*laterStore)(nil)

func (s *laterStore) PutLater(ctx context.Context, key string, blob []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending == nil {
		s.pending = map[string][]byte{}
	}
	s.pending[key] = slices.Clone(blob)
	s.later++
	return nil
}

func (s *laterStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	s.mu.Lock()
	b, ok := s.pending[key]
	s.mu.Unlock()
	if ok {
		return slices.Clone(b), true, ctx.Err()
	}
	return s.memStore.Get(ctx, key)
}

func (s *laterStore) GetUnless(ctx context.Context, key string, have []byte) ([]byte, bool, bool, error) {
	s.mu.Lock()
	b, ok := s.pending[key]
	s.mu.Unlock()
	if ok {
		if have != nil && bytes.Equal(b, have) {
			return nil, true, true, ctx.Err()
		}
		return slices.Clone(b), true, false, ctx.Err()
	}
	return s.memStore.GetUnless(ctx, key, have)
}

// Update writes the writes made later first, as a group commit does.
func (s *laterStore) Update(ctx context.Context, key string, fn func([]byte, bool) ([]byte, bool, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.durable++
	s.memStore.mu.Lock()
	if s.memStore.m == nil {
		s.memStore.m = map[string][]byte{}
	}
	maps.Copy(s.memStore.m, s.pending)
	s.memStore.mu.Unlock()
	clear(s.pending)
	return s.memStore.Update(ctx, key, fn)
}

func (s *laterStore) ForEach(ctx context.Context, fn func(string, []byte, error) error) error {
	s.mu.Lock()
	pending := maps.Clone(s.pending)
	s.mu.Unlock()
	return s.memStore.ForEach(ctx, func(k string, v []byte, err error) error {
		if b, ok := pending[k]; ok {
			v = b
		}
		return fn(k, v, err)
	})
}

// crash drops the writes made later that no durable write took to disk,
// and says how many.
func (s *laterStore) crash() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.pending)
	clear(s.pending)
	return n
}

// The reconciler's records of requests whose repeat does no harm (edits,
// shrinks, the post of a turn whose intent is stored) are written later,
// not waiting for a commit of their own; a crash that loses them makes
// the next start redo those requests, and the channel ends as it would
// have: the live message shows the current state, no turn is posted
// twice, and the stored table knows what the channel shows.
func TestRecordsWrittenLaterAreRedoneAfterACrash(t *testing.T) {
	// After the white dice's decisions (the live message's edit is lost),
	// and after a turn's last decision (the next turn's post and the last turn's
	// shrink are lost).
	for _, decisions := range []int{2, 0} {
		t.Run(fmt.Sprintf("%d decisions into the turn", decisions), func(t *testing.T) { recordsRedone(t, decisions) })
	}
}

var turnRE = regexp.MustCompile(`\*\*Turn \d+\*\*`)

func recordsRedone(t *testing.T, decisions int) {
	h := newHarness(t)
	ls := &laterStore{memStore: h.st}
	h.use(ls, nil)
	h.startTwo("dice")
	pass := func(user string) {
		tbl := h.dc.lastTable(testChannel)
		bs := buttons(tbl.Components, "Pass")
		if len(bs) == 0 {
			t.Fatalf("no Pass button for %s on %q", user, tbl.Content)
		}
		h.click(user, bs[0], tbl)
		h.bot.Idle()
	}
	// A turn: both players decide on the white dice, then the active
	// player on a colour.
	turnOrder := func() []string {
		act := h.table().Seats[h.table().Game.Active()].UserID
		return []string{"anna", "ben", act}
	}
	for range 3 {
		for _, u := range turnOrder() {
			pass(u)
		}
	}
	for _, u := range turnOrder()[:decisions] {
		pass(u)
	}
	if ls.later == 0 {
		t.Fatalf("no record was written later (%d durable writes)", ls.durable)
	}
	shown := h.table().Shown
	lost := ls.crash()
	if lost == 0 {
		t.Fatal("nothing waited for a durable write at the crash: the test proves nothing")
	}
	stored, err := session.Decode(h.st.m[testChannel])
	if err != nil {
		t.Fatal(err)
	}
	if stored.Shown.Rev == shown.Rev && len(stored.Shown.Past) == len(shown.Past) && stored.Shown.Msg == shown.Msg {
		t.Fatalf("the crash lost no record: stored %+v, shown %+v", stored.Shown, shown)
	}
	if decisions == 0 && stored.Shown.Posting == "" {
		t.Fatalf("the turn's post is not stored as intended: %+v", stored.Shown)
	}
	posts, live := h.dc.posts+h.dc.followups, h.dc.lastTable(testChannel)
	turn := turnRE.FindString(live.Content)
	if turn == "" {
		t.Fatalf("the live message names no turn: %q", live.Content)
	}
	turnMsgs := func() int {
		n := 0
		for _, m := range h.dc.channel[testChannel] {
			if strings.Contains(m.Content, turn) {
				n++
			}
		}
		return n
	}
	if n := turnMsgs(); n != 1 {
		t.Fatalf("%s shown %d times before the crash", turn, n)
	}

	h.bot = h.newBot()
	if err := h.bot.Start(); err != nil {
		t.Fatal(err)
	}
	h.bot.Idle()
	after := h.table().Shown
	if after.Msg != live.ID || after.Rev != shown.Rev || after.Pic != shown.Pic || len(after.Past) != 0 || after.Posting != "" {
		t.Fatalf("after the restart the table shows %+v; before the crash %+v (live message %s)", after, shown, live.ID)
	}
	if got := turnMsgs(); got != 1 || h.dc.posts+h.dc.followups != posts {
		t.Fatalf("%s shown %d times, %d posts since the restart", turn, got, h.dc.posts+h.dc.followups-posts)
	}
	if strings.Contains(h.logs.String(), "not converged") {
		t.Fatal(h.logs.String())
	}
	// The game goes on from there: the turn ends, the next is posted once.
	for _, u := range turnOrder()[decisions:] {
		pass(u)
	}
	next := turnRE.FindString(h.dc.lastTable(testChannel).Content)
	n := 0
	for _, m := range h.dc.channel[testChannel] {
		if strings.Contains(m.Content, next) {
			n++
		}
	}
	if next == turn || n != 1 {
		t.Fatalf("after %s, %s shown %d times", turn, next, n)
	}
}
