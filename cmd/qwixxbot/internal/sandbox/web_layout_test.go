package sandbox

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
)

// inView is true when the newest message of the channel is fully inside
// the channel's scroll box, the composer is on screen and the page is no
// taller than the window (the channel is the scroll box, not the page).
const inView = `(() => {
  const list = document.querySelector("#messages"), msgs = list.querySelectorAll(".msg");
  const last = msgs[msgs.length - 1], l = list.getBoundingClientRect(), r = last.getBoundingClientRect();
  const c = document.querySelector("#composer").getBoundingClientRect();
  return r.top >= l.top - 1 && r.bottom <= l.bottom + 1 &&
    c.top >= 0 && c.bottom <= innerHeight + 1 && c.right <= innerWidth + 1 &&
    document.scrollingElement.scrollHeight <= innerHeight + 1;
})()`

// inViewReport says where things are, for failure messages.
const inViewReport = `(() => {
  const list = document.querySelector("#messages"), msgs = list.querySelectorAll(".msg");
  const last = msgs[msgs.length - 1], l = list.getBoundingClientRect(), r = last.getBoundingClientRect();
  const c = document.querySelector("#composer").getBoundingClientRect();
  return "window " + innerWidth + "x" + innerHeight + ", page height " + document.scrollingElement.scrollHeight +
    ", list " + Math.round(l.top) + ".." + Math.round(l.bottom) + " scrollTop " + Math.round(list.scrollTop) + " of " + list.scrollHeight +
    ", newest " + last.dataset.id + " at " + Math.round(r.top) + ".." + Math.round(r.bottom) +
    ", composer " + Math.round(c.top) + ".." + Math.round(c.bottom) + "";
})()`

// settled waits two frames in the page (a resize observed in one frame is
// acted on by the next), then evaluates expr.
func settled(expr string) string {
	return `new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(() => ok(` + expr + `))))`
}

// botMessage has Anna run a command outside the page (as from another
// client) and waits until the page shows its answer with its pictures
// loaded; it returns the answer's ID.
func (w *webWorld) botMessage(t *testing.T, sub string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	m, err := players.Answer(ctx)(w.anna.Command(w.fw.srv.DefaultChannel(), "qwixx", sub, nil))
	if err != nil {
		t.Fatalf("/qwixx %s: %v", sub, err)
	}
	w.waitLoaded(t, "the answer to /qwixx "+sub+" on the page", fmt.Sprintf(
		`(e => e !== null && +e.dataset.version >= %d && [...e.querySelectorAll("img")].every(i => i.complete && i.naturalWidth > 0))(document.querySelector('.msg[data-id=%q]'))`,
		m.Version, m.ID))
	return m.ID
}

// endGame has Anna end the channel's game (outside the page) and waits
// until the page shows the answer.
func (w *webWorld) endGame(t *testing.T) {
	t.Helper()
	w.botMessage(t, "end")
}

