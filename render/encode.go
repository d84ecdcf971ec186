package render

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"sync"
)

// bufferPool lets the PNG encoder reuse its buffers between images.
type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	e, _ := b.p.Get().(*png.EncoderBuffer)
	return e
}

func (b *bufferPool) Put(e *png.EncoderBuffer) { b.p.Put(e) }

// encoder favours speed: the images are flat colour and compress well anyway.
var encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}

// Encode writes img as PNG the way the renderer does: a paletted image with
// klauspost/compress (appendPNG), anything else with image/png at its
// fastest setting. It is safe for concurrent use.
func Encode(w io.Writer, img image.Image) error {
	if p, ok := img.(*image.Paletted); ok {
		return encodePNG(w, p)
	}
	if err := encoder.Encode(w, img); err != nil {
		return fmt.Errorf("render: encode png: %w", err)
	}
	return nil
}

// alloc makes the canvas an image is drawn on, filled with the page colour.
type alloc func(w, h int) canvas

func newPage(w, h int) canvas { return newCanvas(w, h, cPage) }

// own hands a drawn image to the caller with its own copy of the palette.
func own(c canvas, err error) (*image.Paletted, error) {
	if err != nil {
		return nil, err
	}
	c.p.Palette = Palette()
	return c.p, nil
}

// pixPool recycles the pixels of images that are encoded and dropped.
var pixPool sync.Pool // *[]byte

func pooledPage(w, h int) canvas {
	bp, _ := pixPool.Get().(*[]byte)
	if bp == nil || cap(*bp) < w*h {
		b := make([]byte, w*h)
		bp = &b
	}
	c := canvas{p: &image.Paletted{Pix: (*bp)[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h), Palette: palette}}
	c.fill(c.p.Rect, cPage)
	return c
}

// encodePooled draws on a recycled canvas and returns the PNG.
func encodePooled(draw func(alloc) (canvas, error), what string) ([]byte, error) {
	c, err := draw(pooledPage)
	if err != nil {
		return nil, err
	}
	defer func() { pix := c.p.Pix[:cap(c.p.Pix)]; pixPool.Put(&pix) }()
	out, err := appendPNG(nil, c.p) // allocated at its size
	if err != nil {
		return nil, fmt.Errorf("render: %s: %w", what, err)
	}
	return out, nil
}
