package node

import (
	"fmt"
	"time"

	"github.com/clumsies/clumsies/content"
)

// publishMarkName is the file, in the state folder, that says which
// content tree the manifest was last left in line with.
const publishMarkName = "publish-mark"

// publishMark records that when the catalog aggregate was at Catalog, the
// manifest was in line with the content tree under Root whose stamp is
// Stamp, as a scan that began at Scanned indexed it. A plan that finds
// the catalog where the mark left it and the tree's stamp vouched for by
// the mark's (content.Stamp.VouchedBy) has nothing to plan: it neither
// loads the scan index nor lists the manifest. The file is a cache:
// missing or damaged, it costs one full plan.
type publishMark struct {
	Workspace string        `json:"workspace"`
	Root      string        `json:"root"`
	Catalog   uint64        `json:"catalog"`
	Scanned   int64         `json:"scanned"`
	Stamp     content.Stamp `json:"stamp"`
	// IDRule is the id rule's version (idRule) and IDs the digest of the
	// ids file ("" for none) the manifest was left in line with.
	IDRule int    `json:"idRule,omitempty"`
	IDs    string `json:"ids,omitempty"`
}

// scanned is what the last publish scan of a node saw, for the mark a
// publish that ends in line with it leaves.
type scanned struct {
	root  string
	at    time.Time
	stamp content.Stamp
}

// unchanged reports whether the content tree is the one the publish mark
// names, with the catalog aggregate where the mark left it (at seq), so
// that a plan would find nothing to do. Anything it cannot tell, it
// answers with false, and a full plan follows.
func (n *Node) unchanged(seq uint64) bool {
	m, err := n.loadPublishMark()
	if err != nil {
		n.logger.Warn("the publish plan scans the content tree", "reason", err)
		return false
	}
	if m == nil || m.Workspace != n.WS.ID() || m.Catalog != seq || m.IDRule != idRule {
		return false
	}
	if _, digest, err := n.readIDs(); err != nil || digest != m.IDs {
		return false
	}
	stamp, root, err := content.StampTree(n.WS.ContentRoot())
	if err != nil || root != m.Root {
		return false // the scan says what is wrong
	}
	return stamp.VouchedBy(m.Stamp, time.Unix(0, m.Scanned))
}

// markPublished records that the manifest, with the catalog aggregate at
// seq, is in line with the tree the last plan's scan saw; after a plan
// without a scan (or a failed one), or one that held files back, it does
// nothing: the next plan scans and names them again. A mark that cannot be
// saved is logged: the next plan is a full one.
func (n *Node) markPublished(seq uint64, held []HeldFile) {
	s := &n.scanIdx
	s.mu.Lock()
	last := s.last
	s.last = nil
	s.mu.Unlock()
	if last == nil || len(held) > 0 {
		return
	}
	_, digest, err := n.readIDs()
	if err != nil {
		n.logger.Warn("the next publish plan scans the content tree", "reason", err)
		return
	}
	m := publishMark{Workspace: n.WS.ID(), Root: last.root, Catalog: seq, Scanned: last.at.UnixNano(), Stamp: last.stamp,
		IDRule: idRule, IDs: digest}
	if err := n.savePublishMark(m); err != nil {
		n.logger.Warn("the next publish plan scans the content tree", "reason", err)
	}
}

func (n *Node) loadPublishMark() (*publishMark, error) {
	var m publishMark
	ok, err := readStateFile(n.WS.StateDir(), publishMarkName, &m)
	if err != nil || !ok {
		return nil, err
	}
	return &m, nil
}

// savePublishMark replaces the publish mark whole.
func (n *Node) savePublishMark(m publishMark) error {
	if err := writeStateFile(n.WS.StateDir(), publishMarkName, m); err != nil {
		return fmt.Errorf("save the publish mark: %w", err)
	}
	return nil
}