// TestWebPageChannelFollowsAndJumps plays the channel at a phone's size
// (390 × 844) and at a desktop's (1280 × 800) in one browser: the page
// opens on the newest message; after each of 20 bot messages (text, and
// pictures that load after their message is drawn) the newest message is
// fully in view and the composer on screen, the channel being the page's
// only scroll box. Once the user scrolls up (the mouse wheel), a new
// message does not move the view, and a "Jump to present" bar appears,
// which brings the newest message back into view.
func TestWebPageChannelFollowsAndJumps(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	// A mix of answers: private games with their sheet's picture, short
	// texts (the stats) and the help.
	subs := []string{"solo", "stats", "help", "solo", "leaderboard"}
	for _, size := range []struct {
		name string
		w, h int64
	}{{"390x844", 390, 844}, {"1280x800", 1280, 800}} {
		t.Run(size.name, func(t *testing.T) {
			w.run(t, "resize the window", chromedp.EmulateViewport(size.w, size.h))
			// Open the page afresh: it shows the channel from its newest
			// message.
			w.run(t, "open the page", chromedp.Navigate(w.url+"/?as=Anna"),
				chromedp.WaitVisible(chromedp.CSS(`body[data-ready="`+w.anna.ID+`"]`)))
			if size.name == "1280x800" {
				w.waitLoaded(t, "the pictures", `[...document.querySelectorAll("#messages img")].every(i => i.complete)`)
				if !get(t, w, "the page opens on the newest message", chromedp.Evaluate[bool](settled(inView), chromedp.EvalAwaitPromise)) {
					t.Errorf("the page opened away from the newest message: %s", get(t, w, "where", chromedp.Evaluate[string](inViewReport)))
				}
			}
			followed := func(n int, what string) {
				t.Helper()
				if !get(t, w, "the newest message in view", chromedp.Evaluate[bool](settled(inView), chromedp.EvalAwaitPromise)) {
					t.Fatalf("after bot message %d (%s): the newest message is not fully in view: %s",
						n, what, get(t, w, "where", chromedp.Evaluate[string](inViewReport)))
				}
				w.check(t, "no jump bar while following", `document.querySelector("#jump").hidden`)
			}
			// Bot messages 1 and 2: a table opened and started on the page,
			// with a computer player (the table's picture loads after its
			// message is drawn).
			w.slash(t, "/qwixx n", "qwixx new", "/qwixx new", map[string]string{"variant": "0"})
			w.run(t, "the lobby", chromedp.WaitVisible(chromedp.CSS(`button[data-cid*=":join#"]`)))
			followed(1, "the lobby")
			w.run(t, "add a computer and start",
				chromedp.Click(chromedp.CSS(`button[data-cid*=":bot:easy#"]`)),
				chromedp.WaitVisible(chromedp.CSS(`button[data-cid*=":unbot#"]:not(:disabled)`)),
				chromedp.Click(chromedp.CSS(`button[data-cid*=":start#"]`)),
				chromedp.WaitVisible(chromedp.CSS(`button[data-cid*=":sheet#"]`)))
			w.waitLoaded(t, "the table's picture", `[...document.querySelectorAll(".msg:last-child img")].every(i => i.complete && i.naturalWidth > 0)`)
			followed(2, "the started table")
			w.endGame(t)
			for i := range 18 {
				id := w.botMessage(t, subs[i%len(subs)])
				followed(i+3, id+", /qwixx "+subs[i%len(subs)])
			}
			w.shot(t, "follow-"+size.name+"-bottom")

			// The user scrolls up with the mouse wheel.
			x := float64(size.w) * 0.7
			y := get(t, w, "the channel's middle", chromedp.Evaluate[float64](`(r => r.top + r.height / 2)(document.querySelector("#messages").getBoundingClientRect())`))
			// (A zero DeltaX would be left out, which the browser refuses.)
			w.run(t, "scroll up", chromedp.MouseEvent(chromedp.MouseWheel, x, y, func(p *input.DispatchMouseEventParams) { p.DeltaX, p.DeltaY = 0.001, -500 }))
			w.waitLoaded(t, "scrolled up, the jump bar", `document.querySelector("#messages").scrollTop > 0 && !document.querySelector("#jump").hidden`)
			// What the user sees: the first message whose top is in view, and
			// where.
			const seen = `(() => { const l = document.querySelector("#messages").getBoundingClientRect();
  const m = [...document.querySelectorAll("#messages .msg")].find(m => m.getBoundingClientRect().top >= l.top);
  return m.dataset.id + " at " + m.getBoundingClientRect().top; })()`
			before := get(t, w, "what the user sees", chromedp.Evaluate[string](settled(seen), chromedp.EvalAwaitPromise))
			id := w.botMessage(t, "solo")
			after := get(t, w, "what the user sees now", chromedp.Evaluate[string](settled(seen), chromedp.EvalAwaitPromise))
			if after != before {
				t.Errorf("a new message moved the view of a user who scrolled up: message %s → %s", before, after)
			}
			w.check(t, "the new message is below the view", fmt.Sprintf(`document.querySelector('.msg[data-id=%q]').getBoundingClientRect().top >= document.querySelector("#messages").getBoundingClientRect().bottom`, id))
			w.check(t, "the jump bar is shown", `!document.querySelector("#jump").hidden && document.querySelector("#jump").innerText.includes("Jump to present")`)
			w.shot(t, "follow-"+size.name+"-scrolled-up")
			w.run(t, "jump to present", chromedp.Click(chromedp.CSS("#jump")))
			w.waitLoaded(t, "back at the newest message", inView+` && document.querySelector("#jump").hidden`)
			// Following again: the next message is in view.
			w.botMessage(t, "stats")
			if !get(t, w, "the newest message in view", chromedp.Evaluate[bool](settled(inView), chromedp.EvalAwaitPromise)) {
				t.Fatalf("after jumping to present, a new message is not followed: %s", get(t, w, "where", chromedp.Evaluate[string](inViewReport)))
			}
		})
	}
}

