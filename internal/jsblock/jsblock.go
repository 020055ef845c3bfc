// Package jsblock reads and rewrites the message block files of a
// workspace's JetStream store, with correct checksums, for the tests that
// damage a stopped workspace's store the way an editor of its files would.
package jsblock

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/minio/highwayhash"

	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/workspace"
)

// A JetStream file store keeps a stream's messages in numbered block
// files, <store>/jetstream/$G/streams/<stream>/msgs/<n>.blk, one record
// after another (nats-server's filestore.go):
//
//	length     uint32 LE  the whole record; bit 31 set when it has headers
//	seq        uint64 LE  bit 63 set when the message was erased
//	timestamp  int64  LE
//	subj_len   uint16 LE
//	subject
//	hdr_len    uint32 LE, headers    (only with headers)
//	data
//	checksum   8 bytes: HighwayHash-64 of seq, timestamp, subject, headers
//	           and data, keyed with sha256("<stream>-<n>")
//
// msgs/index.db snapshots the stream's state; without it the server
// rebuilds the state from the blocks when it starts. The tamper tests
// using this package rewrite records with correct checksums, as someone who wants a
// change to go unnoticed would, with the server stopped.

const (
	recordHeader = 22
	hdrBit       = 1 << 31
	EraseBit     = 1 << 63
)

// Record is one message record of a block file. Seq (EraseBit set for
// an erased message) and Data may be changed before Block.Set.
type Record struct {
	off, len int
	Seq      uint64
	ts       uint64
	subj     []byte
	hdr      []byte // nil without headers
	Data     []byte
}

// Block is a block file of a workspace's stream.
type Block struct {
	Path   string
	stream string
	index  int
	recs   []Record
}

// MsgsDir returns the folder of the block files of ws's stream.
func MsgsDir(ws *workspace.Workspace) string {
	return filepath.Join(ws.StateDir(), "jetstream", "$G", "streams", natsjs.StreamName(ws.ID()), "msgs")
}

// Read reads block file n of ws's stream.
func Read(tb testing.TB, ws *workspace.Workspace, n int) *Block {
	tb.Helper()
	b := &Block{Path: filepath.Join(MsgsDir(ws), fmt.Sprintf("%d.blk", n)), stream: natsjs.StreamName(ws.ID()), index: n}
	buf, err := os.ReadFile(b.Path)
	if err != nil {
		tb.Fatal(err)
	}
	le := binary.LittleEndian
	for off := 0; off < len(buf); {
		rl := le.Uint32(buf[off:])
		hasHdr := rl&hdrBit != 0
		rl &^= hdrBit
		r := Record{off: off, len: int(rl), Seq: le.Uint64(buf[off+4:]), ts: le.Uint64(buf[off+12:])}
		slen := int(le.Uint16(buf[off+20:]))
		p := off + recordHeader
		r.subj = buf[p : p+slen]
		p += slen
		if hasHdr {
			hl := int(le.Uint32(buf[p:]))
			r.hdr = buf[p+4 : p+4+hl]
			p += 4 + hl
		}
		r.Data = buf[p : off+int(rl)-8]
		if want := b.checksum(r); !bytes.Equal(want, buf[off+int(rl)-8:off+int(rl)]) {
			tb.Fatalf("%s: the record at %d does not check: the format is not what this test knows", b.Path, off)
		}
		b.recs = append(b.recs, r)
		off += int(rl)
	}
	return b
}

// checksum is the record's HighwayHash-64, as the server computes it.
func (b *Block) checksum(r Record) []byte {
	key := sha256.Sum256(fmt.Appendf(nil, "%s-%d", b.stream, b.index))
	h, err := highwayhash.New64(key[:])
	if err != nil {
		panic(err)
	}
	var hdr [16]byte
	binary.LittleEndian.PutUint64(hdr[0:], r.Seq)
	binary.LittleEndian.PutUint64(hdr[8:], r.ts)
	h.Write(hdr[:])
	h.Write(r.subj)
	h.Write(r.hdr)
	h.Write(r.Data)
	return h.Sum(nil)
}

// encode renders a record with its checksum.
func (b *Block) encode(r Record) []byte {
	le := binary.LittleEndian
	n := recordHeader + len(r.subj) + len(r.Data) + 8
	if r.hdr != nil {
		n += 4 + len(r.hdr)
	}
	out := make([]byte, 0, n)
	l := uint32(n)
	if r.hdr != nil {
		l |= hdrBit
	}
	out = le.AppendUint32(out, l)
	out = le.AppendUint64(out, r.Seq)
	out = le.AppendUint64(out, r.ts)
	out = le.AppendUint16(out, uint16(len(r.subj)))
	out = append(out, r.subj...)
	if r.hdr != nil {
		out = le.AppendUint32(out, uint32(len(r.hdr)))
		out = append(out, r.hdr...)
	}
	out = append(out, r.Data...)
	return append(out, b.checksum(r)...)
}

// Find returns the record of sequence seq.
func (b *Block) Find(tb testing.TB, seq uint64) Record {
	tb.Helper()
	for _, r := range b.recs {
		if r.Seq == seq {
			return r
		}
	}
	tb.Fatalf("%s holds no seq %d", b.Path, seq)
	return Record{}
}

// Write writes the records back, keeping those up to and including seq
// through (0: all), and removes the stream's state snapshot so that the
// server reads the blocks.
func (b *Block) Write(tb testing.TB, through uint64) {
	tb.Helper()
	var out []byte
	for _, r := range b.recs {
		if through != 0 && r.Seq&^EraseBit > through {
			break
		}
		out = append(out, b.encode(r)...)
	}
	if err := os.WriteFile(b.Path, out, 0o600); err != nil {
		tb.Fatal(err)
	}
	DropStateSnapshot(tb, filepath.Dir(b.Path))
}

// DropStateSnapshot removes msgs/index.db.
func DropStateSnapshot(tb testing.TB, dir string) {
	tb.Helper()
	if err := os.Remove(filepath.Join(dir, "index.db")); err != nil && !os.IsNotExist(err) {
		tb.Fatal(err)
	}
}

// Set replaces the record of the same sequence.
func (b *Block) Set(r Record) {
	for i := range b.recs {
		if b.recs[i].off == r.off {
			b.recs[i] = r
		}
	}
}

// Erase marks the message of sequence seq erased, as a removal leaves it.
func (b *Block) Erase(tb testing.TB, seq uint64) {
	tb.Helper()
	r := b.Find(tb, seq)
	r.Seq |= EraseBit
	b.Set(r)
}

// Replace rewrites the message of sequence seq with old replaced by new,
// of the same length, so that the record keeps its size.
func (b *Block) Replace(tb testing.TB, seq uint64, old, new string) {
	tb.Helper()
	if len(old) != len(new) {
		tb.Fatalf("replace %q with %q: not the same length", old, new)
	}
	r := b.Find(tb, seq)
	i := bytes.Index(r.Data, []byte(old))
	if i < 0 {
		tb.Fatalf("seq %d holds no %q: %s", seq, old, r.Data)
	}
	r.Data = bytes.Clone(r.Data)
	copy(r.Data[i:], new)
	b.Set(r)
}
