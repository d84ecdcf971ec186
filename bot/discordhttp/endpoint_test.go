package discordhttp

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot"
)

// recordedHook is one webhook request the endpoint made after a deferral.
type recordedHook struct {
	route  string // "edit", "delete" or "followup"
	edit   *discordgo.WebhookEdit
	params *discordgo.WebhookParams
}

// hookRecorder is a Webhooks that records its calls.
type hookRecorder struct {
	mu    sync.Mutex
	calls []recordedHook
	done  chan struct{} // one send per call
}

func newHookRecorder() *hookRecorder { return &hookRecorder{done: make(chan struct{}, 16)} }

func (h *hookRecorder) add(c recordedHook) {
	h.mu.Lock()
	h.calls = append(h.calls, c)
	h.mu.Unlock()
	h.done <- struct{}{}
}

func (h *hookRecorder) InteractionResponseEdit(_ *discordgo.Interaction, e *discordgo.WebhookEdit, _ ...discordgo.RequestOption) (*discordgo.Message, error) {
	h.add(recordedHook{route: "edit", edit: e})
	return &discordgo.Message{}, nil
}

func (h *hookRecorder) InteractionResponseDelete(_ *discordgo.Interaction, _ ...discordgo.RequestOption) error {
	h.add(recordedHook{route: "delete"})
	return nil
}

func (h *hookRecorder) FollowupMessageCreate(_ *discordgo.Interaction, _ bool, p *discordgo.WebhookParams, _ ...discordgo.RequestOption) (*discordgo.Message, error) {
	h.add(recordedHook{route: "followup", params: p})
	return &discordgo.Message{}, nil
}

// endpointRig is an Endpoint on loopback with a fresh key pair.
type endpointRig struct {
	e    *Endpoint
	url  string
	addr string
	priv ed25519.PrivateKey
	hook *hookRecorder
	// calls counts the interactions handed to the bot.
	mu    sync.Mutex
	calls int
}

// newEndpointRig serves an endpoint whose bot answers with handle.
func newEndpointRig(t *testing.T, handle func(i *discordgo.Interaction, to bot.Answerer), tune func(e *Endpoint)) *endpointRig {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rig := &endpointRig{priv: priv, hook: newHookRecorder()}
	rig.e = NewEndpoint(mustPublicKey(t, pub), func(i *discordgo.Interaction, to bot.Answerer) {
		rig.mu.Lock()
		rig.calls++
		rig.mu.Unlock()
		handle(i, to)
	}, rig.hook, zerolog.Nop())
	if tune != nil {
		tune(rig.e)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rig.e.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		rig.e.Wait()
	})
	rig.addr = ln.Addr().String()
	rig.url = "http://" + rig.addr + "/interactions"
	return rig
}

func (rig *endpointRig) handled() int {
	rig.mu.Lock()
	defer rig.mu.Unlock()
	return rig.calls
}

// post sends body with the given signature headers (empty: left out).
func (rig *endpointRig) post(t *testing.T, body []byte, sig, ts string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, rig.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if sig != "" {
		req.Header.Set("X-Signature-Ed25519", sig)
	}
	if ts != "" {
		req.Header.Set("X-Signature-Timestamp", ts)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// signed sends body signed at time at.
func (rig *endpointRig) signed(t *testing.T, body []byte, at time.Time) (*http.Response, []byte) {
	t.Helper()
	ts := strconv.FormatInt(at.Unix(), 10)
	return rig.post(t, body, hex.EncodeToString(ed25519.Sign(rig.priv, append([]byte(ts), body...))), ts)
}

// commandJSON is a slash command interaction in a guild.
func commandJSON(id string) []byte {
	return []byte(`{"id":"` + id + `","application_id":"11","type":2,"token":"tok-` + id + `","version":1,
		"guild_id":"22","channel_id":"33","app_permissions":"52224","locale":"de",
		"member":{"user":{"id":"44","username":"ana","global_name":"Ana"},"nick":"Annie","permissions":"2048"},
		"data":{"id":"55","name":"qwixx","type":1,"options":[{"name":"start","type":1,"options":[{"name":"variant","type":3,"value":"cards"}]}]}}`)
}

// clickJSON is a button click on a message.
func clickJSON(id string) []byte {
	return []byte(`{"id":"` + id + `","application_id":"11","type":3,"token":"tok-` + id + `","version":1,
		"channel_id":"33","context":1,"authorizing_integration_owners":{"1":"44"},"locale":"fr",
		"user":{"id":"44","username":"ana"},
		"message":{"id":"66","channel_id":"33","content":"hi","flags":64,"attachments":[{"id":"77","filename":"hand.png","url":"https://cdn/x","size":3}],
			"components":[{"type":1,"components":[{"type":2,"style":1,"label":"Roll","custom_id":"q:roll"}]}]},
		"data":{"custom_id":"q:roll","component_type":2}}`)
}

func answerText(text string) func(i *discordgo.Interaction, to bot.Answerer) {
	return func(i *discordgo.Interaction, to bot.Answerer) {
		if err := to.Answer(context.Background(), i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: text}}); err != nil {
			panic(err)
		}
	}
}