// Issue 40: below 700 px the channel was no scroll box: the page grew to
// thousands of pixels, the composer far below, and the language menus were
// cut off. At 390 × 844 every control of the sidebar is on screen and
// within it.
func TestWebPageNarrowWindowShowsEveryControl(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	w.run(t, "resize the window", chromedp.EmulateViewport(390, 844))
	for range 8 {
		w.botMessage(t, "help")
	}
	w.check(t, "the page is no taller than the window", `document.scrollingElement.scrollHeight <= innerHeight + 1`)
	for _, sel := range []string{"#user-locale", "#guild-locale", "#user-name", `.user[data-user="Anna"]`, `.user[data-user="Ben"]`, "#input"} {
		w.check(t, sel+" on screen", fmt.Sprintf(`(() => {
  const r = document.querySelector(%q).getBoundingClientRect(), s = document.querySelector("#side").getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth &&
    (%q === "#input" || r.bottom <= s.bottom + 1);
})()`, sel, sel))
	}
	w.check(t, "the channel has room", `document.querySelector("#messages").clientHeight >= 844 / 2`)
	w.shot(t, "narrow-sidebar")
}

// markdownCases are texts as the bot (or anybody) writes them and the HTML
// the page must make of them, as Discord renders its markdown.
var markdownCases = []struct{ name, text, html string }{
	{"code block (the daily's share text)", "To share (no spoilers):\n```\nQwixx daily #12: 40 points · par 38\n🟥3 🟨4 🟩5🔒 🟦2 ✖\n🔥 3\n```",
		`<div class="line">To share (no spoilers):</div><div class="line"><pre class="codeblock"><code>Qwixx daily #12: 40 points · par 38` + "\n" + `🟥3 🟨4 🟩5🔒 🟦2 ✖` + "\n" + `🔥 3</code></pre></div>`},
	{"code block with a language", "```go\nx := a**b**\n```", `<div class="line"><pre class="codeblock" data-lang="go"><code>x := a**b**</code></pre></div>`},
	{"inline code keeps markup", "run `**x** <b>` now", `<div class="line">run <code>**x** &lt;b&gt;</code> now</div>`},
	{"emphasis", "**b** *i* _i_ __u__ ~~s~~ ***bi*** ||spoiler||",
		`<div class="line"><b>b</b> <i>i</i> <i>i</i> <u>u</u> <s>s</s> <b><i>bi</i></b> <span class="spoiler" title="spoiler">spoiler</span></div>`},
	{"no italics inside words", "snake_case_name and 2*3", `<div class="line">snake_case_name and 2*3</div>`},
	{"escaped markup", `\*not italic\* \_x\_`, `<div class="line">*not italic* _x_</div>`},
	{"headers and subtext", "# Big\n## Middle\n### Small\n-# fine print", `<div class="h1">Big</div><div class="h2">Middle</div><div class="h3">Small</div><div class="subtext">fine print</div>`},
	{"lists", "- a\n- b\n  - c\n1. one\n2. two", `<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul><ol><li>one</li><li>two</li></ol>`},
	{"block quotes", "> one\n> two\nout\n>>> rest\nof it", `<blockquote><div class="line">one</div><div class="line">two</div></blockquote><div class="line">out</div><blockquote><div class="line">rest</div><div class="line">of it</div></blockquote>`},
	{"masked and bare links", "[the rules](https://example.com/a_b?x=1&y=2) https://example.com/c_d",
		`<div class="line"><a href="https://example.com/a_b?x=1&amp;y=2" target="_blank" rel="noreferrer">the rules</a> <a href="https://example.com/c_d" target="_blank" rel="noreferrer">https://example.com/c_d</a></div>`},
	{"no script links", "[x](javascript:alert(1))", `<div class="line">[x](javascript:alert(1))</div>`},
	{"HTML is text", `<img src=x onerror="window.pwned=1"> & <script>window.pwned=2</script>`,
		`<div class="line">&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt; &amp; &lt;script&gt;window.pwned=2&lt;/script&gt;</div>`},
	{"HTML in code and links", "```\n</code><img src=x onerror=window.pwned=3>\n``` [<b>x</b>](https://e.com/\"onmouseover=\"window.pwned=4)",
		`<div class="line"><pre class="codeblock"><code>&lt;/code&gt;&lt;img src=x onerror=window.pwned=3&gt;</code></pre> <a href="https://e.com/&quot;onmouseover=&quot;window.pwned=4" target="_blank" rel="noreferrer">&lt;b&gt;x&lt;/b&gt;</a></div>`},
}

