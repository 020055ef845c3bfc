package treecheck

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// entry is what the snapshot keeps of one file.
type entry struct {
	size, mtime, ctime int64
	ino                uint64
	// blob is the git blob id of the content when known, "" when not
	// (the file was seen by stat only).
	blob string
	// racy is set when the file changed so close to the scan that a
	// later change could keep its stat: the next check reads it again.
	racy bool
}

// sameStat reports whether e and o describe the same file, unchanged.
func (e entry) sameStat(o entry) bool {
	return e.size == o.size && e.mtime == o.mtime && e.ctime == o.ctime && e.ino == o.ino
}

// Call is a tool call open in a session: the pre-tool hook opened it, the
// post-tool hook closes it.
type Call struct {
	Session string `json:"session"`
	ID      string `json:"id,omitempty"`
	Started int64  `json:"started"` // unix nanoseconds
	// Catalog is where the workspace's catalog stood when the call
	// opened (its aggregate's sequence): a later one means rules were
	// published while the tool ran.
	Catalog uint64 `json:"catalog,omitempty"`
}

// meta is the snapshot's small part, kept as JSON.
type meta struct {
	Root    string `json:"root"`
	Scanned int64  `json:"scanned"`
	// Epoch and Seq are the point of a Watcher's notifications the last
	// check stood at.
	Epoch   string              `json:"epoch,omitempty"`
	Seq     uint64              `json:"seq,omitempty"`
	Open    []Call              `json:"open,omitempty"`
	Touched map[string]*touched `json:"touched,omitempty"`
	// Noted are the contents the pre-tool hook read of files a tool was
	// about to change (Store.Note), until the next check.
	Noted map[string]noted `json:"noted,omitempty"`
}

// noted is a file's stat and blob id when Note read it.
type noted struct {
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime"`
	Ctime int64  `json:"ctime"`
	Ino   uint64 `json:"ino"`
	Blob  string `json:"blob"`
}

// touched is what the store keeps of a session's changes for the stop
// gate: the paths, the blob id of each before the session's first change
// of it (where known), and when it last changed something.
type touched struct {
	Paths  []string          `json:"paths"`
	Before map[string]string `json:"before,omitempty"`
	Last   int64             `json:"last"`
}

// snapshot is the tree as the last check saw it.
type snapshot struct {
	meta
	files map[string]entry
}

const magic = "clumsies tree files 1\n"

var errDamaged = errors.New("treecheck: damaged snapshot")

// encodeFiles writes the files' entries: the magic line, their count,
// then each.
func encodeFiles(files map[string]entry) []byte {
	b := make([]byte, 0, len(magic)+len(files)*64)
	b = append(b, magic...)
	b = binary.AppendUvarint(b, uint64(len(files)))
	for p, e := range files {
		b = appendStr(b, p)
		b = binary.AppendVarint(b, e.size)
		b = binary.AppendVarint(b, e.mtime)
		b = binary.AppendVarint(b, e.ctime)
		b = binary.AppendUvarint(b, e.ino)
		b = appendStr(b, e.blob)
		if e.racy {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return b
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decodeFiles reads what encodeFiles wrote.
func decodeFiles(b []byte) (map[string]entry, error) {
	if !bytes.HasPrefix(b, []byte(magic)) {
		return nil, errDamaged
	}
	d := decoder{b: b[len(magic):]}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		return nil, errDamaged
	}
	files := make(map[string]entry, n)
	for range n {
		p := string(d.bytes())
		e := entry{size: d.varint(), mtime: d.varint(), ctime: d.varint(), ino: d.uvarint(), blob: string(d.bytes())}
		e.racy = d.byte() == 1
		if d.err != nil {
			return nil, errDamaged
		}
		files[p] = e
	}
	return files, nil
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errDamaged
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errDamaged
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errDamaged
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.err = errDamaged
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}
