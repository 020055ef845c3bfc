package projections

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// state is the in-memory copy of every read model except object bodies. The
// projector changes it and writes the rows it touched from it; readers serve
// from it. Store.mu guards it.
type state struct {
	checkpoint     uint64
	events         uint64
	aggregates     map[events.Aggregate]uint64 // newest sequence of each aggregate
	objects        map[string]*object
	paths          map[nsPath]string
	drafts         map[string]*draft
	ruleRefs       map[string]uint64
	constraintRefs map[string]map[string]uint64 // rule id -> constraint id -> refs
	sessions       map[string]*Session
	tools          map[string]*ToolMetrics
	compliance     *compliance
}

func newState() *state {
	return &state{
		aggregates:     make(map[events.Aggregate]uint64),
		objects:        make(map[string]*object),
		paths:          make(map[nsPath]string),
		drafts:         make(map[string]*draft),
		ruleRefs:       make(map[string]uint64),
		constraintRefs: make(map[string]map[string]uint64),
		sessions:       make(map[string]*Session),
		tools:          make(map[string]*ToolMetrics),
		compliance:     newCompliance(),
	}
}

// changes records the rows one batch touched. Rows are written from the
// state when the batch commits, so a row touched twice is written once, and
// a row whose state entry is gone is deleted.
type changes struct {
	objects     map[string]struct{}
	bodies      map[string]string // bodies published in this batch
	paths       map[nsPath]struct{}
	drafts      map[string]struct{}
	rules       map[string]struct{}
	constraints map[ruleConstraint]struct{}
	sessions    map[string]struct{}
	tools       map[string]struct{}
	compliance  map[string]struct{} // session ids
	catalog     bool                // the set of published objects changed
}

func newChanges() *changes {
	return &changes{
		objects:     make(map[string]struct{}),
		bodies:      make(map[string]string),
		paths:       make(map[nsPath]struct{}),
		drafts:      make(map[string]struct{}),
		rules:       make(map[string]struct{}),
		constraints: make(map[ruleConstraint]struct{}),
		sessions:    make(map[string]struct{}),
		tools:       make(map[string]struct{}),
		compliance:  make(map[string]struct{}),
	}
}

func (ch *changes) reset() {
	clear(ch.objects)
	clear(ch.bodies)
	clear(ch.paths)
	clear(ch.drafts)
	clear(ch.rules)
	clear(ch.constraints)
	clear(ch.sessions)
	clear(ch.tools)
	clear(ch.compliance)
	ch.catalog = false
}

// write puts the rows named by ch, and the meta rows, into b. Which rows
// a batch holds depends on how events were split into batches; what the
// store holds after it commits does not.
func (st *state) write(b *pebble.Batch, ch *changes) error {
	w := rowWriter{b: b}
	for id := range ch.objects {
		if o, ok := st.objects[id]; ok {
			w.json(objectKey(id), o.Object)
			if body, ok := ch.bodies[id]; ok {
				w.set(bodyKey(id), []byte(body))
			}
		} else {
			w.del(objectKey(id))
			w.del(bodyKey(id))
		}
	}
	for k := range ch.paths {
		if id, ok := st.paths[k]; ok {
			w.set(pathKey(k.ns, k.path), []byte(id))
		} else {
			w.del(pathKey(k.ns, k.path))
		}
	}
	for id := range ch.drafts {
		if d, ok := st.drafts[id]; ok {
			w.json(draftKey(id), d.row())
		} else {
			w.del(draftKey(id))
		}
	}
	for id := range ch.rules {
		w.set(ruleRefsKey(id), encodeU64(st.ruleRefs[id]))
	}
	for k := range ch.constraints {
		w.set(constraintKey(k.rule, k.constraint), encodeU64(st.constraintRefs[k.rule][k.constraint]))
	}
	for id := range ch.sessions {
		w.json(sessionKey(id), st.sessions[id])
	}
	for name := range ch.tools {
		w.set(toolKey(name), st.tools[name].encode())
	}
	st.compliance.write(&w, ch.compliance)
	w.set(keyEvents, encodeU64(st.events))
	for a, seq := range st.aggregates {
		w.set(aggregateKey(a), encodeU64(seq))
	}
	w.set(keyCheckpoint, encodeU64(st.checkpoint))
	return w.err
}

