package projections

import (
	"slices"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Object is a published object of the manifest: a rule, workflow, context
// file or the meta prompt, whose id is content.MetaPromptPath.
type Object struct {
	ID          string       `json:"id"`
	Kind        content.Kind `json:"kind"`
	Path        string       `json:"path"`
	Name        string       `json:"name"`
	Group       string       `json:"group,omitempty"`
	Hash        string       `json:"hash"`
	Description string       `json:"description,omitempty"`
	Body        string       `json:"body,omitempty"`
	// Constraints are those of the published body; rules and workflows only.
	Constraints []content.Constraint `json:"constraints,omitempty"`
	// Seq is the sequence of the catalog.publish event that published it.
	Seq uint64 `json:"seq"`
}

// object is the in-memory form of a published object: its metadata, never
// its body, which stays in pebble. Apart from drafted, a value stored in
// the state never changes; a publish stores a new one.
type object struct {
	Object
	ns     content.Namespace
	search string // searchText of the object, for List
	// drafted reports whether a draft exists for this id, so that List
	// looks up drafts only for the objects that have one. Unlike the rest
	// of the object it changes in place, under Store.mu, by setDraft.
	drafted bool
}

func newObject(o Object) *object {
	o.Body = ""
	return &object{Object: o, ns: content.NamespaceOf(o.Kind), search: searchText(o.ID, o.Path, o.Name, o.Group, o.Description)}
}

// nsPath is a key of the path index.
type nsPath struct {
	ns   content.Namespace
	path string
}

// publish applies catalog.publish: it upserts the object, parses its
// constraints and moves its path index entry when its path changed.
func (st *state) publish(seq uint64, d *events.PublishData, ch *changes) {
	kind := content.Kind(d.Kind)
	id := d.ID
	if kind == content.KindMPF {
		id = content.MetaPromptPath
	}
	if id == "" || content.NamespaceOf(kind) == "" {
		return // names nothing this store can hold
	}
	o := Object{
		ID: id, Kind: kind, Path: d.Path, Name: d.Name, Group: d.Group,
		Hash: d.Hash, Description: d.Description, Seq: seq,
	}
	if kind == content.KindRule || kind == content.KindWorkflow {
		o.Constraints = content.ParseConstraints(d.Name, d.Body)
	}
	if old, ok := st.objects[id]; ok {
		st.unindex(old.Object, ch)
	}
	obj := newObject(o)
	obj.drafted = st.drafts[id] != nil
	st.objects[id] = obj
	st.paths[nsPath{obj.ns, o.Path}] = id
	ch.paths[nsPath{obj.ns, o.Path}] = struct{}{}
	ch.objects[id] = struct{}{}
	ch.bodies[id] = d.Body
	ch.catalog = true
}

// remove applies catalog.remove: it drops the object and its path index
// entry. Usage rows stay.
func (st *state) remove(d *events.RemoveData, ch *changes) {
	kind := content.Kind(d.Kind)
	id := d.ID
	if kind == content.KindMPF {
		id = content.MetaPromptPath
	}
	if id == "" {
		id = st.paths[nsPath{content.NamespaceOf(kind), d.Path}]
	}
	old, ok := st.objects[id]
	if !ok {
		return
	}
	st.unindex(old.Object, ch)
	delete(st.objects, id)
	delete(ch.bodies, id)
	ch.objects[id] = struct{}{}
	ch.catalog = true
}

// unindex drops o's path index entry if it still points at o.
func (st *state) unindex(o Object, ch *changes) {
	k := nsPath{content.NamespaceOf(o.Kind), o.Path}
	if st.paths[k] == o.ID {
		delete(st.paths, k)
		ch.paths[k] = struct{}{}
	}
}

// Object returns the published object with this id, body included; the
// meta prompt's id is content.MetaPromptPath. Drafts are not considered
// (see View). It returns ErrNotFound for an unknown id, ErrClosed after
// Close, and the storage error if the body cannot be read.
func (s *Store) Object(id string) (Object, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return Object{}, ErrClosed
	}
	o, ok := s.st.objects[id]
	if !ok {
		return Object{}, ErrNotFound
	}
	out := o.Object
	out.Constraints = slices.Clone(out.Constraints)
	body, err := s.body(id)
	if err != nil {
		return Object{}, err
	}
	out.Body = body
	return out, nil
}

// Objects returns every published object without its body, sorted by
// namespace (meta prompt, rules and workflows, context), then by path.
func (s *Store) Objects() []Object {
	objs, _ := s.Manifest()
	return objs
}

// Manifest returns what a decision of the catalog aggregate reads: every
// published object as Objects does, and the sequence of the newest event
// of the catalog aggregate they include (the expectation of the append).
func (s *Store) Manifest() ([]Object, uint64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	seq := s.st.aggregates[events.AggregateCatalog]
	inv := s.inventory().objects
	out := make([]Object, len(inv))
	for i, o := range inv {
		out[i] = o.Object
		out[i].Constraints = slices.Clone(o.Constraints)
	}
	return out, seq
}

// ObjectIDByPath returns the id of the object published at path in
// namespace ns, and false if there is none.
func (s *Store) ObjectIDByPath(ns content.Namespace, path string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.st.paths[nsPath{ns, path}]
	return id, ok
}