// Issue 40: the daily's share text showed its code fences on the page.
// The page renders the markdown Discord renders — code blocks and inline
// code, bold, italics, underline, strikethrough, spoilers, headers, lists,
// block quotes, links, timestamps and mentions — from escaped text, so no
// text becomes HTML. Checked on the renderer and on a drawn message.
func TestWebPageRendersDiscordMarkdown(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	for _, c := range markdownCases {
		got := get(t, w, "render "+c.name, chromedp.Evaluate[string](fmt.Sprintf(`markdown(%q)`, c.text)))
		if got != c.html {
			t.Errorf("%s: %q\n renders %s\n    want %s", c.name, c.text, got, c.html)
		}
	}
	// Mentions and timestamps, as the bot writes them.
	got := get(t, w, "render mentions", chromedp.Evaluate[string](fmt.Sprintf(`markdown("<@%s> and <@!%s> in <#%s> at <t:0:D>")`, w.anna.ID, w.ben.ID, w.fw.srv.DefaultChannel())))
	if want := `<div class="line"><span class="mention">@Anna</span> and <span class="mention">@Ben</span> in <span class="mention">#qwixx</span> at <span class="ts" data-t="0" data-s="D">`; !strings.HasPrefix(got, want) || !strings.Contains(got, "1970") {
		t.Errorf("mentions and timestamps render %s, want %s…1970", got, want)
	}
	// A message drawn on the page: the share text is a box without fences,
	// nothing of the hostile texts ran, spoilers open with a click.
	var all []string
	for _, c := range markdownCases {
		all = append(all, c.text)
	}
	w.run(t, "draw a message", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`upsert({id: "99999999999999999999", author: "qwixxbot", bot: true, content: %q,
  embeds: [], components: [], attachments: [], version: 1, time: Date.now()})`, strings.Join(all, "\n"))))
	w.waitLoaded(t, "the message drawn", `document.querySelector('.msg[data-id="99999999999999999999"] pre.codeblock') !== null`)
	w.check(t, "no code fences shown", `!document.querySelector('.msg[data-id="99999999999999999999"]').innerText.includes("`+"```"+`")`)
	w.check(t, "the share text in a box", `document.querySelector('.msg[data-id="99999999999999999999"] pre.codeblock').innerText.startsWith("Qwixx daily #12")`)
	w.check(t, "no hostile text ran", `window.pwned === undefined && document.querySelectorAll('.msg[data-id="99999999999999999999"] img, .msg[data-id="99999999999999999999"] script').length === 0`)
	w.check(t, "the spoiler is hidden", `getComputedStyle(document.querySelector('.msg[data-id="99999999999999999999"] .spoiler')).color === "rgba(0, 0, 0, 0)"`)
	w.run(t, "reveal the spoiler", chromedp.Click(chromedp.CSS(`.msg[data-id="99999999999999999999"] .spoiler`)))
	w.check(t, "the spoiler is shown", `document.querySelector('.msg[data-id="99999999999999999999"] .spoiler').classList.contains("shown")`)
	w.shot(t, "markdown")

	// The daily challenge played to its end (Anna passes every action, so
	// four misthrows end it, RULES D6, D9): its share text is a code box on
	// the page, without the fences.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	answer := players.Answer(ctx)
	// An interaction that fails (the bot too slow on a loaded machine) is
	// made again, as a person clicks again.
	var m *discordtest.Message
	for i := 0; m == nil || !strings.Contains(m.Content, "```"); i++ {
		if i == 60 {
			t.Fatalf("the daily challenge did not end after 60 clicks:\n%+v", m)
		}
		var got *discordtest.Message
		var err error
		if m == nil {
			got, err = answer(w.anna.Command(w.fw.srv.DefaultChannel(), "qwixx", "daily", nil))
		} else {
			if now, ok := w.fw.srv.Message(m.ID); ok {
				if m = now; strings.Contains(m.Content, "```") {
					break
				}
			}
			got, err = answer(w.anna.Click(m, buttonID(t, m, ":pass")))
		}
		if err != nil {
			t.Logf("daily challenge, click %d: %v; again", i, err)
			continue
		}
		m = got
	}
	sel := fmt.Sprintf(`.msg[data-id=%q]`, m.ID)
	w.waitFor(t, "the daily's summary on the page", fmt.Sprintf(`(e => e !== null && +e.dataset.version >= %d)(document.querySelector(%q))`, m.Version, sel))
	w.check(t, "the share text in a box", fmt.Sprintf(`document.querySelector(%q).innerText.includes("Qwixx daily #")`, sel+" pre.codeblock"))
	w.check(t, "no code fences shown", fmt.Sprintf(`!document.querySelector(%q).innerText.includes("`+"```"+`")`, sel))
	w.run(t, "show the summary", chromedp.ScrollIntoView(chromedp.CSS(sel+" pre.codeblock")))
	w.shot(t, "daily-share")
}

