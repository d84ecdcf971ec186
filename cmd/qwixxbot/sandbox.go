package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/render"
)

var sandboxNames = []string{"Anna", "Ben", "Chloé", "Dörte", "Émile"}

// sandboxResult is what a sandbox run produced.
type sandboxResult struct {
	Results string // the results message
	Moves   int    // clicks that made a move
	Images  int    // files saved
	// SchemaViolations counts request bodies that failed Discord's schema;
	// MaxTokenAge is the oldest interaction token the bot used.
	SchemaViolations int
	MaxTokenAge      time.Duration
}

// runSandbox starts the built-in fake Discord in this process, runs the real
// bot against it and lets simulated players play a whole game. Everything
// they see goes to a transcript and every image to a folder.
func runSandbox(ctx context.Context, cfg config.Config, log zerolog.Logger, stdout io.Writer) error {
	res, err := sandbox(ctx, cfg, log)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n\nsandbox: %d moves; transcript %s, %d images in %s\n",
		res.Results, res.Moves, filepath.Join(cfg.Sandbox.OutDir, "transcript.txt"), res.Images, filepath.Join(cfg.Sandbox.OutDir, "images"))
	return nil
}

func sandbox(ctx context.Context, cfg config.Config, log zerolog.Logger) (*sandboxResult, error) {
	fw, err := startFake(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	defer fw.close()
	srv := fw.srv
	seed := uint64(time.Now().UnixNano())
	if cfg.Sandbox.Seed != nil {
		seed = uint64(*cfg.Sandbox.Seed)
	}
	p := &players{srv: srv, ch: srv.DefaultChannel(), view: newChannelView(srv, srv.DefaultChannel()), rnd: rand.New(rand.NewPCG(seed, 1))}
	for _, n := range sandboxNames[:cfg.Sandbox.Players] {
		p.users = append(p.users, srv.AddUser(n, "en-US"))
	}
	res, err := p.playGame(ctx, cfg.Sandbox.Variant)
	if res != nil {
		for _, u := range p.users {
			res.Results = strings.ReplaceAll(res.Results, "<@"+u.ID+">", u.Name)
		}
		res.SchemaViolations = len(srv.SchemaViolations())
		res.MaxTokenAge = srv.MaxTokenAge()
	}
	if berr := fw.stop(); berr != nil && err == nil {
		err = berr
	}
	if err != nil {
		return nil, err
	}
	files, _ := os.ReadDir(fw.images)
	res.Images = len(files)
	return res, nil
}

// fakeWorld is the built-in fake Discord with the real bot connected to it,
// writing its transcript and pictures to the sandbox's folder.
type fakeWorld struct {
	srv    *discordtest.Server
	images string // the folder of the uploaded pictures
	tf     *os.File
	unlock func() // frees the sandbox's folder
	cancel context.CancelFunc
	done   chan error
	err    error
	bot    *bot.Bot
}

// startFake starts the fake Discord and the bot (serve, as in production)
// against it, and returns once the bot is connected and has registered its
// commands.
//
// The folder is the sandbox's alone while it runs (lockOutDir): a second
// sandbox on the same folder stops with a clear error before touching it.
// Each run starts afresh (its database, transcript and pictures of an
// earlier run are deleted), and a long run stays bounded: the fake keeps
// the newest sandboxHistory messages, events, interactions and pictures,
// and the picture caches are sized for one table.
func startFake(ctx context.Context, cfg config.Config, log zerolog.Logger) (*fakeWorld, error) {
	out := cfg.Sandbox.OutDir
	unlock, err := lockOutDir(out)
	if err != nil {
		return nil, err
	}
	images := filepath.Join(out, "images")
	os.RemoveAll(images)
	if err := os.MkdirAll(images, 0o755); err != nil {
		unlock()
		return nil, fmt.Errorf("sandbox folder: %w", err)
	}
	tf, err := os.Create(filepath.Join(out, "transcript.txt"))
	if err != nil {
		unlock()
		return nil, fmt.Errorf("sandbox transcript: %w", err)
	}
	srv, err := discordtest.NewServer(discordtest.Options{Token: "sandbox-token", Transcript: tf, AttachmentDir: images, History: sandboxHistory})
	if err != nil {
		tf.Close()
		unlock()
		return nil, fmt.Errorf("start fake discord: %w", err)
	}
	if cfg.Store.Path != config.Default().Store.Path {
		log.Warn().Str("store_path", cfg.Store.Path).Msg("the sandbox keeps its games in its own folder, not in store.path: that is the real bot's database")
	}
	cfg.Discord.Token = config.NewSecret(srv.Token())
	cfg.Discord.BaseURL = "https://discord.com" // srv.Transport sends it to the fake
	cfg.Store.Path = filepath.Join(out, "sandbox.db")
	os.Remove(cfg.Store.Path)
	render.SetBandBudget(sandboxPictureBudget)

	if log.GetLevel() == zerolog.InfoLevel {
		// The console of a sandbox starts with the page's address: the
		// bot's routine news (a fresh database's migrations, the fake
		// application's invite link) are in the transcript, not there.
		log = log.Level(zerolog.WarnLevel)
	}
	bctx, cancel := context.WithCancel(ctx)
	fw := &fakeWorld{srv: srv, images: images, tf: tf, unlock: unlock, cancel: cancel, done: make(chan error, 1)}
	ready := make(chan *bot.Bot, 1)
	go func() {
		fw.done <- serve(bctx, cfg, log, serveOptions{transport: srv.Transport(), pictureBudget: sandboxPictureBudget, ready: func(b *bot.Bot) { ready <- b }})
	}()
	select {
	case fw.bot = <-ready:
		return fw, nil
	case err := <-fw.done:
		fw.done <- err
		fw.close()
		return nil, fmt.Errorf("bot stopped: %w", err)
	case <-time.After(30 * time.Second):
		fw.close()
		return nil, errors.New("bot did not connect to the fake discord")
	}
}

// stop stops the bot and returns what serve returned (nil for a clean
// stop). It may be called more than once.
func (fw *fakeWorld) stop() error {
	if fw.done != nil {
		fw.cancel()
		fw.err = <-fw.done
		fw.done = nil
		if errors.Is(fw.err, context.Canceled) {
			fw.err = nil
		}
	}
	return fw.err
}

// close stops the bot and the fake Discord, and frees the folder.
func (fw *fakeWorld) close() {
	fw.stop()
	fw.srv.Close()
	fw.tf.Close()
	if fw.unlock != nil {
		fw.unlock()
		fw.unlock = nil
	}
}

// sandboxHistory is how much of its history the sandbox's fake Discord
// keeps (discordtest.Options.History): the page shows the newest messages,
// and nothing older is ever needed.
const sandboxHistory = 250

// sandboxPictureBudget bounds each picture cache of the sandbox (finished
// pictures, compressed bands): room for the table, sheets and hands of one
// game.
const sandboxPictureBudget = 4 << 20

// players are simulated people: they see only what Discord would show them
// and act by clicking.
type players struct {
	srv   *discordtest.Server
	ch    string
	users []*discordtest.User
	view  *channelView // the public messages of ch
	rnd   *rand.Rand
	// pace, if set, runs before each look at the channel during the game
	// (people take seconds to click; a test can wait for the bot to show
	// each state).
	pace func()
	// acted holds, by user, the state (stateOf) of the table message they
	// last made a move in: people remember that they have decided, even
	// while the table still lists them as waiting.
	acted map[string]string
	// look and wait, if set, replace the channel view and the server-wide
	// wait (the load harness follows many channels through one hook).
	look func() (table, results *discordtest.Message)
	wait func(ctx context.Context, seen *discordtest.Message)
	// answered, if set, sees every interaction the players started once it
	// was answered or failed.
	answered func(it *discordtest.Interaction)
	// moved, if set, is told of every move made.
	moved func()
}

// answer waits for the response to an interaction the players started.
func (p *players) answer(ctx context.Context) func(*discordtest.Interaction, error) (*discordtest.Message, error) {
	return func(it *discordtest.Interaction, err error) (*discordtest.Message, error) {
		m, err := awaitAnswer(ctx, it, err)
		if it != nil && p.answered != nil {
			p.answered(it)
		}
		return m, err
	}
}

// answer waits for the response to an interaction: answer(ctx)(u.Click(…)).
func answer(ctx context.Context) func(*discordtest.Interaction, error) (*discordtest.Message, error) {
	return func(it *discordtest.Interaction, err error) (*discordtest.Message, error) {
		return awaitAnswer(ctx, it, err)
	}
}

// errGone means the clicked message or button is no longer there (the bot
// moved on to a newer message): a person would look at the channel again.
var errGone = errors.New("that button is gone")

func awaitAnswer(ctx context.Context, it *discordtest.Interaction, err error) (*discordtest.Message, error) {
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errGone, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	// The interaction's own signal first (cheap with many waiting), then
	// the message, which a deferred answer fills in later.
	if err := it.Wait(wctx); err != nil && !errors.Is(err, discordtest.ErrInteractionFailed) {
		return nil, fmt.Errorf("no answer: %w", err)
	}
	m, ok := it.Response()
	if !ok || m.Loading() {
		m, err = it.WaitResponse(wctx)
	}
	if err != nil {
		return nil, fmt.Errorf("no answer: %w", err)
	}
	if it.Failed() {
		return nil, errors.New("the interaction failed")
	}
	return m, nil
}

// idWith finds a component custom_id with the verb.
func idWith(m *discordtest.Message, verb string) string {
	for _, id := range m.CustomIDs() {
		if strings.Contains(id, ":"+verb) {
			return id
		}
	}
	return ""
}

// isAck reports whether an answer's text confirms a move.
func isAck(content string) bool {
	return strings.Contains(content, "You chose") || strings.Contains(content, "You passed")
}

// waitsFor reports whether the table message waits for u's decision.
func waitsFor(table *discordtest.Message, u *discordtest.User) bool {
	for _, line := range strings.Split(table.Content, "\n") {
		if strings.HasPrefix(line, "Waiting for") {
			return strings.Contains(line, "<@"+u.ID+">")
		}
	}
	return false
}

// tableMoves lists the table message's buttons that make a move.
func tableMoves(table *discordtest.Message) []string {
	var ids []string
	for _, id := range table.CustomIDs() {
		if !strings.Contains(id, ":sheet") && !strings.Contains(id, ":hand") {
			ids = append(ids, id)
		}
	}
	return ids
}

// playGame opens a table, seats everybody, starts and plays to the end.
func (p *players) playGame(ctx context.Context, variant string) (*sandboxResult, error) {
	host := p.users[0]
	// The last game's results stay the newest message in the channel
	// until this game's table is posted: they are not this game's end.
	var before string
	if _, old := p.current(ctx); old != nil {
		before = old.ID
	}
	lobby, err := p.answer(ctx)(host.Command(p.ch, "qwixx", "new", map[string]any{"variant": variant}))
	if err != nil {
		return nil, fmt.Errorf("/qwixx new: %w", err)
	}
	if lobby.Ephemeral() { // refused, with a reason only the host sees
		return nil, fmt.Errorf("/qwixx new refused: %q", lobby.Content)
	}
	for _, u := range p.users[1:] {
		if lobby, err = p.answer(ctx)(u.Click(lobby, idWith(lobby, "join"))); err != nil {
			return nil, fmt.Errorf("join: %w", err)
		}
	}
	if _, err := p.answer(ctx)(host.Click(lobby, idWith(lobby, "start"))); err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	res := &sandboxResult{}
	var lastGone error // why the last look found nothing to click
	// Nothing to do for 15 s (150 looks) is a stall: longer than Discord's
	// per-channel limits ever hold the bot's next message back (5 s).
	for idle := 0; idle < 150; {
		if p.pace != nil {
			p.pace()
		}
		table, results := p.current(ctx)
		if results != nil && (results.ID == before || !newerID(results.ID, lobby.ID)) {
			// An earlier game's results (the bot takes their Play again
			// button off once this table is open; the channel may show
			// them a moment longer): this game has not ended.
			idle++
			p.awaitChange(ctx, results)
			continue
		}
		if results != nil {
			res.Results = results.Content
			return res, nil
		}
		if table == nil {
			idle++
			p.awaitChange(ctx, table)
			continue
		}
		moved := false
		for _, u := range p.users {
			ok, err := p.act(ctx, u, table)
			if errors.Is(err, errGone) {
				lastGone = fmt.Errorf("%s: %w", u.Name, err)
				break // look at the channel again
			}
			if err != nil {
				return nil, err
			}
			if ok {
				moved = true
				res.Moves++
				if p.moved != nil {
					p.moved()
				}
				break
			}
		}
		if !moved {
			idle++
			p.awaitChange(ctx, table)
		} else {
			idle = 0
		}
	}
	if lastGone != nil {
		return nil, fmt.Errorf("the game stalled: nobody could act (last: %v)", lastGone)
	}
	return nil, errors.New("the game stalled: nobody could act")
}

// awaitChange waits until the message seen (a table or the last game's
// results) is no longer the current one (a newer one, another version,
// other results) or a short while has passed: a
// person looks again when something happens, without polling.
func (p *players) awaitChange(ctx context.Context, seen *discordtest.Message) {
	key := func(m *discordtest.Message) string {
		if m == nil {
			return ""
		}
		return fmt.Sprintf("%s/%d", m.ID, m.Version)
	}
	if p.wait != nil {
		p.wait(ctx, seen)
		return
	}
	was := key(seen)
	wctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_ = p.srv.Wait(wctx, func() bool {
		table, results := p.current(ctx)
		if results != nil {
			return key(results) != was
		}
		return key(table) != was
	})
}

// newerID reports whether snowflake a was made after b (snowflakes grow
// with time; as decimal strings, a longer one is larger).
func newerID(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}

// current returns the newest table message, or the results message.
func (p *players) current(ctx context.Context) (table, results *discordtest.Message) {
	if p.look != nil {
		return p.look()
	}
	ms := p.view.messages()
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if m.Ephemeral() || m.AuthorID != p.srv.BotUserID() {
			continue
		}
		if idWith(m, "again") != "" {
			return nil, m
		}
		if idWith(m, "sheet") != "" {
			return m, nil
		}
	}
	return nil, nil
}

