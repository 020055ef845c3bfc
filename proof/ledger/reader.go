package ledger

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/clumsies/clumsies/events"
)

// ErrFormat means a file is not a ledger export this build can read, is
// cut short, or has a line over MaxLine.
var ErrFormat = errors.New("ledger: not a readable ledger export")

// MaxLine is the longest line of an export Reader reads, in bytes,
// without its newline. The longest line Export writes is a message of the
// largest size a stream takes (8 MiB) as base64 (4/3 of it) with its
// sequence: well under MaxLine. A longer line is refused without reading
// it whole.
const MaxLine = 16 << 20

// Reader reads an export written by Export.
type Reader struct {
	zr   *gzip.Reader
	br   *bufio.Reader
	hdr  header
	prev events.ChainDigest
	line int
	end  *trailer
	// chain is the start of the chain digest through the message Next
	// returned last, as its line carries it (nil in version 1).
	chain []byte
}

// NewReader reads the header of the export in r. It returns an error
// wrapping ErrFormat for anything that is not one.
func NewReader(r io.Reader) (*Reader, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	rd := &Reader{zr: zr, br: bufio.NewReaderSize(zr, 1<<16)}
	b, err := rd.readLine()
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &rd.hdr); err != nil || rd.hdr.Format != formatName {
		return nil, fmt.Errorf("%w: the first line is not an export header", ErrFormat)
	}
	if rd.hdr.V > formatVersion {
		return nil, fmt.Errorf("%w: export format version %d, this build reads %d; upgrade clumsies", ErrFormat, rd.hdr.V, formatVersion)
	}
	if !events.ValidWorkspaceID(rd.hdr.WorkspaceID) || rd.hdr.From == 0 {
		return nil, fmt.Errorf("%w: header names workspace %q from seq %d", ErrFormat, rd.hdr.WorkspaceID, rd.hdr.From)
	}
	if rd.prev, err = events.ParseChainDigest(rd.hdr.Prev); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	return rd, nil
}

// WorkspaceID returns the workspace whose ledger the export holds.
func (r *Reader) WorkspaceID() string { return r.hdr.WorkspaceID }

// From returns the sequence of the export's first message.
func (r *Reader) From() uint64 { return r.hdr.From }

// Prev returns the chain digest through From()-1.
func (r *Reader) Prev() events.ChainDigest { return r.prev }

// Next returns the next message as an event with Seq and Raw set, and
// io.EOF after the last. A file cut short, or a line that is not a
// message, is an error wrapping ErrFormat; a message that does not decode
// is a *events.StoredError.
func (r *Reader) Next() (events.Event, error) {
	if r.end != nil {
		return events.Event{}, io.EOF
	}
	b, err := r.readLine()
	if err != nil {
		return events.Event{}, err
	}
	if bytes.HasPrefix(b, []byte(`{"end":`)) {
		var t trailer
		if err := json.Unmarshal(b, &t); err != nil || !t.End {
			return events.Event{}, fmt.Errorf("%w: line %d: a bad trailer", ErrFormat, r.line)
		}
		r.end = &t
		return events.Event{}, io.EOF
	}
	seq, chain, raw, err := parseLine(b)
	if err != nil {
		return events.Event{}, fmt.Errorf("%w: line %d: %v", ErrFormat, r.line, err)
	}
	if (chain != nil) != (r.hdr.V >= 2) {
		return events.Event{}, fmt.Errorf("%w: line %d: a message line of format version %d with the chain %q", ErrFormat, r.line, r.hdr.V, chain)
	}
	r.chain = chain
	ev, err := events.Decode(raw)
	if err != nil {
		return events.Event{}, &events.StoredError{Seq: seq, Err: err}
	}
	ev.Seq, ev.Raw = seq, raw
	return ev, nil
}

// LineChain reports whether the line of the message Next returned last
// carries the chain digest through it as digest does (true for a line
// that carries none: version 1).
func (r *Reader) LineChain(digest events.ChainDigest) bool {
	return r.chain == nil || bytes.Equal(r.chain, digest[:lineChainLen])
}

// Trailer returns what the last line says: the last sequence, the number
// of messages and the chain digest through the last; ok is false until
// Next has returned io.EOF.
func (r *Reader) Trailer() (through, n uint64, digest string, ok bool) {
	if r.end == nil {
		return 0, 0, "", false
	}
	return r.end.Through, r.end.Events, r.end.Digest, true
}

// readLine returns the next line without its newline; a file that ends
// before the trailer is cut short, a line over MaxLine is too long.
func (r *Reader) readLine() ([]byte, error) {
	r.line++
	b, err := r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		// A long line: gather it, up to MaxLine.
		long := append([]byte(nil), b...)
		for errors.Is(err, bufio.ErrBufferFull) && len(long) <= MaxLine {
			b, err = r.br.ReadSlice('\n')
			long = append(long, b...)
		}
		b = long
	}
	if len(bytes.TrimSuffix(b, []byte("\n"))) > MaxLine {
		return nil, fmt.Errorf("%w: line %d too long: over %d bytes (%d MiB), longer than any line an export holds", ErrFormat, r.line, MaxLine, MaxLine>>20)
	}
	switch {
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("%w: it ends at line %d without its trailer: the file is cut short", ErrFormat, r.line)
	case err != nil:
		return nil, fmt.Errorf("%w: line %d: %v", ErrFormat, r.line, err)
	}
	return bytes.Clone(b[:len(b)-1]), nil
}

// parseLine reads a message line: {"seq":N,"chain":"<hex>","event":<raw>}
// or {"seq":N,"chain":"<hex>","raw":"<base64>"}, without "chain" in
// version 1; chain is nil without it.
func parseLine(b []byte) (seq uint64, chain, raw []byte, err error) {
	rest, ok := bytes.CutPrefix(b, []byte(`{"seq":`))
	if !ok || len(rest) == 0 || rest[len(rest)-1] != '}' {
		return 0, nil, nil, errors.New("not a message line")
	}
	rest = rest[:len(rest)-1]
	i := bytes.IndexByte(rest, ',')
	if i <= 0 {
		return 0, nil, nil, errors.New("no sequence")
	}
	seq, err = strconv.ParseUint(string(rest[:i]), 10, 64)
	if err != nil || seq == 0 {
		return 0, nil, nil, fmt.Errorf("sequence %q", rest[:i])
	}
	rest = rest[i:]
	if enc, ok := bytes.CutPrefix(rest, []byte(`,"chain":"`)); ok {
		n := hex.EncodedLen(lineChainLen)
		if len(enc) < n+1 || enc[n] != '"' {
			return 0, nil, nil, fmt.Errorf("seq %d: chain", seq)
		}
		if chain, err = hex.DecodeString(string(enc[:n])); err != nil {
			return 0, nil, nil, fmt.Errorf("seq %d: chain: %v", seq, err)
		}
		rest = enc[n+1:]
	}
	if raw, ok := bytes.CutPrefix(rest, []byte(`,"event":`)); ok {
		return seq, chain, raw, nil
	}
	if enc, ok := bytes.CutPrefix(rest, []byte(`,"raw":"`)); ok && len(enc) > 0 && enc[len(enc)-1] == '"' {
		raw, err := base64.StdEncoding.DecodeString(string(enc[:len(enc)-1]))
		if err != nil {
			return 0, nil, nil, fmt.Errorf("seq %d: raw: %v", seq, err)
		}
		return seq, chain, raw, nil
	}
	return 0, nil, nil, fmt.Errorf("seq %d: neither event nor raw", seq)
}
