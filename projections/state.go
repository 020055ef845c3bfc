package projections

import (
	"strings"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// state is the in-memory copy of every read model except object bodies,
// and the store core's meta rows. The projector changes it and writes the
// rows it touched from it; readers serve from it, reading the models
// through the typed fields. Store.mu guards it.
type state struct {
	checkpoint uint64
	events     uint64
	aggregates map[events.Aggregate]uint64 // newest sequence of each aggregate

	manifest   *manifestModel
	drafts     *draftsModel
	usage      *usageModel
	sessions   *sessionsModel
	tools      *toolsModel
	compliance *complianceModel
	evidence   *evidenceModel
	chain      *chainModel
	dash       *dashModel

	// models are the fields above in registry order.
	models engine.Registry[decoded]
}

// newState returns an empty state. It is the registry of read models: the
// list below fixes the order in which Apply hands each event to them and
// commit writes their rows (neither changes what the store holds, as no
// model reads another), and loadState and Digest find a row's model in it.
func newState() *state {
	st := &state{aggregates: make(map[events.Aggregate]uint64)}
	r := &st.models
	st.manifest = engine.Register(r, newManifestModel())
	st.drafts = engine.Register(r, newDraftsModel())
	st.usage = engine.Register(r, newUsageModel())
	st.sessions = engine.Register(r, newSessionsModel())
	st.tools = engine.Register(r, newToolsModel())
	st.compliance = engine.Register(r, newComplianceModel())
	st.evidence = engine.Register(r, newEvidenceModel())
	st.chain = engine.Register(r, newChainModel())
	st.dash = engine.Register(r, newDashModel())
	return st
}

// owner returns the model whose prefix key starts with, nil for the meta
// rows and for rows of no model.
func (st *state) owner(key string) model { return st.models.Owner(key) }

// apply changes the state for one event: the meta rows, then every model.
func (st *state) apply(d decoded) {
	st.events++
	st.checkpoint = d.ev.Seq
	if a := d.ev.Type.Aggregate(); a != "" {
		st.aggregates[a] = d.ev.Seq
	}
	st.models.Apply(d)
}

// Registry returns the models of st, for the engine's Committer.
func (st *state) Registry() *engine.Registry[decoded] { return &st.models }

// WriteMeta puts the meta rows into w. Which rows a batch holds depends
// on how events were split into batches; what the store holds after it
// commits does not.
func (st *state) WriteMeta(w *engine.RowWriter) {
	w.Set(keyEvents, encodeU64(st.events))
	for a, seq := range st.aggregates {
		w.Set(aggregateKey(a), encodeU64(seq))
	}
	w.Set(keyCheckpoint, encodeU64(st.checkpoint))
}

// loadState reads every row but those a model keeps on disk only into a
// new state. It fails on a row it cannot decode and on a row that belongs
// to no model and is no meta row.
func loadState(db *pebble.DB) (*state, error) {
	st := newState()
	if err := st.models.Load(db, st.loadMeta); err != nil {
		return nil, err
	}
	if err := st.chain.resume(db); err != nil {
		return nil, err
	}
	st.manifest.search.clip()
	return st, nil
}

// loadMeta decodes one meta row into st.
func (st *state) loadMeta(k string, v []byte) error {
	var err error
	switch {
	case strings.HasPrefix(k, prefixAggregate):
		st.aggregates[events.Aggregate(k[len(prefixAggregate):])], err = decodeU64(v)
	case k == string(keyCheckpoint):
		st.checkpoint, err = decodeU64(v)
	case k == string(keyEvents):
		st.events, err = decodeU64(v)
	case k == string(keySchema):
	default:
		err = engine.ErrUnknownRow
	}
	return err
}
