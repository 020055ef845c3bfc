package hub

import (
	"strings"

	"github.com/cockroachdb/pebble/v2"
)

// aliases maps the old ids of a workspace's rules to their ids now, as
// its catalog.reid events said (a workspace of an older version moving to
// the ids every clone derives): stats count what was counted under an old
// id under the new one.
type aliases map[[3]string]string // team, workspace, old id -> new id

// maxAliasHops bounds the old ids followed from one id (a rule reided
// again after a rename whose ids file was not pulled).
const maxAliasHops = 8

// readAliases reads the aliases of every workspace from the a rows of r.
func readAliases(r pebble.Reader) (aliases, error) {
	out := aliases{}
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: prefixAlias(), UpperBound: prefixEnd(prefixAlias())})
	if err != nil {
		return nil, err
	}
	for it.First(); it.Valid(); it.Next() {
		p := strings.Split(string(it.Key()), sep)
		if len(p) == 4 {
			out[[3]string{p[1], p[2], p[3]}] = string(it.Value())
		}
	}
	return out, it.Close()
}

// of returns the id rule of workspace ws has now.
func (a aliases) of(team, ws, rule string) string {
	for range maxAliasHops {
		to, ok := a[[3]string{team, ws, rule}]
		if !ok || to == rule {
			break
		}
		rule = to
	}
	return rule
}