func TestEndpointGoodSignatureAnswersAsHTTPResponse(t *testing.T) {
	rig := newEndpointRig(t, answerText("hello"), nil)
	resp, body := rig.signed(t, commandJSON("1"), time.Now())
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d %s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("content type %q", ct)
	}
	var got discordgo.InteractionResponse
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if got.Type != discordgo.InteractionResponseChannelMessageWithSource || got.Data == nil || got.Data.Content != "hello" {
		t.Errorf("answer %s", body)
	}
}

func TestEndpointBadSignatureRefused401(t *testing.T) {
	rig := newEndpointRig(t, answerText("never"), nil)
	body := clickJSON("2")
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	forged := map[string]string{
		"other bytes":   hex.EncodeToString(ed25519.Sign(rig.priv, append([]byte(ts), append(body, ' ')...))),
		"other key":     hex.EncodeToString(ed25519.Sign(ed25519.NewKeyFromSeed(make([]byte, 32)), append([]byte(ts), body...))),
		"not hex":       strings.Repeat("zz", 64),
		"short":         "abcd",
		"zero sig":      strings.Repeat("00", 64),
		"other ts used": hex.EncodeToString(ed25519.Sign(rig.priv, append([]byte(strconv.FormatInt(time.Now().Unix()-1, 10)), body...))),
	}
	for name, sig := range forged {
		resp, b := rig.post(t, body, sig, ts)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: status %d %s, want 401", name, resp.StatusCode, b)
		}
	}
	if n := rig.handled(); n != 0 {
		t.Errorf("the bot was handed %d forged interactions", n)
	}
}

func TestEndpointMissingHeadersRefused401(t *testing.T) {
	rig := newEndpointRig(t, answerText("never"), nil)
	body := commandJSON("3")
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := hex.EncodeToString(ed25519.Sign(rig.priv, append([]byte(ts), body...)))
	for _, c := range []struct{ name, sig, ts string }{{"no signature", "", ts}, {"no timestamp", sig, ""}, {"neither", "", ""}} {
		resp, b := rig.post(t, body, c.sig, c.ts)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: status %d %s, want 401", c.name, resp.StatusCode, b)
		}
	}
	if n := rig.handled(); n != 0 {
		t.Errorf("the bot was handed %d unsigned interactions", n)
	}
}

func TestEndpointReplayedOldTimestampRefused401(t *testing.T) {
	rig := newEndpointRig(t, answerText("once"), nil)
	body := commandJSON("4")
	// Signed correctly, but long ago (a captured request played again),
	// or far in the future.
	for _, at := range []time.Time{time.Now().Add(-MaxSignatureAge - time.Minute), time.Now().Add(MaxSignatureAge + time.Minute)} {
		resp, b := rig.signed(t, body, at)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("signed at %v: status %d %s, want 401", at, resp.StatusCode, b)
		}
	}
	if n := rig.handled(); n != 0 {
		t.Errorf("the bot was handed %d replayed interactions", n)
	}
	// The same body signed now goes through: it was the age.
	if resp, b := rig.signed(t, body, time.Now()); resp.StatusCode != http.StatusOK {
		t.Errorf("signed now: %d %s", resp.StatusCode, b)
	}
}

func TestEndpointPingAnsweredPong(t *testing.T) {
	rig := newEndpointRig(t, answerText("never"), nil)
	resp, body := rig.signed(t, []byte(`{"id":"5","application_id":"11","type":1,"token":"t","version":1}`), time.Now())
	if resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != `{"type":1}` {
		t.Errorf("PING answered %d %s, want 200 {\"type\":1}", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("content type %q", ct)
	}
	if n := rig.handled(); n != 0 {
		t.Errorf("PING handed to the bot %d times", n)
	}
	// A forged PING is refused like anything else (Discord checks this).
	resp, _ = rig.post(t, []byte(`{"type":1}`), strings.Repeat("00", 64), strconv.FormatInt(time.Now().Unix(), 10))
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("forged PING: %d, want 401", resp.StatusCode)
	}
}

