package projections

import (
	"fmt"
	"strings"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/events"
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
	models []model
}

// newState returns an empty state. It is the registry of read models: the
// list below fixes the order in which Apply hands each event to them and
// commit writes their rows (neither changes what the store holds, as no
// model reads another), and loadState and Digest find a row's model in it.
func newState() *state {
	st := &state{aggregates: make(map[events.Aggregate]uint64)}
	st.models = []model{
		register(&st.manifest, newManifestModel()),
		register(&st.drafts, newDraftsModel()),
		register(&st.usage, newUsageModel()),
		register(&st.sessions, newSessionsModel()),
		register(&st.tools, newToolsModel()),
		register(&st.compliance, newComplianceModel()),
		register(&st.evidence, newEvidenceModel()),
		register(&st.chain, newChainModel()),
		register(&st.dash, newDashModel()),
	}
	return st
}

// register sets the typed field of a model and returns the model.
func register[M model](field *M, m M) model {
	*field = m
	return m
}

// owner returns the model whose prefix key starts with, nil for the meta
// rows and for rows of no model.
func (st *state) owner(key string) model {
	for _, m := range st.models {
		if strings.HasPrefix(key, m.prefix()) {
			return m
		}
	}
	return nil
}

// apply changes the state for one event: the meta rows, then every model.
func (st *state) apply(d decoded) {
	st.events++
	st.checkpoint = d.ev.Seq
	if a := d.ev.Type.Aggregate(); a != "" {
		st.aggregates[a] = d.ev.Seq
	}
	for _, m := range st.models {
		m.apply(d)
	}
}

// write puts the rows the models touched since the last write, and the
// meta rows, into b; in key order if sorted is not nil, which it collects
// them in first. Which rows a batch holds depends on how events were
// split into batches; what the store holds after it commits does not.
func (st *state) write(b *pebble.Batch, sorted *sortedRows) error {
	w := rowWriter{b: b, sorted: sorted}
	for _, m := range st.models {
		m.write(&w)
	}
	w.set(keyEvents, encodeU64(st.events))
	for a, seq := range st.aggregates {
		w.set(aggregateKey(a), encodeU64(seq))
	}
	w.set(keyCheckpoint, encodeU64(st.checkpoint))
	switch {
	case sorted == nil:
	case w.err == nil:
		w.err = sorted.writeTo(b)
	default:
		sorted.reset()
	}
	return w.err
}

// loadState reads every row but those a model keeps on disk only into a
// new state. It fails on a row it cannot decode and on a row that belongs
// to no model and is no meta row.
func loadState(db *pebble.DB) (*state, error) {
	st := newState()
	it, err := db.NewIter(nil)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	for ok := it.First(); ok; {
		k := string(it.Key())
		m := st.owner(k)
		if d, isDiskOnly := m.(diskOnly); isDiskOnly && strings.HasPrefix(k, d.diskOnly()) {
			ok = it.SeekGE(prefixEnd(d.diskOnly()))
			continue
		}
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, fmt.Errorf("read %q: %w", k, err)
		}
		if m != nil {
			err = m.load(k, v)
		} else {
			err = st.loadMeta(k, v)
		}
		if err != nil {
			return nil, fmt.Errorf("decode %q: %w", k, err)
		}
		ok = it.Next()
	}
	if err := it.Error(); err != nil {
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
		err = errUnknownRow
	}
	return err
}