// Issue 40: the sandbox could not rename its players, so right-to-left and
// Indic names could not be tried in the pictures. Anna takes an Arabic
// name on the page; the bot seats her under it (the names in the pictures
// are the seats'), and a name another player has, or an empty one, is
// refused with a message.
func TestWebPageRenamesPlayers(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	const name = "ليلى"
	w.run(t, "type a new name", clearField("#user-name"), chromedp.SendKeys(chromedp.CSS("#user-name"), name+"\r"))
	w.waitFor(t, "the sidebar shows the new name", fmt.Sprintf(`document.querySelector('.user.me[data-user=%q]') !== null`, name))
	w.waitFor(t, "the composer plays as the new name", fmt.Sprintf(`document.querySelector("#input").placeholder.includes(%q)`, name))
	// Anna opens a table on the page with a computer player and plays it
	// to its end: the game kept names her by her new name (the names in
	// the pictures are the seats').
	w.slash(t, "/qwixx n", "qwixx new", "/qwixx new", map[string]string{"variant": "0"})
	w.run(t, "add a computer and start",
		chromedp.Click(chromedp.CSS(`button[data-cid*=":bot:easy#"]`)),
		chromedp.WaitVisible(chromedp.CSS(`button[data-cid*=":unbot#"]:not(:disabled)`)),
		chromedp.Click(chromedp.CSS(`button[data-cid*=":start#"]`)),
		chromedp.WaitVisible(chromedp.CSS(`button[data-cid*=":sheet#"]`)))
	w.playToTheEnd(t, name)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ch := w.fw.srv.DefaultChannel()
	it, err := w.anna.Autocomplete(ch, "qwixx", "record", map[string]any{"game": ""}, "game")
	if err == nil {
		err = it.Wait(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	choices := it.AutocompleteChoices()
	if len(choices) == 0 {
		t.Fatal("no game kept")
	}
	if game := fmt.Sprint(choices[0]["name"]); !strings.Contains(game, name) || strings.Contains(game, "Anna") {
		t.Errorf("the game kept is %q, want it played by %s", game, name)
	}
	// Ben takes a Devanagari name through the page's API: the page lists
	// him so, and the fake Discord calls him so.
	res := postJSON(t, w.url+"/api/rename", map[string]string{"user": w.ben.ID, "name": "अर्जुन"})
	if res["ok"] != true {
		t.Fatalf("rename Ben: %v", res)
	}
	if w.ben.Name != "अर्जुन" {
		t.Errorf("the fake calls Ben %q", w.ben.Name)
	}
	// Refused: another player's name, an empty one, and over 32 characters.
	// (The page's field takes at most 32 characters.)
	w.run(t, "reload the page", chromedp.Navigate(w.url+"/?as="+url.QueryEscape(name)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="`+w.anna.ID+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.user[data-user="अर्जुन"]`)))
	for _, bad := range []string{"अर्जुन", " ", strings.Repeat("x", 33)} {
		if len(bad) <= 32 {
			w.run(t, "type a refused name", clearField("#user-name"), chromedp.SendKeys(chromedp.CSS("#user-name"), bad+"\r"))
			w.waitFor(t, "the refusal of "+bad, `/is called|1 to 32/.test(document.querySelector("#toast").textContent) && !document.querySelector("#toast").hidden`)
			w.run(t, "clear the message", chromedp.Evaluate[chromedp.Void](`document.querySelector("#toast").textContent = ""`))
		}
		if res := postJSON(t, w.url+"/api/rename", map[string]string{"user": w.anna.ID, "name": bad}); res["error"] == nil {
			t.Errorf("the page's server renamed Anna %q", bad)
		}
	}
	w.check(t, "Anna keeps her name", fmt.Sprintf(`document.querySelector('.user.me').dataset.user === %q`, name))
}

// clearField empties a text field.
func clearField(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).value = ""`, sel))
}

// buttonID finds the custom ID of the message's button whose ID contains
// part.
func buttonID(t *testing.T, m *discordtest.Message, part string) string {
	t.Helper()
	var find func([]discordtest.Component) string
	find = func(cs []discordtest.Component) string {
		for _, c := range cs {
			if strings.Contains(c.CustomID, part) {
				return c.CustomID
			}
			if id := find(c.Components); id != "" {
				return id
			}
		}
		return ""
	}
	id := find(m.Components)
	if id == "" {
		t.Fatalf("no button %s in %+v", part, m.Components)
	}
	return id
}
