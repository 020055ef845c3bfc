package hub

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// daySessions returns the sessions last seen on day d in snap with
// evidence within q, each with its workspace's definitions, under the
// ids its rules have now, sorted (compareSessions): the day's part of
// q's evidence. It reads the day's sessions alone (key x), and the hosts
// of their nodes (key y).
func daySessions(snap *pebble.Snapshot, q Query, d string) ([]hubwire.SessionEvidence, error) {
	out := []hubwire.SessionEvidence{}
	facts, _, err := catalogsOf(snap)
	if err != nil {
		return nil, err
	}
	aliases, err := readAliases(snap)
	if err != nil {
		return nil, err
	}
	hosts := map[nodeOf]evidence.Hosts{}
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: prefixLastSeen(d), UpperBound: prefixEnd(prefixLastSeen(d))})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		p := strings.Split(string(it.Key()), sep)
		if len(p) != 6 || !q.allows(counter{Team: p[2], Workspace: p[3], Rule: q.Rule, Metric: metricRefs}) {
			continue
		}
		n, id := nodeOf{p[2], p[3], p[4]}, p[5]
		row, err := readEvidenceRow(snap, n, id)
		if err != nil {
			return nil, err
		}
		if !q.ofMember(row.Member) {
			continue
		}
		if _, ok := hosts[n]; !ok {
			if hosts[n], err = nodeHosts(snap, n); err != nil {
				return nil, err
			}
		}
		w := workspaceOf{n.team, n.ws}
		// A row not folded since a reid of one of its rules.
		row.Follow(func(id string) string { return aliases.of(w.team, w.ws, id) })
		s := row.Session(id, facts[w], hosts[n])
		if q.Rule != "" {
			s.Rules = slices.DeleteFunc(s.Rules, func(r evidence.Rule) bool { return r.ID != q.Rule })
			s.Checks = slices.DeleteFunc(s.Checks, func(c evidence.RuleChecks) bool { return c.ID != q.Rule })
			if len(s.Rules) == 0 {
				continue
			}
			s.Unsupported = 0
			for _, r := range s.Rules {
				s.Unsupported += r.Unsupported
			}
		}
		if !s.Any() {
			continue
		}
		out = append(out, hubwire.SessionEvidence{Team: w.team, WorkspaceID: w.ws, Node: n.node, Member: row.Member, Session: s})
	}
	if err := it.Error(); err != nil {
		return nil, fmt.Errorf("read the sessions last seen on %s: %w", d, err)
	}
	slices.SortFunc(out, compareSessions)
	return out, nil
}

// readEvidenceRow reads session id's evidence row of node n.
func readEvidenceRow(snap *pebble.Snapshot, n nodeOf, id string) (evidenceRow, error) {
	var row evidenceRow
	v, closer, err := snap.Get(keyEvidence(n.team, n.ws, n.node, id))
	if errors.Is(err, pebble.ErrNotFound) {
		return row, fmt.Errorf("the evidence of session %s of node %s: indexed by its last day, but not kept", id, n.node)
	}
	if err != nil {
		return row, fmt.Errorf("read the evidence of session %s: %w", id, err)
	}
	defer closer.Close()
	if err := json.Unmarshal(v, &row); err != nil {
		return row, fmt.Errorf("read the evidence of session %s: %w", id, err)
	}
	return row, nil
}

// nodeHosts reads the hosts that recorded file edits in node n's ledger
// (key y).
func nodeHosts(snap *pebble.Snapshot, n nodeOf) (evidence.Hosts, error) {
	out := evidence.Hosts{}
	prefix := prefixNodeHosts(n.team, n.ws, n.node)
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		out[string(it.Key()[len(prefix):])] = true
	}
	if err := it.Error(); err != nil {
		return nil, fmt.Errorf("read the hosts of node %s: %w", n.node, err)
	}
	return out, nil
}

// compareSessions orders sessions by team, workspace, node and id.
func compareSessions(a, b hubwire.SessionEvidence) int {
	return cmp.Or(strings.Compare(a.Team, b.Team), strings.Compare(a.WorkspaceID, b.WorkspaceID),
		strings.Compare(a.Node, b.Node), strings.Compare(a.ID, b.ID))
}