func TestEndpointOversizeBodyRefused413(t *testing.T) {
	rig := newEndpointRig(t, answerText("never"), nil)
	body := append(commandJSON("6"), bytes.Repeat([]byte(" "), MaxInteractionBody)...)
	resp, b := rig.signed(t, body, time.Now())
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d %s, want 413", resp.StatusCode, b)
	}
	if n := rig.handled(); n != 0 {
		t.Errorf("the bot was handed %d oversize interactions", n)
	}
}

func TestEndpointOtherMethodsRefused(t *testing.T) {
	rig := newEndpointRig(t, answerText("never"), nil)
	resp, err := http.Get(rig.url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d, want 405", resp.StatusCode)
	}
}

func TestEndpointSlowClientCutOffByTimeouts(t *testing.T) {
	rig := newEndpointRig(t, answerText("fast"), func(e *Endpoint) {
		e.timeouts = serverTimeouts{readHeader: 200 * time.Millisecond, read: 400 * time.Millisecond, write: 5 * time.Second, idle: time.Second}
	})
	// Slowloris: half a header, and a body that never comes.
	slow := func(name, first string) net.Conn {
		c, err := net.Dial("tcp", rig.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := io.WriteString(c, first); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return c
	}
	headers := slow("headers", "POST /interactions HTTP/1.1\r\nHost: x\r\nX-Signature-Timestamp: 1")
	body := slow("body", "POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"type\":")
	// Meanwhile the endpoint serves others.
	if resp, b := rig.signed(t, commandJSON("7"), time.Now()); resp.StatusCode != http.StatusOK {
		t.Fatalf("a good request beside the slow ones: %d %s", resp.StatusCode, b)
	}
	// And it hangs up on the slow ones (the read deadline here is only a
	// safety net for a server that never does).
	for name, c := range map[string]net.Conn{"headers": headers, "body": body} {
		c.SetReadDeadline(time.Now().Add(time.Minute))
		rest, err := io.ReadAll(bufio.NewReader(c))
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("slow %s: the server still holds the connection", name)
			continue
		}
		if strings.Contains(string(rest), "200 OK") {
			t.Errorf("slow %s: answered %q", name, rest)
		}
	}
	if n := rig.handled(); n != 1 {
		t.Errorf("the bot was handed %d interactions, want 1", n)
	}
}

func TestEndpointDeferredAnswerWhenHandlerSlow(t *testing.T) {
	release := make(chan struct{})
	typeAfter := make(chan discordgo.InteractionResponseType, 2)
	answer := map[string]*discordgo.InteractionResponse{
		// a click answered by an update of its message
		"click": {Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Content: "rolled"}},
		// a command answered privately
		"command": {Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "only you", Flags: discordgo.MessageFlagsEphemeral}},
	}
	rig := newEndpointRig(t, func(i *discordgo.Interaction, to bot.Answerer) {
		<-release // the bot is slow (a slow disk, a busy machine)
		resp := answer["click"]
		if i.Type == discordgo.InteractionApplicationCommand {
			resp = answer["command"]
		}
		if err := to.Answer(context.Background(), i, resp); err != nil {
			t.Errorf("answer after deferral: %v", err)
		}
		typeAfter <- resp.Type
	}, func(e *Endpoint) { e.deferAfter = 50 * time.Millisecond })

	resp, body := rig.signed(t, clickJSON("8"), time.Now())
	if resp.StatusCode != http.StatusOK || string(body) != `{"type":6}` {
		t.Fatalf("slow click: %d %s, want the deferred update {\"type\":6}", resp.StatusCode, body)
	}
	resp, body = rig.signed(t, commandJSON("9"), time.Now())
	if resp.StatusCode != http.StatusOK || string(body) != `{"type":5}` {
		t.Fatalf("slow command: %d %s, want the deferred message {\"type\":5}", resp.StatusCode, body)
	}
	close(release)
	got := map[discordgo.InteractionResponseType]bool{<-typeAfter: true, <-typeAfter: true}
	if !got[discordgo.InteractionResponseDeferredMessageUpdate] || !got[discordgo.InteractionResponseDeferredChannelMessageWithSource] {
		t.Errorf("the bot was told its answers went as %v, want the deferred types 5 and 6", got)
	}
	for range 3 {
		<-rig.hook.done
	}
	rig.hook.mu.Lock()
	defer rig.hook.mu.Unlock()
	var edit, del, follow int
	for _, c := range rig.hook.calls {
		switch c.route {
		case "edit":
			edit++
			if c.edit.Content == nil || *c.edit.Content != "rolled" {
				t.Errorf("edit of the clicked message: %+v", c.edit)
			}
		case "delete":
			del++
		case "followup":
			follow++
			if c.params.Content != "only you" || c.params.Flags&discordgo.MessageFlagsEphemeral == 0 {
				t.Errorf("private follow-up: %+v", c.params)
			}
		}
	}
	if edit != 1 || del != 1 || follow != 1 {
		t.Errorf("webhooks: %d edits, %d deletes, %d follow-ups; want the click's edit, and the public loading message deleted for a private follow-up", edit, del, follow)
	}
}

