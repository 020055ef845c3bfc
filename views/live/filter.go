package live

import (
	"fmt"
	"strings"

	"github.com/clumsies/clumsies/events"
)

// filter selects events by type prefix. A prefix matches whole
// dot-separated tokens: "attest.draft" matches attest.draft.create but
// "attest.dr" matches nothing. An empty filter selects every event.
type filter []string

// parseFilter checks the values of the type query parameter. Each must be
// a prefix of at least one known type, so that a typo is reported instead
// of yielding a stream that never delivers anything.
func parseFilter(values []string) (filter, error) {
	f := make(filter, 0, len(values))
	for _, v := range values {
		if v == "" {
			return nil, fmt.Errorf("empty type filter: want a type prefix such as %q or %q", "attest.refer", "catalog")
		}
		if !knownPrefix(v) {
			return nil, fmt.Errorf("type filter %q matches no event type: want a prefix of one of %s", v, typeList())
		}
		f = append(f, v)
	}
	return f, nil
}

// match reports whether the filter selects events of type t.
func (f filter) match(t events.Type) bool {
	if len(f) == 0 {
		return true
	}
	for _, p := range f {
		if hasTypePrefix(t, p) {
			return true
		}
	}
	return false
}

// hasTypePrefix reports whether prefix is t or t's leading tokens.
func hasTypePrefix(t events.Type, prefix string) bool {
	rest, ok := strings.CutPrefix(string(t), prefix)
	return ok && (rest == "" || rest[0] == '.')
}

func knownPrefix(prefix string) bool {
	for _, t := range events.Types() {
		if hasTypePrefix(t, prefix) {
			return true
		}
	}
	return false
}

func typeList() string {
	names := make([]string, 0, len(events.Types()))
	for _, t := range events.Types() {
		names = append(names, string(t))
	}
	return strings.Join(names, ", ")
}
