package content

import (
	"crypto/sha256"
	"encoding/binary"
	"time"
)

// Stamp sums what an Index compares of every content file of a tree: the
// file's path, the path its bytes are read from, its size, modification
// and change times, device and inode. Two trees with equal stamps hold the
// same files with the same stats, so a tree whose stamp equals that of an
// Index (Index.Stamp), and whose files are all older than the index's
// scan by RacyWindow (Stamp.VouchedBy), is one a ScanIndexed with that
// index would find unchanged, file for file, without reading any. Taking a
// tree's stamp (StampTree) walks it and stats every file, as a scan does,
// but reads no file and holds nothing per file.
type Stamp struct {
	Files int
	// Sum is the sum, lane by lane, of a SHA-256 per file: the same
	// whatever the order the files are met in.
	Sum [4]uint64
	// Newest is the latest modification or change time of any file, Unix
	// nanoseconds.
	Newest int64
	// Unstatted is set when a file's stat said less than an Index
	// compares (a system without change times or inodes): such a stamp
	// vouches for nothing.
	Unstatted bool
}

// add counts the file at rel, whose bytes are read from from, with stat st.
func (s *Stamp) add(rel, from string, st fileStat) {
	var buf [256]byte
	b := buf[:0]
	for _, p := range [...]string{rel, from} {
		b = binary.LittleEndian.AppendUint64(b, uint64(len(p)))
		b = append(b, p...)
	}
	for _, v := range [...]uint64{uint64(st.size), uint64(st.mtime), uint64(st.ctime), st.dev, st.ino} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	sum := sha256.Sum256(b)
	for i := range s.Sum {
		s.Sum[i] += binary.LittleEndian.Uint64(sum[8*i:])
	}
	s.Files++
	s.Newest = max(s.Newest, st.mtime, st.ctime)
}

// VouchedBy reports whether an index whose stamp is x, made by a scan that
// began at scanned (Index.Scanned), vouches for every file of the tree
// whose stamp is s: the same files with the same stats, none modified or
// changed within RacyWindow of that scan or later.
func (s Stamp) VouchedBy(x Stamp, scanned time.Time) bool {
	return s.vouchedBy(x, scanned, RacyWindow)
}

func (s Stamp) vouchedBy(x Stamp, scanned time.Time, window time.Duration) bool {
	return !s.Unstatted && !x.Unstatted && s.Files == x.Files && s.Sum == x.Sum &&
		s.Newest < scanned.Add(-window).UnixNano()
}

// Stamp returns the stamp of the tree x describes.
func (x *Index) Stamp() Stamp {
	var s Stamp
	if x == nil {
		return s
	}
	for rel, e := range x.files {
		s.add(rel, e.source(rel), e.stat)
	}
	return s
}

// Scanned returns when the scan that made x began.
func (x *Index) Scanned() time.Time {
	if x == nil {
		return time.Time{}
	}
	return time.Unix(0, x.scanned)
}

// Root returns the content root x describes: absolute and free of symlinks.
func (x *Index) Root() string {
	if x == nil {
		return ""
	}
	return x.root
}

// StampTree returns the stamp of the content tree under root and the root
// as an Index names it (absolute, free of symlinks). It walks the tree by
// Scan's rules and fails where Scan fails on a name, a link or a stat;
// files it does not read (too large, not UTF-8) count as they are. A
// missing root has the stamp of an empty tree.
func StampTree(root string) (Stamp, string, error) {
	var st Stamp
	_, s, err := scan(root, func(s *scanner) { s.stamp = &st })
	if err != nil {
		return Stamp{}, "", err
	}
	if s == nil {
		return st, "", nil
	}
	return st, s.dir, nil
}
