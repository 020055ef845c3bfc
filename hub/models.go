package hub

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/projections/engine"
)

// The hub's read models are models of the projection engine
// (projections/engine), as the workspace's are: each owns the rows under
// its key prefixes (keys.go), folds the aggregate's messages one at a time
// (hubItem) and writes the rows it touched; the projector commits them
// with the checkpoint in one batch. All but the review queue keep their
// rows on disk only (engine.DiskRows): a hub's counters outgrow memory.

// hubItem is one message of the aggregate, checked and decoded by the
// projector: what every hub model applies.
type hubItem struct {
	node hubwire.Node
	// origin is the message's sequence in the node's ledger, data its
	// bytes there.
	origin uint64
	data   []byte
	ev     *events.Event
	// seq is the message's sequence in the aggregate.
	seq uint64
	// dup is set for an event the hub applied before (the aggregate's own
	// de-duplication is bound to its window): only the chain and the
	// node's sequence take it.
	dup bool
	// payload is the decoded payload of a successful event whose payload
	// a model folds (folder), nil otherwise or if it does not
	// decode (the projector then counts the message as refused).
	payload any
}

// at returns the counter coordinates of the item's event, without a
// metric.
func (it *hubItem) at() counter {
	day := it.ev.Time
	if len(day) >= 10 {
		day = day[:10]
	}
	return counter{Day: day, Team: it.node.Team, Workspace: it.node.Workspace, Node: it.node.ID, Member: it.node.Member}
}

// hubState is the registry of the hub's read models and the projector's
// meta rows (the checkpoint, the refused messages).
type hubState struct {
	reg      engine.Registry[*hubItem]
	seen     *seenModel
	nodeSeqs *nodeSeqModel
	chain    *chainModel
	counts   *countsModel
	evidence *evidenceModel
	catalog  *catalogModel
	reviews  *reviewsModel

	checkpoint uint64
	bad        uint64
	layout     uint64
}

// hubLayout is the version of the rows the models write, kept in the
// layout row. A store of an older layout (before the review queue kept
// rows: none; 2, before a session's evidence followed catalog.reid; 3,
// before it held the gates' figures and the host; 4, before a load
// counted only when it delivered the published body; 5, before it held
// the model and the MCP client, what the rules' checks found, and before
// a reid onto an id reided away was left out; 6, before it kept the path
// a removed rule was last published at; 7, before the evidence kept the
// reids it follows in rows of its own instead of reading the catalog's; 8,
// before a session's evidence kept the versions it loaded, the record the
// workspace's gate reads; 9, before the evidence kept its sessions by the
// day last seen and each node's hosts, and the stats' versions per day)
// is thrown away and filled again from the aggregate.
const hubLayout = 10

// loadHubState registers the hub's models over db and loads what they
// keep in memory: the review queue q, whose rows it replaces.
func loadHubState(db *pebble.DB, nodes func(string) (hubwire.Node, bool), q *reviewQueue) (*hubState, error) {
	st := &hubState{}
	r := &st.reg
	st.seen = engine.Register(r, &seenModel{engine.NewDiskRows(db)})
	st.nodeSeqs = engine.Register(r, &nodeSeqModel{rows: engine.NewDiskRows(db), seqs: map[string]uint64{}})
	st.chain = engine.Register(r, newChainModel(db, nodes))
	st.counts = engine.Register(r, &countsModel{rows: engine.NewDiskRows(db), counts: map[counter]uint64{}, marks: newDayMarks(prefixCountsVersion)})
	st.evidence = engine.Register(r, newEvidenceModel(db))
	st.catalog = engine.Register(r, &catalogModel{engine.NewDiskRows(db), newDayMarks(prefixCatalogVersion)})
	st.reviews = engine.Register(r, &reviewsModel{q: q})
	// The rows of the hub ledger's read side are another registry's
	// (ledgerRead): skipped here.
	r.Foreign(prefixLedger)
	if err := r.Load(db, st.loadMeta); err != nil {
		return nil, fmt.Errorf("load the hub's read models: %w", err)
	}
	st.reviews.adopt()
	return st, nil
}

func (st *hubState) loadMeta(k string, v []byte) error {
	switch k {
	case string(keyCheckpoint):
		st.checkpoint = getUint(v)
	case string(keyBad):
		st.bad = getUint(v)
	case string(keyLayout):
		st.layout = getUint(v)
	default:
		return engine.ErrUnknownRow
	}
	return nil
}

// folded returns the types whose payload a model of st folds (folder):
// the projector's decoder decodes those alone.
func (st *hubState) folded() map[events.Type]bool {
	return engine.Declared(st.reg.Models(), folder.Folds)
}

// stale returns the days' parts of the stats that the batch being applied
// makes stale (statsdays.go), before its commit forgets them.
func (st *hubState) stale() stale {
	s := stale{}
	for _, m := range []dayMarks{st.counts.marks, st.evidence.marks, st.catalog.marks} {
		m.addTo(s)
	}
	return s
}

// Registry returns the hub's models, for the engine's Committer.
func (st *hubState) Registry() *engine.Registry[*hubItem] { return &st.reg }

// WriteMeta writes the meta rows: the checkpoint, the messages refused so
// far and the layout.
func (st *hubState) WriteMeta(w *engine.RowWriter) {
	if st.bad > 0 {
		w.Set(keyBad, putUint(st.bad))
	}
	w.Set(keyCheckpoint, putUint(st.checkpoint))
	w.Set(keyLayout, putUint(hubLayout))
}

// seenModel keeps the ids of the events applied (key e), for the
// projector's de-duplication.
type seenModel struct{ rows *engine.DiskRows }

func (m *seenModel) Prefixes() []string            { return []string{"e" + sep} }
func (m *seenModel) DiskOnly() []string            { return m.Prefixes() }
func (m *seenModel) Load(k string, _ []byte) error { return engine.ErrUnknownRow }
func (m *seenModel) Write(w *engine.RowWriter)     { m.rows.Write(w) }

// has reports whether event id was applied.
func (m *seenModel) has(id string) bool { return m.rows.Has(keyEvent(id)) }

func (m *seenModel) Apply(it *hubItem) {
	if !it.dup {
		m.rows.Set(keyEvent(it.ev.ID), nil)
	}
}

// nodeSeqModel keeps the last ledger sequence of each node the hub
// applied (key n).
type nodeSeqModel struct {
	rows *engine.DiskRows
	seqs map[string]uint64 // of the batch
}

func (m *nodeSeqModel) Prefixes() []string            { return []string{"n" + sep} }
func (m *nodeSeqModel) DiskOnly() []string            { return m.Prefixes() }
func (m *nodeSeqModel) Load(k string, _ []byte) error { return engine.ErrUnknownRow }
func (m *nodeSeqModel) Apply(it *hubItem)             { m.seqs[it.node.ID] = max(m.seqs[it.node.ID], it.origin) }

func (m *nodeSeqModel) Write(w *engine.RowWriter) {
	for id, seq := range m.seqs {
		k := keyNodeSeq(id)
		if v, ok := m.rows.Get(k); !ok || getUint(v) < seq {
			m.rows.Set(k, putUint(seq))
		}
	}
	clear(m.seqs)
	m.rows.Write(w)
}
