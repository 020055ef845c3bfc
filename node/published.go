package node

import (
	"sort"

	"github.com/clumsies/clumsies/catalog"
)

// FirstChanges bounds the changes a Published describes one by one: a
// report names a few and counts the rest, and the ledger holds them all.
const FirstChanges = 20

// Published is what one publish of the content tree appended: how many
// catalog events, the first FirstChanges of them, and the stream
// sequences of them all. It holds no event, so its size does not follow
// the size of the publish (the first publish of 50,000 files is a count,
// twenty names and one run of sequences); the events themselves are read
// back from the ledger by their sequences (Holds).
type Published struct {
	// Count is the number of catalog events appended.
	Count int `json:"count"`
	// First describes the first changes, in the order they were appended.
	First []PublishedChange `json:"first,omitempty"`
	// Runs are the sequences of the events appended, ascending; another
	// writer's events between two of them split a run.
	Runs []SeqRun `json:"runs,omitempty"`
	// Held names the content files the publish held back, with why: each
	// keeps what was last published at its path (or stays unpublished).
	Held []HeldFile `json:"held,omitempty"`
	// Unfit names the rules and workflows the publish published that are
	// not well-formed rules (content.CheckRule, the definition a team's
	// catalog applies: hub catalog push and review accept refuse them),
	// with why. They are published all the same.
	Unfit []HeldFile `json:"unfit,omitempty"`
}

// PublishedChange is one change of a publish: an object published (its
// file new or changed) or removed (its file gone).
type PublishedChange struct {
	Kind    string `json:"kind"`
	Path    string `json:"path"`
	ID      string `json:"id"`
	Removed bool   `json:"removed,omitempty"`
	// From is the id the object had, for the change of its id.
	From string `json:"from,omitempty"`
}

// SeqRun is a run of consecutive stream sequences, From to To inclusive.
type SeqRun struct {
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
}

// add counts the change c appended at seq, a sequence after every one
// added before.
func (p *Published) add(seq uint64, c catalog.Change) {
	p.Count++
	if len(p.First) < FirstChanges {
		p.First = append(p.First, changeOf(c))
	}
	if n := len(p.Runs); n > 0 && p.Runs[n-1].To+1 == seq {
		p.Runs[n-1].To = seq
		return
	}
	p.Runs = append(p.Runs, SeqRun{From: seq, To: seq})
}

// merge adds what a later round of the same publish appended.
func (p *Published) merge(q Published) {
	p.Count += q.Count
	p.Held = append(p.Held, q.Held...)
	p.Unfit = append(p.Unfit, q.Unfit...)
	p.First = append(p.First, q.First[:min(len(q.First), FirstChanges-len(p.First))]...)
	for _, r := range q.Runs {
		if n := len(p.Runs); n > 0 && p.Runs[n-1].To+1 == r.From {
			p.Runs[n-1].To = r.To
			continue
		}
		p.Runs = append(p.Runs, r)
	}
}

// Holds reports whether the event at seq is one this publish appended.
func (p Published) Holds(seq uint64) bool {
	i := sort.Search(len(p.Runs), func(i int) bool { return p.Runs[i].To >= seq })
	return i < len(p.Runs) && p.Runs[i].From <= seq
}

// Bounds returns the first and the last sequence appended, 0 and 0 when
// nothing was.
func (p Published) Bounds() (first, last uint64) {
	if len(p.Runs) == 0 {
		return 0, 0
	}
	return p.Runs[0].From, p.Runs[len(p.Runs)-1].To
}

func changeOf(c catalog.Change) PublishedChange {
	if r := c.Remove; r != nil {
		return PublishedChange{Kind: string(r.Kind), Path: r.Path, ID: r.ID, Removed: true}
	}
	if r := c.Reid; r != nil {
		return PublishedChange{Kind: string(r.Kind), Path: r.Path, ID: r.To, From: r.From}
	}
	return PublishedChange{Kind: string(c.File.Kind), Path: c.File.Path, ID: c.ID}
}
