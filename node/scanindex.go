package node

import (
	"path/filepath"
	"sync"

	"github.com/clumsies/clumsies/content"
)

// scanIndexName is the file, in the state folder, that keeps the publish
// scan's index (content.Index) between scans.
const scanIndexName = "scan-index"

// scanIndex serializes the publish scans of a node and remembers how many
// files the last one read. The index itself lives in the state folder
// only: it is read at the start of a scan and written after one that read
// files, so that it costs no memory between scans. A missing or damaged
// file costs one full scan.
type scanIndex struct {
	mu      sync.Mutex
	read    int      // content files the last scan opened
	last    *scanned // what the last scan saw (publishmark.go)
	skipped int      // plans that found the tree unchanged without a scan
}

// scan scans the content tree of n with the index and keeps the index
// that scan makes.
func (n *Node) scan() ([]content.File, []*content.FileError, error) {
	s := &n.scanIdx
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = nil
	file := filepath.Join(n.WS.StateDir(), scanIndexName)
	prev, err := content.LoadIndex(file)
	if err != nil {
		n.logger.Warn("the publish scan reads every content file once", "reason", err)
	}
	had := prev.Len() // ScanIndexed takes prev over
	files, idx, err := content.ScanIndexed(n.WS.ContentRoot(), prev)
	if err != nil {
		return nil, nil, err
	}
	s.read = idx.Read()
	s.last = &scanned{root: idx.Root(), at: idx.Scanned(), stamp: idx.Stamp()}
	if prev == nil || idx.Read() > 0 || idx.Len() != had {
		if err := idx.Save(file); err != nil {
			n.logger.Warn("the next scan reads every content file again", "reason", err)
		}
	}
	return files, idx.Held(), nil
}

// skipped records that a plan found the tree unchanged without a scan:
// it read no file, and saw nothing a publish mark could name.
func (n *Node) skipped() {
	n.scanIdx.mu.Lock()
	n.scanIdx.read, n.scanIdx.last = 0, nil
	n.scanIdx.skipped++
	n.scanIdx.mu.Unlock()
}
