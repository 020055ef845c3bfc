package hub

import (
	"fmt"
	"strings"

	"github.com/clumsies/clumsies/projections/engine"
)

// teamSeqs is the read model of the sequence of each team's newest event
// in the hub's ledger (rows under prefixLedgerTeam): the sequence on
// whose condition a decision about the team is recorded.
type teamSeqs struct{ k *keyed[uint64] }

func newTeamSeqs() *teamSeqs { return &teamSeqs{newKeyed[uint64]()} }

func (m *teamSeqs) Prefixes() []string { return []string{prefixLedgerTeam} }

func (m *teamSeqs) Load(k string, v []byte) error {
	team, ok := strings.CutPrefix(k, prefixLedgerTeam)
	if !ok || len(v) != 8 {
		return fmt.Errorf("%w: %q", engine.ErrUnknownRow, k)
	}
	m.k.load(team, getUint(v))
	return nil
}

func (m *teamSeqs) Apply(it *ledgerItem) {
	if it.ev.Team == "" {
		return
	}
	m.k.update(it.ev.Team, func(old uint64, _ bool) (uint64, bool) { return it.ev.Seq, it.ev.Seq > old })
}

func (m *teamSeqs) Write(w *engine.RowWriter) { m.k.write(w, prefixLedgerTeam, putUint) }

// last returns the sequence of team's newest event (0: none).
func (m *teamSeqs) last(team string) uint64 {
	seq, _ := m.k.get(team)
	return seq
}
