package main

import (
	"io"
	"sync"
)

// firstWrite is a writer that tells when it is first written to: over
// stdio, when the session's first answer goes out.
type firstWrite struct {
	w       io.Writer
	once    sync.Once
	written chan struct{} // closed after the first Write returns
}

func newFirstWrite(w io.Writer) *firstWrite {
	return &firstWrite{w: w, written: make(chan struct{})}
}

// Write implements io.Writer.
func (f *firstWrite) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	f.once.Do(func() { close(f.written) })
	return n, err
}
