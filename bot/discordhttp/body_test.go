package discordhttp

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/qwixxbot/qwixxbot/bot/discordjson"
)

// TestRequestBodyAsDiscordgo: the bodies the interactions' client sends
// say what discordgo's would (its Marshal and MultipartBodyWithJSON; the
// JSON itself is checked in discordjson), for answers, follow-ups and
// edits, with files read from where they lie, from their current position
// (a reader partly read, a plain reader, a section of a file).
func TestRequestBodyAsDiscordgo(t *testing.T) {
	rows := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Pass", CustomID: "t1.pass"}}}}
	content := "turn 3"
	datas := []any{
		&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
			Content: content, Components: rows, Flags: discordgo.MessageFlagsEphemeral}},
		&discordgo.WebhookParams{Content: content, Components: rows},
		&discordgo.WebhookEdit{Content: &content, Components: &rows},
	}
	png := bytes.Repeat([]byte("\x89PNG pixels "), 500)
	filesets := []func() []*discordgo.File{
		func() []*discordgo.File { return nil },
		func() []*discordgo.File {
			r := bytes.NewReader(png)
			r.Read(make([]byte, 5)) // what is left is sent, as discordgo sends it
			return []*discordgo.File{
				{Name: "table.png", ContentType: "image/png", Reader: r},
				{Name: `odd "name".txt`, Reader: strings.NewReader("plain reader")},
				{Name: "part.png", ContentType: "image/png", Reader: io.NewSectionReader(bytes.NewReader(png), 100, 300)},
			}
		},
	}
	for di, data := range datas {
		for fi, files := range filesets {
			wantType, wantBody, err := discordgo.MultipartBodyWithJSON(data, files())
			if err != nil {
				t.Fatal(err)
			}
			b, err := requestBody(data, files())
			if err != nil {
				t.Fatal(err)
			}
			gotBody, err := io.ReadAll(b.reader())
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(gotBody)) != b.size {
				t.Errorf("request %d files %d: a body of %d bytes said to be %d", di, fi, len(gotBody), b.size)
			}
			// Written in pieces (the endpoint's answers), in a reused
			// buffer: the same bytes, but for the boundary.
			buffered, err := bufferFiles(files())
			if err != nil {
				t.Fatal(err)
			}
			pb, err := pooledRequestBody(data, buffered)
			if err != nil {
				t.Fatal(err)
			}
			var written bytes.Buffer
			if err := pb.writeTo(&written); err != nil {
				t.Fatal(err)
			}
			if pb.size != int64(written.Len()) || pb.buf == nil {
				t.Errorf("request %d files %d: pooled body of %d bytes said to be %d (buffer %v)", di, fi, written.Len(), pb.size, pb.buf != nil)
			}
			if got, want := sameButBoundary(written.String(), pb.contentType), sameButBoundary(string(gotBody), b.contentType); got != want {
				t.Errorf("request %d files %d: written\n%q\nwant\n%q", di, fi, got, want)
			}
			pb.release()
			if fi == 0 {
				if ours, _ := discordjson.Request(data); b.contentType != "application/json" || !bytes.Equal(gotBody, ours) {
					t.Errorf("request %d without files: %s %s", di, b.contentType, gotBody)
				}
				continue
			}
			if again, _ := io.ReadAll(b.reader()); !bytes.Equal(again, gotBody) {
				t.Errorf("request %d files %d: read again, the body differs", di, fi)
			}
			ours, _ := discordjson.Request(data)
			gp := multipartParts(t, fakeRequest{contentType: b.contentType, body: gotBody})
			wp := multipartParts(t, fakeRequest{contentType: wantType, body: wantBody})
			if gp["payload_json"] != string(ours) || wp["payload_json"] == "" {
				t.Errorf("request %d files %d: payload %s, want %s", di, fi, gp["payload_json"], ours)
			}
			delete(gp, "payload_json")
			delete(wp, "payload_json")
			if !reflect.DeepEqual(gp, wp) {
				t.Errorf("request %d files %d: parts %q, want %q", di, fi, gp, wp)
			}
		}
	}
}