func TestEndpointAttachmentsAsMultipart(t *testing.T) {
	picture := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 1000)
	rig := newEndpointRig(t, func(i *discordgo.Interaction, to bot.Answerer) {
		err := to.Answer(context.Background(), i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "sheet",
				Attachments: &[]*discordgo.MessageAttachment{{ID: "0", Filename: "sheet.png"}},
				Files:       []*discordgo.File{{Name: "sheet.png", ContentType: "image/png", Reader: bytes.NewReader(picture)}}}})
		if err != nil {
			t.Errorf("answer: %v", err)
		}
	}, nil)
	resp, body := rig.signed(t, commandJSON("10"), time.Now())
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("content type %q (%v), want multipart/form-data", resp.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	parts := map[string][]byte{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		parts[p.FormName()] = b
		if p.FormName() == "files[0]" && p.FileName() != "sheet.png" {
			t.Errorf("file name %q", p.FileName())
		}
	}
	var payload discordgo.InteractionResponse
	if err := json.Unmarshal(parts["payload_json"], &payload); err != nil || payload.Data == nil || payload.Data.Content != "sheet" {
		t.Errorf("payload_json %s (%v)", parts["payload_json"], err)
	}
	if !bytes.Equal(parts["files[0]"], picture) {
		t.Errorf("files[0]: %d bytes, want the picture's %d", len(parts["files[0]"]), len(picture))
	}
}

func TestEndpointHandlerWithoutAnswerIsAnError(t *testing.T) {
	rig := newEndpointRig(t, func(*discordgo.Interaction, bot.Answerer) {}, nil)
	resp, _ := rig.signed(t, commandJSON("11"), time.Now())
	if resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("status %d, want 500 (no answer: Discord shows the interaction failed)", resp.StatusCode)
	}
}

func TestDecodeInteractionAsDiscordgo(t *testing.T) {
	for name, raw := range map[string][]byte{"command in a guild": commandJSON("1"), "click in a DM": clickJSON("2")} {
		got, err := DecodeInteraction(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var want discordgo.Interaction
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		if want.Member != nil {
			// Only the fields the bot reads are decoded.
			want.Member = &discordgo.Member{User: want.Member.User, Nick: want.Member.Nick, Permissions: want.Member.Permissions, GuildID: want.GuildID}
		}
		if want.Message != nil {
			m := want.Message
			want.Message = &discordgo.Message{ID: m.ID, ChannelID: m.ChannelID, Content: m.Content, Flags: m.Flags, Attachments: m.Attachments, Components: m.Components}
		}
		if !reflect.DeepEqual(got, &want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(&want)
			t.Errorf("%s:\n got %s\nwant %s", name, g, w)
		}
	}
	if _, err := DecodeInteraction([]byte(`{"type":2,"data":[1]}`)); err == nil {
		t.Error("data of the wrong shape decoded")
	}
}

// TestEndpointBodiesWithoutLength: a body sent without a Content-Length
// (chunked) is read as well, and refused with 413 past
// MaxInteractionBody; bodies read one after another into the reused
// buffers each decode as themselves.
func TestEndpointBodiesWithoutLength(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	rig := newEndpointRig(t, func(i *discordgo.Interaction, to bot.Answerer) {
		mu.Lock()
		seen = append(seen, i.ID)
		mu.Unlock()
		answerText("ok")(i, to)
	}, nil)
	post := func(body []byte) int {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		// A reader of unknown length: the client sends it chunked.
		req, err := http.NewRequest(http.MethodPost, rig.url, io.MultiReader(bytes.NewReader(body)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(rig.priv, append([]byte(ts), body...))))
		req.Header.Set("X-Signature-Timestamp", ts)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	big := append(clickJSON("20"), bytes.Repeat([]byte(" "), 40<<10)...) // grows the buffer past its first size
	for _, body := range [][]byte{commandJSON("21"), big, clickJSON("22"), commandJSON("23")} {
		if c := post(body); c != http.StatusOK {
			t.Errorf("chunked body of %d bytes: %d", len(body), c)
		}
	}
	if c := post(append(commandJSON("24"), bytes.Repeat([]byte(" "), MaxInteractionBody)...)); c != http.StatusRequestEntityTooLarge {
		t.Errorf("oversize chunked body: %d, want 413", c)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"21", "20", "22", "23"}; !reflect.DeepEqual(seen, want) {
		t.Errorf("the bot was handed %v, want %v", seen, want)
	}
}
