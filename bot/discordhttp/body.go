package discordhttp

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/discordjson"
)

// A request's body: the JSON, and for files the multipart framing around
// the files' bytes, as pieces: the JSON and the framing in one buffer,
// the files' bytes where they lie (a picture is not copied). The endpoint
// writes the pieces to the response one by one (writeTo, a picture in one
// Write); a request to Discord reads them through reader, again for each
// attempt.
type body struct {
	contentType string
	pieces      []piece
	size        int64
	// buf is the buffer of the JSON and the framing, from jsonBuffers
	// when the body was made with one (release puts it back).
	buf *[]byte
}

// piece is bytes of the body, or n bytes of a file at off.
type piece struct {
	b      []byte
	file   io.ReaderAt
	off, n int64
}

// readFile is what is left to read of a file's reader, without reading it
// when the reader can be read at an offset (a bytes.Reader, a
// SectionReader): the piece refers to the bytes behind it.
func readFile(r io.Reader) (piece, error) {
	switch f := r.(type) {
	case *bytes.Reader:
		return piece{file: f, off: f.Size() - int64(f.Len()), n: int64(f.Len())}, nil
	case *io.SectionReader:
		at, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			return piece{}, err
		}
		outer, base, _ := f.Outer()
		return piece{file: outer, off: base + at, n: f.Size() - at}, nil
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

// writeTo writes the piece to w: a file's bytes behind a bytes.Reader in
// one Write, without a copy.
func (p piece) writeTo(w io.Writer) error {
	if p.file == nil {
		_, err := w.Write(p.b)
		return err
	}
	if br, ok := p.file.(*bytes.Reader); ok && p.off+p.n == br.Size() {
		at := *br // a reader of the same bytes, which the caller's is not
		if _, err := at.Seek(p.off, io.SeekStart); err != nil {
			return err
		}
		_, err := at.WriteTo(w)
		return err
	}
	got, err := io.Copy(w, io.NewSectionReader(p.file, p.off, p.n))
	if err == nil && got < p.n {
		err = fmt.Errorf("a file: %d of %d bytes: %w", got, p.n, io.ErrUnexpectedEOF)
	}
	return err
}

// writeTo writes the whole body to w.
func (b body) writeTo(w io.Writer) error {
	for _, p := range b.pieces {
		if err := p.writeTo(w); err != nil {
			return err
		}
	}
	return nil
}

// reader reads the whole body from its start (nil for no body).
func (b body) reader() io.Reader {
	if b.contentType == "" {
		return nil
	}
	return &piecesReader{pieces: b.pieces}
}

// piecesReader reads the pieces one after the other.
type piecesReader struct {
	pieces []piece
	at     int64 // in pieces[0]
}

func (r *piecesReader) Read(out []byte) (int, error) {
	// As much as out takes, across pieces: net/http copies a request's
	// body through a buffer (a LimitedReader hides WriteTo), and a body
	// read in one go leaves in one write.
	total := 0
	for len(out) > 0 {
		for len(r.pieces) > 0 && r.at >= r.pieces[0].size() {
			r.pieces, r.at = r.pieces[1:], 0
		}
		if len(r.pieces) == 0 {
			break
		}
		p := r.pieces[0]
		var n int
		if p.file == nil {
			n = copy(out, p.b[r.at:])
		} else {
			want := min(int64(len(out)), p.n-r.at)
			var err error
			n, err = p.file.ReadAt(out[:want], p.off+r.at)
			if n < int(want) {
				if err == nil || err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return total + n, fmt.Errorf("reading a file: %w", err)
			}
		}
		r.at += int64(n)
		total += n
		out = out[n:]
	}
	if total == 0 && len(r.pieces) == 0 {
		return 0, io.EOF
	}
	return total, nil
}

// WriteTo writes what is left of the pieces to w (io.Copy uses it).
func (r *piecesReader) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for len(r.pieces) > 0 {
		p := r.pieces[0]
		if r.at > 0 {
			if p.file == nil {
				p.b = p.b[r.at:]
			} else {
				p.off, p.n = p.off+r.at, p.n-r.at
			}
		}
		if err := p.writeTo(w); err != nil {
			return n, err
		}
		n += p.size()
		r.pieces, r.at = r.pieces[1:], 0
	}
	return n, nil
}

// jsonBuffers are the buffers of the endpoint's answers' JSON and framing,
// reused once an answer is written. Buffers grown past keepJSONBuffer are
// left to the collector.
var jsonBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

const keepJSONBuffer = 256 << 10

// release puts the body's buffer back into jsonBuffers: the body must
// not be read again.
func (b *body) release() {
	if b.buf == nil {
		return
	}
	if cap(*b.buf) <= keepJSONBuffer {
		*b.buf = (*b.buf)[:0]
		jsonBuffers.Put(b.buf)
	}
	b.buf, b.pieces = nil, nil
}