// rowWriter puts rows into a batch and keeps the first error.
type rowWriter struct {
	b   *pebble.Batch
	err error
}

func (w *rowWriter) set(k, v []byte) {
	if w.err == nil {
		w.err = w.b.Set(k, v, nil)
	}
}

func (w *rowWriter) del(k []byte) {
	if w.err == nil {
		w.err = w.b.Delete(k, nil)
	}
}

func (w *rowWriter) json(k []byte, v any) {
	data, err := json.Marshal(v)
	if err != nil && w.err == nil {
		w.err = fmt.Errorf("encode %s: %w", k, err)
	}
	w.set(k, data)
}

// loadState reads every row except object bodies into a new state. It
// fails on a row it cannot decode.
func loadState(db *pebble.DB) (*state, error) {
	st := newState()
	it, err := db.NewIter(nil)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	for ok := it.First(); ok; {
		k := string(it.Key())
		if bytes.HasPrefix(it.Key(), []byte(prefixBody)) {
			ok = it.SeekGE(prefixEnd(prefixBody))
			continue
		}
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, fmt.Errorf("read %q: %w", k, err)
		}
		if err := st.loadRow(k, v); err != nil {
			return nil, fmt.Errorf("decode %q: %w", k, err)
		}
		ok = it.Next()
	}
	if err := it.Error(); err != nil {
		return nil, err
	}
	for id := range st.drafts {
		if o, ok := st.objects[id]; ok {
			o.drafted = true
		}
	}
	return st, nil
}

// loadRow decodes one row into st.
func (st *state) loadRow(k string, v []byte) error {
	var err error
	switch {
	case strings.HasPrefix(k, prefixObject):
		var o Object
		if err = json.Unmarshal(v, &o); err == nil && o.ID != k[len(prefixObject):] {
			err = fmt.Errorf("row holds object %q", o.ID)
		}
		st.objects[o.ID] = newObject(o)
	case strings.HasPrefix(k, prefixPath):
		var ns content.Namespace
		var p string
		if ns, p, err = parsePathKey(k[len(prefixPath):]); err == nil {
			st.paths[nsPath{ns, p}] = string(v)
		}
	case strings.HasPrefix(k, prefixDraft):
		var r draftRow
		if err = json.Unmarshal(v, &r); err == nil && r.ID != k[len(prefixDraft):] {
			err = fmt.Errorf("row holds draft %q", r.ID)
		}
		st.drafts[r.ID] = r.draft()
	case strings.HasPrefix(k, prefixRuleRefs):
		st.ruleRefs[k[len(prefixRuleRefs):]], err = decodeU64(v)
	case strings.HasPrefix(k, prefixConstraint):
		var rule, c string
		var n uint64
		if rule, c, err = parseConstraintKey(k[len(prefixConstraint):]); err == nil {
			n, err = decodeU64(v)
		}
		if st.constraintRefs[rule] == nil {
			st.constraintRefs[rule] = make(map[string]uint64)
		}
		st.constraintRefs[rule][c] = n
	case strings.HasPrefix(k, prefixSession):
		ses := new(Session)
		err = json.Unmarshal(v, ses)
		st.sessions[k[len(prefixSession):]] = ses
	case strings.HasPrefix(k, prefixTool):
		name := k[len(prefixTool):]
		st.tools[name], err = decodeToolMetrics(name, v)
	case strings.HasPrefix(k, prefixAggregate):
		st.aggregates[events.Aggregate(k[len(prefixAggregate):])], err = decodeU64(v)
	case strings.HasPrefix(k, prefixCompliance):
		err = st.compliance.load(k[len(prefixCompliance):], v)
	case k == string(keyCheckpoint):
		st.checkpoint, err = decodeU64(v)
	case k == string(keyEvents):
		st.events, err = decodeU64(v)
	case k == string(keySchema):
	default:
		err = fmt.Errorf("unknown row")
	}
	return err
}
