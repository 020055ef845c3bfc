package node

import (
	"path/filepath"
	"sync"

	"github.com/clumsies/clumsies/content"
)

// scanIndexName is the file, in the state folder, that keeps the publish
// scan's index between processes.
const scanIndexName = "scan-index"

// scanIndex keeps the index of the last publish scan, so that a scan
// hashes only the files changed since (content.ScanIndexed). It lives in
// memory while the node is open and in the state folder between runs; a
// missing or damaged file costs one full scan.
type scanIndex struct {
	mu     sync.Mutex
	loaded bool
	idx    *content.Index
}

// scan scans the content tree of n with the index and keeps the index
// that scan makes.
func (n *Node) scan() ([]content.File, error) {
	s := &n.scanIdx
	s.mu.Lock()
	defer s.mu.Unlock()
	file := filepath.Join(n.WS.StateDir(), scanIndexName)
	if !s.loaded {
		idx, err := content.LoadIndex(file)
		if err != nil {
			n.logger.Warn("the publish scan reads every content file once", "reason", err)
		}
		s.idx, s.loaded = idx, true
	}
	files, idx, err := content.ScanIndexed(n.WS.ContentRoot(), s.idx)
	if err != nil {
		return nil, err
	}
	changed := s.idx == nil || idx.Read() > 0 || idx.Len() != s.idx.Len()
	s.idx = idx
	if changed {
		if err := idx.Save(file); err != nil {
			n.logger.Warn("the next start reads every content file again", "reason", err)
		}
	}
	return files, nil
}
