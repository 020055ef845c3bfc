package projections

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
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
	// Paths are the globs of the files a rule or workflow applies to, from
	// its front matter (content.ParsePaths); none for one that does not say.
	Paths []string `json:"paths,omitempty"`
	Body  string   `json:"body,omitempty"`
	// Constraints are those of the published body; rules and workflows only.
	Constraints []content.Constraint `json:"constraints,omitempty"`
	// Seq is the sequence of the catalog.publish event that published it.
	Seq uint64 `json:"seq"`
}

// nsPath is a key of the path index.
type nsPath struct {
	ns   content.Namespace
	path string
}

// The manifest's rows: objects, their bodies, the path index and the
// ids reided away.
const (
	prefixManifest = "m/"
	prefixObject   = "m/o/"
	prefixBody     = "m/b/"
	prefixPath     = "m/p/"
	prefixRetired  = "m/r/"
)

func objectKey(id string) []byte                    { return []byte(prefixObject + id) }
func bodyKey(id string) []byte                      { return []byte(prefixBody + id) }
func pathKey(ns content.Namespace, p string) []byte { return []byte(prefixPath + string(ns) + "/" + p) }
func retiredKey(id string) []byte                   { return []byte(prefixRetired + id) }

// parsePathKey splits the rest of a path index key, "<ns>/<path>".
func parsePathKey(rest string) (content.Namespace, string, error) {
	ns, p, ok := strings.Cut(rest, "/")
	if !ok {
		return "", "", fmt.Errorf("path index key %q has no namespace", rest)
	}
	return content.Namespace(ns), p, nil
}

// objectRow is how an object is stored, without its body: its own type,
// so that the API type can change without changing the layout; its
// encoding is in objectrow.go.
type objectRow struct {
	ID          string
	Kind        string
	Path        string
	Name        string
	Group       string
	Hash        string
	Description string
	Paths       []string
	Constraints []constraintRow
	Seq         uint64
}

// constraintRow is how a constraint of an object is stored.
type constraintRow struct {
	ID       string
	Name     string
	Text     string
	TextHash string
}

// api returns the object r stores, constraints included.
func (r objectRow) api() Object {
	o := Object{
		ID: r.ID, Kind: content.Kind(r.Kind), Path: r.Path, Name: r.Name, Group: r.Group,
		Hash: r.Hash, Description: r.Description, Paths: r.Paths, Seq: r.Seq,
	}
	for _, c := range r.Constraints {
		o.Constraints = append(o.Constraints, content.Constraint{ID: c.ID, Name: c.Name, Text: c.Text, TextHash: c.TextHash})
	}
	return o
}

// objectHead is an object row up to its constraints' ids: all but the
// names, texts and hashes of the constraints (objectrow.go).
type objectHead struct {
	ID, Kind, Path, Name, Group, Hash, Description, Scope string
	Seq                                                   uint64
	ConstraintIDs                                         []string
}

// manifestModel is the read model of the published catalog: the objects,
// the index of their paths, their bodies (on disk only) and the inventory
// that List and Objects serve from.
type manifestModel struct {
	objects map[string]*object
	paths   map[nsPath]string
	search  *searchIndex // over the objects' search texts
	// inv is the inventory of objects, built by the first reader that needs
	// it and dropped by every change of the catalog.
	inv atomic.Pointer[inventory]
	// retired maps each id a catalog.reid ended to the id it gave.
	retired map[string]string

	touchedRetired map[string]struct{}

	// Touched since the last write.
	touchedObjects map[string]struct{}
	touchedPaths   map[nsPath]struct{}
	bodies         map[string]string // bodies published since the last write
	rows           map[string][]byte // and their encoded rows, constraints included
}

func newManifestModel() *manifestModel {
	return &manifestModel{
		objects:        make(map[string]*object),
		paths:          make(map[nsPath]string),
		retired:        make(map[string]string),
		touchedRetired: make(map[string]struct{}),
		search:         newSearchIndex(),
		touchedObjects: make(map[string]struct{}),
		touchedPaths:   make(map[nsPath]struct{}),
		bodies:         make(map[string]string),
		rows:           make(map[string][]byte),
	}
}

func (m *manifestModel) Prefixes() []string { return []string{prefixManifest} }