// act lets user u do something if they can: choose among the legal
// choices their private sheet offers, or build a card play in their hand.
func (p *players) act(ctx context.Context, u *discordtest.User, table *discordtest.Message) (bool, error) {
	if !waitsFor(table, u) || p.acted[u.ID] == stateOf(table) {
		return false, nil
	}
	moved, err := p.move(ctx, u, table)
	if moved {
		if p.acted == nil {
			p.acted = map[string]string{}
		}
		p.acted[u.ID] = stateOf(table)
	}
	return moved, err
}

// stateOf names the state a table message's buttons were made for: the
// message and the stamp in its custom_ids.
func stateOf(table *discordtest.Message) string {
	for _, id := range table.CustomIDs() {
		if f := strings.SplitN(id, ":", 4); len(f) == 4 {
			return table.ID + ":" + f[2]
		}
	}
	return table.ID
}

// move makes one move for u on the table if u can.
func (p *players) move(ctx context.Context, u *discordtest.User, table *discordtest.Message) (bool, error) {
	// Mostly the table's own buttons, as people use them; one that is not
	// a choice for u is refused privately, and u looks at the sheet.
	if ids := tableMoves(table); len(ids) > 0 && p.rnd.IntN(4) != 0 {
		it, err := u.Click(table, ids[p.rnd.IntN(len(ids))])
		m, err := p.answer(ctx)(it, err)
		if err != nil {
			return false, err
		}
		// The table message shows the move (an update of it answers the
		// click), or a private confirmation does.
		if it.CallbackType() == 7 || isAck(m.Content) {
			return true, nil
		}
		// Refused: the answer says why and offers u's own choices.
		if ids := withoutHints(m.CustomIDs()); len(ids) > 0 {
			return confirmed(p.answer(ctx)(u.Click(m, ids[p.rnd.IntN(len(ids))])))
		}
	}
	sheet, err := p.answer(ctx)(u.Click(table, idWith(table, "sheet")))
	if err != nil {
		return false, fmt.Errorf("%s opens the sheet: %w", u.Name, err)
	}
	if ids := withoutHints(sheet.CustomIDs()); len(ids) > 0 {
		return confirmed(p.answer(ctx)(u.Click(sheet, ids[p.rnd.IntN(len(ids))])))
	}
	hid := idWith(table, "hand")
	if hid == "" {
		return false, nil
	}
	hand, err := p.answer(ctx)(u.Click(table, hid))
	if err != nil {
		return false, fmt.Errorf("%s opens the hand: %w", u.Name, err)
	}
	pick := idWith(hand, "pick")
	if pick == "" {
		return false, nil
	}
	c, _ := hand.Component(pick)
	opt := c.Options[p.rnd.IntN(len(c.Options))]
	m, err := p.answer(ctx)(u.Select(hand, pick, opt.Value))
	if err != nil {
		return false, err
	}
	if as := idWith(m, "as"); as != "" {
		if m, err = p.answer(ctx)(u.Select(m, as, "red")); err != nil {
			return false, err
		}
	}
	if cr := idWith(m, "cross"); cr != "" && p.rnd.IntN(2) == 0 {
		c, _ := m.Component(cr)
		// The view now shows this choice, allowed or not (then crossing
		// nothing below).
		if m, err = p.answer(ctx)(u.Select(m, cr, c.Options[0].Value)); err != nil {
			return false, err
		}
	}
	play := idWith(m, "play")
	if comp, ok := m.Component(play); !ok || comp.Disabled {
		if cr := idWith(m, "cross"); cr != "" {
			if m, err = p.answer(ctx)(u.Select(m, cr)); err != nil {
				return false, err
			}
			play = idWith(m, "play")
		}
	}
	return confirmed(p.answer(ctx)(u.Click(m, play)))
}

// withoutHints leaves out the hint buttons: the simulated players choose
// for themselves.
func withoutHints(ids []string) []string {
	return slices.DeleteFunc(ids, func(id string) bool { return strings.Contains(id, ":hint") })
}

// confirmed reports whether a private answer confirms a move.
func confirmed(m *discordtest.Message, err error) (bool, error) {
	return err == nil && isAck(m.Content), err
}
