package hub

import (
	"strings"

	"github.com/cockroachdb/pebble/v2"
)

// aliases maps the old ids of a workspace's rules to their ids now, as
// its catalog.reid events said (a workspace of an older version moving to
// the ids every clone derives): stats count what was counted under an old
// id under the new one. The models refuse a reid that would close a
// cycle (reidRefused), so following an id always ends.
type aliases map[[3]string]string // team, workspace, old id -> new id

// readAliases reads the aliases of every workspace from the a rows of r.
func readAliases(r pebble.Reader) (aliases, error) {
	out := aliases{}
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: prefixAlias(), UpperBound: prefixEnd(prefixAlias())})
	if err != nil {
		return nil, err
	}
	for it.First(); it.Valid(); it.Next() {
		if id, ok := aliasOf(string(it.Key())); ok {
			out[id] = string(it.Value())
		}
	}
	return out, it.Close()
}

// aliasOf returns the team, workspace and old id of an alias row's key
// (a, or the evidence's i).
func aliasOf(k string) ([3]string, bool) {
	p := strings.Split(k, sep)
	if len(p) != 4 {
		return [3]string{}, false
	}
	return [3]string{p[1], p[2], p[3]}, true
}

// of returns the id rule of workspace ws has now.
func (a aliases) of(team, ws, rule string) string {
	return follow(rule, a.next(team, ws))
}

// next returns the lookup of an id's newer id in workspace ws.
func (a aliases) next(team, ws string) func(id string) (string, bool) {
	return func(id string) (string, bool) {
		to, ok := a[[3]string{team, ws, id}]
		return to, ok
	}
}

// follow returns the id that id ends at through next (an id's newer id).
// A cycle (which read models written before reids were checked may hold)
// ends at the first id seen twice.
func follow(id string, next func(id string) (string, bool)) string {
	var seen map[string]bool
	for hops := 0; ; hops++ {
		to, ok := next(id)
		if !ok || to == id {
			return id
		}
		if hops >= 8 { // a long chain: make sure it ends
			if seen == nil {
				seen = map[string]bool{}
			}
			if seen[to] {
				return id
			}
			seen[id] = true
		}
		id = to
	}
}

// reidRefused reports whether the hub leaves out a reid of from to to:
// to is from, or to was itself reided away before (next knows it), as a
// reid back to an old id would be (A to B, then B to A), which would
// close a cycle. The workspace refuses such a reid when it plans one
// (catalog.Migrate); a ledger that holds one anyway (an older version, a
// forged event) has it left out by the hub's models, which keep the ids
// they had.
func reidRefused(from, to string, next func(id string) (string, bool)) bool {
	_, retired := next(to)
	return from == to || retired
}
