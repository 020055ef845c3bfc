package hub

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/projections/engine"
)

// evidenceRow is a session's evidence at the hub (the v key): the
// workspace's definitions (package evidence), folded from the node's
// events in its ledger's order, with the member and the last day the
// session was seen, for the stats' window.
type evidenceRow struct {
	Member string `json:"member,omitempty"`
	Last   string `json:"last"`
	evidence.Row
}

// evidenceModel keeps each session's evidence (key v), its rules under
// the ids they have now: the model follows the workspace's catalog.reid
// events (aliases, kept in rows of its own, key i, loaded with the
// models), and a row it folds first moves what it holds under an old id
// to the new one (evidence.Row.Follow), as the workspace moves it at the
// reid. The catalog keeps the same reids (key a) for its own rule; the
// evidence reads its own rows only, so that its rows alone give it back.
type evidenceModel struct {
	rows    *engine.DiskRows
	aliases aliases
}

func newEvidenceModel(db pebble.Reader) *evidenceModel {
	return &evidenceModel{rows: engine.NewDiskRows(db), aliases: aliases{}}
}

func (m *evidenceModel) Prefixes() []string        { return []string{"v" + sep, string(prefixFollowed())} }
func (m *evidenceModel) DiskOnly() []string        { return []string{"v" + sep} }
func (m *evidenceModel) Write(w *engine.RowWriter) { m.rows.Write(w) }

// Load reads a reid the model followed (key i).
func (m *evidenceModel) Load(k string, v []byte) error {
	id, ok := aliasOf(k)
	if !ok || !strings.HasPrefix(k, string(prefixFollowed())) {
		return fmt.Errorf("%w: %q", engine.ErrUnknownRow, k)
	}
	m.aliases[id] = string(v)
	return nil
}

// Folds implements folder.
func (m *evidenceModel) Folds() []events.Type {
	return []events.Type{events.TypeCatalogReid, events.TypeRefer, events.TypeLoad, events.TypeFileEdit,
		events.TypeToolGated, events.TypeStopBlocked, events.TypeCheck, events.TypeSessionStart, events.TypeSetup}
}

// Apply folds one successful event of a session (an attest.file_edit,
// attest.load, attest.refer, a gate's attest.tool_gated or
// attest.stop_blocked, the host and model of an attest.session_start, the
// MCP client of an attest.setup) into the
// session's evidence row, and learns a catalog.reid. Events outside a session are left out, as the
// workspace does.
func (m *evidenceModel) Apply(it *hubItem) {
	if it.dup {
		return
	}
	if d, ok := it.payload.(*events.ReidData); ok {
		team, ws := it.node.Team, it.node.Workspace
		if !reidRefused(d.From, d.To, m.aliases.next(team, ws)) {
			m.aliases[[3]string{team, ws, d.From}] = d.To
			m.rows.Set(keyFollowed(team, ws, d.From), []byte(d.To))
		}
		return
	}
	if it.ev.SessionID == "" {
		return
	}
	switch d := it.payload.(type) {
	case *events.ReferData:
		m.fold(it, func(e *evidence.Row, of func(string) string) {
			for _, r := range d.Refs {
				e.Ref(of(r.RuleID))
			}
		})
	case *events.LoadData:
		m.fold(it, func(e *evidence.Row, of func(string) string) { e.Load(d, of) })
	case *events.FileEditData:
		m.fold(it, func(e *evidence.Row, of func(string) string) { e.FileEdit(d, of) })
	case *events.ToolGatedData:
		m.fold(it, func(e *evidence.Row, of func(string) string) { e.ToolGated(d, of) })
	case *events.StopBlockedData:
		m.fold(it, func(e *evidence.Row, of func(string) string) { e.StopBlocked(d, of) })
	case *events.CheckData:
		m.fold(it, func(e *evidence.Row, of func(string) string) { e.Check(d, of) })
	case *events.SessionStartData:
		m.fold(it, func(e *evidence.Row, _ func(string) string) { e.SawStart(d) })
	case *events.SetupData:
		m.fold(it, func(e *evidence.Row, _ func(string) string) { e.SawSetup(d) })
	}
}

func (m *evidenceModel) fold(it *hubItem, fold func(r *evidence.Row, of func(id string) string)) {
	at := it.at()
	k := keyEvidence(at.Team, at.Workspace, at.Node, it.ev.SessionID)
	var row evidenceRow
	if v, ok := m.rows.Get(k); ok {
		if err := json.Unmarshal(v, &row); err != nil {
			m.rows.Fail(fmt.Errorf("read the evidence of session %s: %w", it.ev.SessionID, err))
			return
		}
	}
	of := func(id string) string { return m.aliases.of(at.Team, at.Workspace, id) }
	row.Follow(of)
	fold(&row.Row, of)
	row.Member, row.Last = at.Member, max(row.Last, at.Day)
	out, err := json.Marshal(row)
	if err != nil {
		m.rows.Fail(err)
		return
	}
	m.rows.Set(k, out)
}

// catalogModel keeps each workspace's published rules and workflows (key
// p), whether they declare paths (key g), the path each rule was last
// published at, removed or not (key l), and the ids renamed (key a):
// a reid onto an id reided away before is left out (reidRefused).
type catalogModel struct{ rows *engine.DiskRows }

func (m *catalogModel) Prefixes() []string {
	return []string{"p" + sep, "g" + sep, "l" + sep, "a" + sep}
}
func (m *catalogModel) DiskOnly() []string            { return m.Prefixes() }
func (m *catalogModel) Load(k string, _ []byte) error { return engine.ErrUnknownRow }
func (m *catalogModel) Write(w *engine.RowWriter)     { m.rows.Write(w) }

// Folds implements folder.
func (m *catalogModel) Folds() []events.Type {
	return []events.Type{events.TypeCatalogPublish, events.TypeCatalogRemove, events.TypeCatalogReid}
}

func (m *catalogModel) Apply(it *hubItem) {
	if it.dup {
		return
	}
	team, ws := it.node.Team, it.node.Workspace
	switch d := it.payload.(type) {
	case *events.PublishData:
		if d.Kind != "rule" && d.Kind != "workflow" {
			return
		}
		// Whether it declares the paths it applies to (its front
		// matter), as the workspace's catalog keeps it.
		if paths, _ := content.ParsePaths(d.Body); len(paths) > 0 {
			m.rows.Set(keyScoped(team, ws, d.ID), nil)
		} else {
			m.rows.Del(keyScoped(team, ws, d.ID))
		}
		m.rows.Set(keyPublished(team, ws, d.ID), publishedRow(*d))
		m.rows.Set(keyLastPath(team, ws, d.ID), []byte(d.Path))
	case *events.RemoveData:
		m.rows.Del(keyScoped(team, ws, d.ID))
		m.rows.Del(keyPublished(team, ws, d.ID))
	case *events.ReidData:
		if reidRefused(d.From, d.To, func(id string) (string, bool) {
			to, ok := m.rows.Get(keyAlias(team, ws, id))
			return string(to), ok
		}) {
			return // the evidence model leaves it out too
		}
		m.rows.Del(keyPublished(team, ws, d.From))
		m.rows.Set(keyAlias(team, ws, d.From), []byte(d.To))
	}
}

// catalogFacts is what the hub knows of one workspace's published rules,
// for evidence (evidence.Facts).
type catalogFacts struct {
	published map[string]bool
	scoped    map[string]bool
}

func (c catalogFacts) IsRule(id string) bool { return c.published[id] }
func (c catalogFacts) Scoped(id string) bool { return c.scoped[id] }
