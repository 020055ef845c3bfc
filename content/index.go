package content

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Index remembers, for every content file of a scan, what the file system
// said about it (size, modification and change times, device and inode)
// and the hash of the bytes read, so that the next ScanIndexed hashes only
// the files that changed. A file is read again when any of these differ,
// or when its modification or change time is within RacyWindow of the
// start of the scan that recorded it (or later): a second write in the
// same tick of the file system's clock could leave its size and times as
// they were (the rule git calls "racy"; the change time counts too, for a
// write that puts the modification time back).
//
// An Index is immutable once ScanIndexed returns it, until it is handed
// to the next ScanIndexed, which takes it over (its entries become the new
// index's); it can be saved to a file and loaded back by another process.
type Index struct {
	root    string // the content root it describes, absolute and free of symlinks
	scanned int64  // when the scan that made it began, Unix nanoseconds
	files   map[string]indexEntry
	read    int          // files the scan that made it opened and hashed
	held    []*FileError // content files the scan could not take (never saved)
}

// RacyWindow is how close to the start of a scan a file's modification or
// change time must be for the index not to vouch for it. It covers the
// coarse clocks of file systems (a kernel tick on Linux, 2 s on FAT).
const RacyWindow = 2 * time.Second

// indexEntry is what the index remembers of one content file, by its
// source path.
type indexEntry struct {
	from string // the path its bytes were read from, when not the source path
	stat fileStat
	sum  [32]byte
	seen bool // met by the scan running (never saved)
}

// fileStat is what a stat says of a file, as far as the index compares it.
type fileStat struct {
	size, mtime, ctime int64
	dev, ino           uint64
}

// Read returns how many content files the scan that made the index opened
// and hashed; the others were vouched for by the index before it.
func (x *Index) Read() int {
	if x == nil {
		return 0
	}
	return x.read
}

// Held returns the content files the scan that made the index could not
// take (not UTF-8, too large, an unsafe name, a link outside the root, a
// failed read), in walk order: they are neither in its result nor in the
// index, and the rest of the tree was scanned as if they were absent.
func (x *Index) Held() []*FileError {
	if x == nil {
		return nil
	}
	return x.held
}

// Len returns the number of files the index describes.
func (x *Index) Len() int {
	if x == nil {
		return 0
	}
	return len(x.files)
}

// vouch returns the hash the index holds for the content file at rel,
// read from from, whose stat is info, and false when the file must be
// read: unknown, changed, or modified too close to the recording scan.
func (x *Index) vouch(rel, from string, info fs.FileInfo, window time.Duration) (indexEntry, bool) {
	if x == nil {
		return indexEntry{}, false
	}
	e, ok := x.files[rel]
	if !ok || e.source(rel) != from {
		return indexEntry{}, false
	}
	st, ok := statOf(info)
	if !ok || st != e.stat {
		return indexEntry{}, false
	}
	if limit := x.scanned - window.Nanoseconds(); st.mtime >= limit || st.ctime >= limit {
		return indexEntry{}, false
	}
	return e, true
}

// source returns the path e's bytes were read from.
func (e indexEntry) source(rel string) string {
	if e.from == "" {
		return rel
	}
	return e.from
}

// indexMagic starts an index file; the byte after it is the version.
const indexMagic = "clumsies scan index\n\x01"

// errBadIndex is what decoding a damaged index file returns.
var errBadIndex = errors.New("damaged scan index")

// Save writes the index to file, replacing it whole (through a temporary
// file renamed over it). The file is a cache: losing it costs a full scan.
func (x *Index) Save(file string) error {
	b := []byte(indexMagic)
	b = appendString(b, x.root)
	b = binary.BigEndian.AppendUint64(b, uint64(x.scanned))
	b = binary.AppendUvarint(b, uint64(len(x.files)))
	for rel, e := range x.files {
		b = appendString(b, rel)
		b = appendString(b, e.from)
		b = binary.AppendVarint(b, e.stat.size)
		b = binary.AppendVarint(b, e.stat.mtime)
		b = binary.AppendVarint(b, e.stat.ctime)
		b = binary.AppendUvarint(b, e.stat.dev)
		b = binary.AppendUvarint(b, e.stat.ino)
		b = append(b, e.sum[:]...)
	}
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	tmp, err := os.CreateTemp(filepath.Dir(file), ".scan-index-*")
	if err != nil {
		return fmt.Errorf("save scan index: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save scan index: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save scan index: %w", err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("save scan index: %w", err)
	}
	return nil
}

// LoadIndex reads an index that Save wrote. A missing file gives a nil
// index and no error; a damaged one gives an error (and a full scan is
// what the caller should do next).
func LoadIndex(file string) (*Index, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load scan index: %w", err)
	}
	x, err := decodeIndex(b)
	if err != nil {
		return nil, fmt.Errorf("load scan index %s: %w", file, err)
	}
	return x, nil
}

func decodeIndex(b []byte) (*Index, error) {
	if len(b) < len(indexMagic)+4 || !bytes.HasPrefix(b, []byte(indexMagic)) {
		return nil, errBadIndex
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errBadIndex
	}
	d := decoder{b: body[len(indexMagic):]}
	x := &Index{root: d.str()}
	x.scanned = int64(d.u64())
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		return nil, errBadIndex
	}
	x.files = make(map[string]indexEntry, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		rel := d.str()
		e := indexEntry{from: d.str()}
		e.stat.size, e.stat.mtime, e.stat.ctime = d.varint(), d.varint(), d.varint()
		e.stat.dev, e.stat.ino = d.uvarint(), d.uvarint()
		copy(e.sum[:], d.take(32))
		x.files[rel] = e
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, errBadIndex
	}
	return x, nil
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// decoder reads an index file, keeping the first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil || n > len(d.b) {
		d.err = errBadIndex
		return make([]byte, n)
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) u64() uint64 { return binary.BigEndian.Uint64(d.take(8)) }

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errBadIndex
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errBadIndex
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err = errBadIndex
		return ""
	}
	return string(d.take(int(n)))
}