// requestBody encodes data as discordgo does: JSON, or multipart with the
// JSON as payload_json and the files as files[n] when there are files
// (discordgo.MultipartBodyWithJSON, TestRequestBodyAsDiscordgo), into a
// new buffer.
func requestBody(data any, files []*discordgo.File) (body, error) {
	return encodeBody(nil, data, files, nil)
}

// pooledRequestBody is requestBody of buffered files into a buffer of
// jsonBuffers, for a body written once (release it then).
func pooledRequestBody(data any, files bufferedFiles) (body, error) {
	bp := jsonBuffers.Get().(*[]byte)
	b, err := encodeBody(bp, data, files.files, files.data)
	if err != nil {
		*bp = (*bp)[:0]
		jsonBuffers.Put(bp)
	}
	return b, err
}

// encodeBody is requestBody, into *bp when bp is not nil, with the files'
// bytes fileData (what fileData says of each file's reader when nil).
func encodeBody(bp *[]byte, data any, files []*discordgo.File, fileData []piece) (body, error) {
	var buf []byte
	if bp != nil {
		buf = (*bp)[:0]
	}
	if len(files) == 0 {
		out, err := discordjson.AppendRequest(buf, data)
		if err != nil {
			return body{}, err
		}
		b := body{contentType: "application/json", pieces: []piece{{b: out}}, size: int64(len(out))}
		if bp != nil {
			*bp, b.buf = out, bp
		}
		return b, nil
	}
	// The multipart framing as mime/multipart writes it: the parts'
	// headers in the order of their names.
	boundary := newBoundary()
	buf = append(buf, "--"...)
	buf = append(buf, boundary...)
	buf = append(buf, "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: application/json\r\n\r\n"...)
	buf, err := discordjson.AppendRequest(buf, data)
	if err != nil {
		return body{}, err
	}
	// Where the buffer's pieces end (the buffer may move as it grows),
	// and the files between them.
	ends := make([]int, 0, len(files)+1)
	fileParts := make([]piece, len(files))
	for k, f := range files {
		buf = append(buf, "\r\n--"...)
		buf = append(buf, boundary...)
		buf = append(buf, "\r\nContent-Disposition: form-data; name=\"files["...)
		buf = strconv.AppendInt(buf, int64(k), 10)
		buf = append(buf, "]\"; filename=\""...)
		buf = append(buf, quoteEscaper.Replace(f.Name)...)
		buf = append(buf, "\"\r\nContent-Type: "...)
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		buf = append(buf, ct...)
		buf = append(buf, "\r\n\r\n"...)
		ends = append(ends, len(buf))
		if fileData != nil {
			fileParts[k] = fileData[k]
			continue
		}
		p, err := readFile(f.Reader)
		if err != nil {
			return body{}, fmt.Errorf("reading %s: %w", f.Name, err)
		}
		fileParts[k] = p
	}
	buf = append(buf, "\r\n--"...)
	buf = append(buf, boundary...)
	buf = append(buf, "--\r\n"...)
	ends = append(ends, len(buf))
	b := body{contentType: "multipart/form-data; boundary=" + boundary, pieces: make([]piece, 0, 2*len(files)+1)}
	start := 0
	for k, end := range ends {
		b.pieces = append(b.pieces, piece{b: buf[start:end:end]})
		b.size += int64(end - start)
		start = end
		if k < len(fileParts) {
			b.pieces = append(b.pieces, fileParts[k])
			b.size += fileParts[k].size()
		}
	}
	if bp != nil {
		*bp, b.buf = buf, bp
	}
	return b, nil
}

// quoteEscaper escapes a file name in a Content-Disposition header, as
// discordgo (and mime/multipart) do.
var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"")

// boundaryKey and boundarySeq make the multipart boundaries: random for
// the process, and different for each body (mime/multipart reads 30
// random bytes for each).
var (
	boundaryKey = func() string {
		var k [20]byte
		_, _ = rand.Read(k[:]) // never fails (crypto/rand)
		return hex.EncodeToString(k[:])
	}()
	boundarySeq atomic.Uint64
)

// newBoundary is a multipart boundary that no body's content holds: 40
// random hexadecimal digits, and 16 of the body's number.
func newBoundary() string {
	const digits = "0123456789abcdef"
	var b [56]byte
	copy(b[:], boundaryKey)
	seq := boundarySeq.Add(1)
	for k := len(b) - 1; k >= 40; k-- {
		b[k] = digits[seq&15]
		seq >>= 4
	}
	return string(b[:])
}
