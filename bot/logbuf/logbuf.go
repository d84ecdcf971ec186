// Package logbuf holds Buffer, a goroutine-safe text sink that tests hand to
// a logger (or to the fake Discord's Transcript) while the code under test
// writes it from several goroutines. It imports only the standard library.
package logbuf

import (
	"bytes"
	"sync"
)

// Buffer is a goroutine-safe text sink for a Transcript or a logger that
// several goroutines write while a test reads it. The zero value is ready
// to use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
