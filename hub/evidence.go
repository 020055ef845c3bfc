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
//
// For the stats, which read a window of days, it keeps each session
// under the last day it was seen too (key x), and each node's hosts that
// recorded file edits over all its sessions (key y, evidence.Hosts: a set
// that only grows, as a row's host is its first and its edits only
// grow), so that a day's evidence is read from that day's sessions alone.
type evidenceModel struct {
	rows    *engine.DiskRows
	aliases aliases
	// marks are the days whose sessions the batch changed, and whether
	// it changed what every day's evidence reads (statsversions.go).
	marks dayMarks
}

func newEvidenceModel(db pebble.Reader) *evidenceModel {
	return &evidenceModel{rows: engine.NewDiskRows(db), aliases: aliases{}, marks: newDayMarks(prefixEvidenceVersion)}
}

func (m *evidenceModel) Prefixes() []string {
	return []string{"v" + sep, string(prefixFollowed()), "x" + sep, "y" + sep, prefixEvidenceVersion}
}
func (m *evidenceModel) DiskOnly() []string {
	return []string{"v" + sep, "x" + sep, "y" + sep, prefixEvidenceVersion}
}

func (m *evidenceModel) Write(w *engine.RowWriter) {
	m.marks.write(m.rows)
	m.rows.Write(w)
}

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
			m.marks.every(it.seq)
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
	last := row.Last
	row.Member, row.Last = at.Member, max(row.Last, at.Day)
	out, err := json.Marshal(row)
	if err != nil {
		m.rows.Fail(err)
		return
	}
	m.rows.Set(k, out)
	if last != row.Last {
		if last != "" {
			m.rows.Del(keyLastSeen(last, at.Team, at.Workspace, at.Node, it.ev.SessionID))
		}
		m.rows.Set(keyLastSeen(row.Last, at.Team, at.Workspace, at.Node, it.ev.SessionID), nil)
	}
	m.marks.day(last, it.seq)
	m.marks.day(row.Last, it.seq)
	hosts := evidence.Hosts{}
	hosts.Add(&row.Row)
	for host := range hosts {
		if hk := keyNodeHost(at.Team, at.Workspace, at.Node, host); !m.rows.Has(hk) {
			// A host new to the node: its sessions of every day may
			// be judged anew (evidence.Row.Session).
			m.rows.Set(hk, nil)
			m.marks.every(it.seq)
		}
	}
}

// catalogModel keeps each workspace's published rules and workflows (key
// p), whether they declare paths (key g), the path each rule was last
// published at, removed or not (key l), and the ids renamed (key a):
// a reid onto an id reided away before is left out (reidRefused).
type catalogModel struct {
	rows *engine.DiskRows
	// marks say whether the batch changed what every day's stats read
	// (the rules' facts, their ids; statsversions.go).
	marks dayMarks
}

func (m *catalogModel) Prefixes() []string {
	return []string{"p" + sep, "g" + sep, "l" + sep, "a" + sep, prefixCatalogVersion}
}
func (m *catalogModel) DiskOnly() []string            { return m.Prefixes() }
func (m *catalogModel) Load(k string, _ []byte) error { return engine.ErrUnknownRow }

func (m *catalogModel) Write(w *engine.RowWriter) {
	m.marks.write(m.rows)
	m.rows.Write(w)
}

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
		paths, _ := content.ParsePaths(d.Body)
		// The evidence of every day reads whether a rule is published
		// and scoped (catalogFacts): a change of either is every day's.
		if !m.rows.Has(keyPublished(team, ws, d.ID)) || m.rows.Has(keyScoped(team, ws, d.ID)) != (len(paths) > 0) {
			m.marks.every(it.seq)
		}
		if len(paths) > 0 {
			m.rows.Set(keyScoped(team, ws, d.ID), nil)
		} else {
			m.rows.Del(keyScoped(team, ws, d.ID))
		}
		m.rows.Set(keyPublished(team, ws, d.ID), publishedRow(*d))
		m.rows.Set(keyLastPath(team, ws, d.ID), []byte(d.Path))
	case *events.RemoveData:
		if m.rows.Has(keyPublished(team, ws, d.ID)) {
			m.marks.every(it.seq)
		}
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
		m.marks.every(it.seq)
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