// Folds implements folder.
func (m *manifestModel) Folds() []events.Type {
	return []events.Type{events.TypeCatalogPublish, events.TypeCatalogRemove, events.TypeCatalogReid}
}
func (m *manifestModel) DiskOnly() []string { return []string{prefixBody} }

func (m *manifestModel) Apply(d decoded) {
	switch p := d.payload.(type) {
	case *events.PublishData:
		m.publish(d.ev.Seq, p)
	case *events.RemoveData:
		m.remove(p)
	case *events.ReidData:
		// The object is published under To just before: the one under
		// From goes, and the path stays To's. From is retired: a reid
		// back onto it is refused (catalog.Migrate).
		m.remove(&events.RemoveData{ID: p.From, Kind: p.Kind, Path: p.Path})
		if p.From != "" && p.From != p.To {
			m.retired[p.From] = p.To
			m.touchedRetired[p.From] = struct{}{}
		}
	}
}

// publish applies catalog.publish: it upserts the object, parses its
// constraints and moves its path index entry when its path changed.
func (m *manifestModel) publish(seq uint64, d *events.PublishData) {
	kind := content.Kind(d.Kind)
	id := d.ID
	if kind == content.KindMPF {
		id = content.MetaPromptPath
	}
	if id == "" || content.NamespaceOf(kind) == "" {
		return // names nothing this store can hold
	}
	r := objectRow{
		ID: id, Kind: string(kind), Path: d.Path, Name: d.Name, Group: d.Group,
		Hash: d.Hash, Description: d.Description, Seq: seq,
	}
	if kind == content.KindRule || kind == content.KindWorkflow {
		// A publish checked the globs (content.Scan); a body that came
		// with bad ones (an older build's) is scoped to no path.
		r.Paths, _ = content.ParsePaths(d.Body)
		for _, c := range content.ParseConstraints(d.Name, d.Body) {
			r.Constraints = append(r.Constraints, constraintRow{ID: c.ID, Name: c.Name, Text: c.Text, TextHash: c.TextHash})
		}
	}
	row := r.encode()
	obj, err := newObject(row)
	if err != nil {
		panic(fmt.Sprintf("an encoded object row does not decode: %v", err))
	}
	if old, ok := m.objects[id]; ok {
		m.unindex(old)
		m.search.drop(old)
	}
	id = obj.ID()
	k := nsPath{obj.ns(), obj.Path()}
	m.objects[id] = obj
	m.search.add(obj)
	m.paths[k] = id
	m.touchedPaths[k] = struct{}{}
	m.touchedObjects[id] = struct{}{}
	m.bodies[id] = d.Body
	m.rows[id] = row
	m.inv.Store(nil)
}

// remove applies catalog.remove: it drops the object and its path index
// entry. Usage rows stay.
func (m *manifestModel) remove(d *events.RemoveData) {
	kind := content.Kind(d.Kind)
	id := d.ID
	if kind == content.KindMPF {
		id = content.MetaPromptPath
	}
	if id == "" {
		id = m.paths[nsPath{content.NamespaceOf(kind), d.Path}]
	}
	old, ok := m.objects[id]
	if !ok {
		return
	}
	m.unindex(old)
	m.search.drop(old)
	delete(m.objects, id)
	delete(m.bodies, id)
	delete(m.rows, id)
	m.touchedObjects[id] = struct{}{}
	m.inv.Store(nil)
}

// unindex drops o's path index entry if it still points at o.
func (m *manifestModel) unindex(o *object) {
	k := nsPath{o.ns(), o.Path()}
	if m.paths[k] == o.ID() {
		delete(m.paths, k)
		m.touchedPaths[k] = struct{}{}
	}
}

func (m *manifestModel) Write(w *engine.RowWriter) {
	for id := range m.touchedObjects {
		if _, ok := m.objects[id]; ok {
			// A touched object that is still published was published
			// since the last write: its row and body are pending.
			w.Set(objectKey(id), m.rows[id])
			w.Set(bodyKey(id), []byte(m.bodies[id]))
		} else {
			w.Del(objectKey(id))
			w.Del(bodyKey(id))
		}
	}
	for k := range m.touchedPaths {
		if id, ok := m.paths[k]; ok {
			w.Set(pathKey(k.ns, k.path), []byte(id))
		} else {
			w.Del(pathKey(k.ns, k.path))
		}
	}
	for id := range m.touchedRetired {
		w.Set(retiredKey(id), []byte(m.retired[id]))
	}
	clear(m.touchedRetired)
	clear(m.touchedObjects)
	clear(m.touchedPaths)
	clear(m.bodies)
	clear(m.rows)
}

