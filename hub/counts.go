package hub

import (
	"strconv"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// countsModel keeps the daily counters (key c) per team, workspace, node,
// member, day, metric, rule and constraint, and the sessions seen (key
// k), which it counts by their kind (sessionkind.go).
type countsModel struct {
	rows   *engine.DiskRows
	counts map[counter]uint64 // added by the batch
	// marks are the days whose counters the batch changed
	// (statsversions.go).
	marks dayMarks
}

func (m *countsModel) Prefixes() []string {
	return []string{"c" + sep, "k" + sep, prefixCountsVersion}
}
func (m *countsModel) DiskOnly() []string            { return m.Prefixes() }
func (m *countsModel) Load(k string, _ []byte) error { return engine.ErrUnknownRow }

// Folds implements folder.
func (m *countsModel) Folds() []events.Type {
	return []events.Type{events.TypeRefer, events.TypeLoad}
}

func (m *countsModel) Write(w *engine.RowWriter) {
	for c, n := range m.counts {
		k := c.key()
		v, _ := m.rows.Get(k)
		m.rows.Set(k, putUint(getUint(v)+n))
	}
	clear(m.counts)
	m.marks.write(m.rows)
	m.rows.Write(w)
}

func (m *countsModel) Apply(it *hubItem) {
	if it.dup {
		return // a duplicate is counted once
	}
	at := it.at()
	count := func(metric, rule, constraint string) {
		c := at
		c.Metric, c.Rule, c.Constraint = metric, rule, constraint
		m.counts[c]++
	}
	m.marks.day(at.Day, it.seq)
	count(metricEvents, "", "")
	if it.ev.SessionID != "" {
		m.countSession(at, it)
	}
	switch d := it.payload.(type) {
	case *events.ReferData:
		for _, r := range d.Refs {
			count(metricRefs, r.RuleID, r.ConstraintID)
			if r.Revision > 0 {
				count(metricRevRefs, r.RuleID, strconv.FormatUint(r.Revision, 10))
			}
		}
	case *events.LoadData:
		for _, item := range d.Items {
			count(metricLoads, item.ID, "")
		}
	}
	if it.ev.Outcome != events.OutcomeOK {
		return
	}
	switch it.ev.Type {
	case events.TypeAgentReport:
		count(metricReports, "", "")
	case events.TypeReject:
		count(metricRejects, "", "")
	}
}