// sameButBoundary is a body with its multipart boundary (from contentType)
// replaced by a fixed one.
func sameButBoundary(b, contentType string) string {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return contentType + "\n" + b
	}
	return strings.ReplaceAll(contentType+"\n"+b, params["boundary"], "BOUNDARY")
}

// TestBodyReadInAnyPieces: a body of files read with buffers of any size,
// from a reader part-read, or written to a writer (io.Copy takes WriteTo),
// or asked again (GetBody), is the same bytes.
func TestBodyReadInAnyPieces(t *testing.T) {
	png := bytes.Repeat([]byte("0123456789abcdefghij"), 2000)
	data := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Content: "x"}}
	b, err := requestBody(data, []*discordgo.File{
		{Name: "a.png", ContentType: "image/png", Reader: bytes.NewReader(png)},
		{Name: "b.png", ContentType: "image/png", Reader: io.NewSectionReader(bytes.NewReader(png), 7, 1234)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var whole bytes.Buffer
	if err := b.writeTo(&whole); err != nil {
		t.Fatal(err)
	}
	if int64(whole.Len()) != b.size || !bytes.Contains(whole.Bytes(), png) || !bytes.Contains(whole.Bytes(), png[7:7+1234]) {
		t.Fatalf("written: %d bytes, size %d, pictures in it: %v", whole.Len(), b.size, bytes.Contains(whole.Bytes(), png))
	}
	for _, size := range []int{1, 7, 100, 4096, 1 << 20} {
		r := b.reader()
		var got []byte
		buf := make([]byte, size)
		if n, err := b.reader().Read(buf); err != nil || n != min(size, int(b.size)) {
			// Filled across pieces: a body read in one go leaves in
			// one write.
			t.Errorf("one read of %d bytes got %d (%v), want %d", size, n, err, min(size, int(b.size)))
		}
		for {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got, whole.Bytes()) {
			t.Errorf("read %d bytes at a time: differs", size)
		}
		// Part read, then copied: the rest.
		r = b.reader()
		first := make([]byte, size%1000+1)
		n, _ := io.ReadFull(r, first)
		var rest bytes.Buffer
		if _, err := io.Copy(&rest, r); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(append(first[:n], rest.Bytes()...), whole.Bytes()) {
			t.Errorf("%d bytes read, then the rest copied: differs", n)
		}
	}
}

// TestInteractionRequestBodyInPiecesWithLength: a request to Discord with a
// picture goes with its Content-Length (not chunked), and an attempt sent
// again after a server error carries the same body, picture included.
func TestInteractionRequestBodyInPiecesWithLength(t *testing.T) {
	picture := bytes.Repeat([]byte("\x89PNG 40 KB "), 4000)
	type seen struct {
		length  int64
		chunked bool
		body    []byte
	}
	var mu sync.Mutex
	var reqs []seen
	is, _, _ := interactionServerSeeing(t, func(n int, _ fakeRequest, w http.ResponseWriter) {
		if n < 2 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	inner := is.Client.Transport
	is.Client.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		reqs = append(reqs, seen{r.ContentLength, slices.Contains(r.TransferEncoding, "chunked"), b})
		mu.Unlock()
		if r.GetBody == nil {
			t.Error("no GetBody: the client cannot send the body again")
		} else if again, err := r.GetBody(); err != nil {
			t.Error(err)
		} else if b2, _ := io.ReadAll(again); !bytes.Equal(b2, b) {
			t.Error("GetBody gives another body")
		}
		r2 := r.Clone(r.Context())
		r2.Body = io.NopCloser(bytes.NewReader(b))
		return inner.RoundTrip(r2)
	})
	err := is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: "moved",
			Files: []*discordgo.File{{Name: "table.png", ContentType: "image/png", Reader: bytes.NewReader(picture)}}}})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (two server errors)", len(reqs))
	}
	for k, r := range reqs {
		if r.length != int64(len(r.body)) || r.chunked || !bytes.Contains(r.body, picture) || !bytes.Equal(r.body, reqs[0].body) {
			t.Errorf("attempt %d: Content-Length %d for %d bytes, chunked %v, picture in it %v, as the first %v",
				k, r.length, len(r.body), r.chunked, bytes.Contains(r.body, picture), bytes.Equal(r.body, reqs[0].body))
		}
	}
}
