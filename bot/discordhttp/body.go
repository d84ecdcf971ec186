package discordhttp

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/textproto"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/discordjson"
)

// A request's body: the JSON, and for files the multipart framing and the
// files' bytes, assembled once into a buffer of its exact size (the
// pictures are copied once, read where they lie) and read again from the
// start for each attempt. One buffer, not a chain of readers: net/http
// then writes a picture in one piece, not in chunks of its buffer's size.
type body struct {
	contentType string
	b           []byte
}

// piece is bytes of the body, or n bytes of a file at off.
type piece struct {
	b      []byte
	file   io.ReaderAt
	off, n int64
}

// reader reads the whole body from its start.
func (b body) reader() io.Reader { return bytes.NewReader(b.b) }

// fileData is what is left to read of a file's reader, without reading it
// when the reader can be read at an offset (a bytes.Reader, a
// SectionReader): the piece refers to the bytes behind it.
func fileData(r io.Reader) (piece, error) {
	switch f := r.(type) {
	case *bytes.Reader:
		return piece{file: f, off: f.Size() - int64(f.Len()), n: int64(f.Len())}, nil
	case *io.SectionReader:
		at, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			return piece{}, err
		}
		return piece{file: f, off: at, n: f.Size() - at}, nil
	}
	b, err := io.ReadAll(r)
	return piece{b: b}, err
}

func (p piece) size() int64 {
	if p.file != nil {
		return p.n
	}
	return int64(len(p.b))
}

// requestBody encodes data as discordgo does: JSON, or multipart with the
// JSON as payload_json and the files as files[n] when there are files
// (discordgo.MultipartBodyWithJSON, TestRequestBodyAsDiscordgo).
func requestBody(data any, files []*discordgo.File) (body, error) {
	payload, err := discordjson.Request(data)
	if err != nil {
		return body{}, err
	}
	if len(files) == 0 {
		return body{contentType: "application/json", b: payload}, nil
	}
	var c cutter
	w := multipart.NewWriter(&c)
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="payload_json"`)
	h.Set("Content-Type", "application/json")
	if _, err := w.CreatePart(h); err != nil {
		return body{}, err
	}
	c.Write(payload)
	for i, f := range files {
		h := make(textproto.MIMEHeader)
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files[%d]"; filename="%s"`, i, quoteEscaper.Replace(f.Name)))
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		if _, err := w.CreatePart(h); err != nil {
			return body{}, err
		}
		p, err := fileData(f.Reader)
		if err != nil {
			return body{}, fmt.Errorf("reading %s: %w", f.Name, err)
		}
		c.cut()
		c.pieces = append(c.pieces, p)
	}
	if err := w.Close(); err != nil {
		return body{}, err
	}
	c.cut()
	size := int64(0)
	for _, p := range c.pieces {
		size += p.size()
	}
	out := make([]byte, 0, size)
	for _, p := range c.pieces {
		if p.file == nil {
			out = append(out, p.b...)
			continue
		}
		n := len(out)
		out = out[:n+int(p.n)]
		if got, err := p.file.ReadAt(out[n:], p.off); got < int(p.n) {
			return body{}, fmt.Errorf("reading a file: %d of %d bytes: %w", got, p.n, err)
		}
	}
	return body{contentType: w.FormDataContentType(), b: out}, nil
}

// quoteEscaper escapes a file name in a Content-Disposition header, as
// discordgo (and mime/multipart) do.
var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"")

// cutter collects what the multipart writer writes into pieces, cut where
// a file's bytes go.
type cutter struct {
	pieces []piece
	cur    []byte
}

func (c *cutter) Write(p []byte) (int, error) {
	c.cur = append(c.cur, p...)
	return len(p), nil
}

func (c *cutter) cut() {
	if len(c.cur) > 0 {
		c.pieces = append(c.pieces, piece{b: c.cur})
		c.cur = nil
	}
}