func (m *manifestModel) Load(k string, v []byte) error {
	switch {
	case strings.HasPrefix(k, prefixObject):
		o, err := newObject(v)
		if err != nil {
			return err
		}
		id := o.ID()
		if id != k[len(prefixObject):] {
			return fmt.Errorf("row holds object %q", id)
		}
		m.objects[id] = o
		m.search.add(o)
	case strings.HasPrefix(k, prefixPath):
		ns, p, err := parsePathKey(k[len(prefixPath):])
		if err != nil {
			return err
		}
		// Objects load first (their keys sort first): the entry shares
		// the strings of the object it names.
		id := string(v)
		if o := m.objects[id]; o != nil && o.ns() == ns && o.Path() == p {
			p, id = o.Path(), o.ID()
		}
		m.paths[nsPath{ns, p}] = id
	case strings.HasPrefix(k, prefixRetired):
		m.retired[k[len(prefixRetired):]] = string(v)
	default:
		return engine.ErrUnknownRow
	}
	return nil
}

// Object returns the published object with this id, body and
// constraints included; the meta prompt's id is content.MetaPromptPath.
// Drafts are not considered (see View). It returns ErrNotFound for an
// unknown id, ErrClosed after Close, and the storage error if its rows
// cannot be read.
func (s *Store) Object(id string) (Object, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return Object{}, ErrClosed
	}
	if _, ok := s.st.manifest.objects[id]; !ok {
		return Object{}, ErrNotFound
	}
	out, err := s.objectRow(id)
	if err != nil {
		return Object{}, err
	}
	if out.Body, err = s.body(id); err != nil {
		return Object{}, err
	}
	return out, nil
}

// Objects returns every published object, constraints included and
// without its body, sorted by namespace (meta prompt, rules and
// workflows, context), then by path. It reads every object's row: for
// checks and tests, not for serving (List and Published serve from
// memory). It returns ErrClosed after Close and the storage error if a
// row cannot be read.
func (s *Store) Objects() ([]Object, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	inv := s.st.manifest.inventory().objects
	out := make([]Object, len(inv))
	for i, o := range inv {
		var err error
		if out[i], err = s.objectRow(o.ID()); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// objectRow reads the stored row of a published object. The caller holds
// s.mu and has checked that the store is open.
func (s *Store) objectRow(id string) (Object, error) {
	v, err := s.get(objectKey(id), "object "+id)
	if err != nil {
		return Object{}, err
	}
	r, err := decodeObjectRow([]byte(v))
	if err != nil {
		return Object{}, fmt.Errorf("read object %s: %w: %w", id, ErrCorrupt, err)
	}
	return r.api(), nil
}

// ObjectIDByPath returns the id of the object published at path in
// namespace ns, and false if there is none.
func (s *Store) ObjectIDByPath(ns content.Namespace, path string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.st.manifest.paths[nsPath{ns, path}]
	return id, ok
}

// CatalogSeq returns the sequence of the newest event of the catalog
// aggregate the manifest includes.
func (s *Store) CatalogSeq() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.st.aggregates[events.AggregateCatalog]
}

// Published returns what a plan of the catalog compares the content tree
// with (id, kind, path and hash of every published object, in Objects'
// order) and the sequence of the newest event of the catalog aggregate
// they include, as Manifest does but without copying constraints.
func (s *Store) Published() ([]catalog.Published, uint64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	seq := s.st.aggregates[events.AggregateCatalog]
	inv := s.st.manifest.inventory().objects
	out := make([]catalog.Published, len(inv))
	for i, o := range inv {
		f := o.fields()
		out[i] = catalog.Published{ID: f[fieldID], Kind: content.Kind(f[fieldKind]), Path: f[fieldPath], Hash: f[fieldHash]}
	}
	return out, seq
}

// Retired reports whether a catalog.reid ended id: an id no object may
// take again (catalog.Migrate), since the hub counts what it held under
// the id it gave.
func (s *Store) Retired(id string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.st.manifest.retired[id]
	return ok
}
