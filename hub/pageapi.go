package hub

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// pageParams are the parameters of every list the API serves in pages.
var pageParams = []string{"limit", "cursor"}

// pageOf reads a page's cursor and limit from v: limit 1 to
// hubwire.MaxLimit, hubwire.DefaultLimit when absent.
func pageOf(v url.Values) (cursor string, limit int, err error) {
	limit = hubwire.DefaultLimit
	if s := v.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > hubwire.MaxLimit {
			return "", 0, fmt.Errorf("%w: limit %q: want 1 to %d", ErrInvalid, s, hubwire.MaxLimit)
		}
		limit = n
	}
	return v.Get("cursor"), limit, nil
}

// listPage reads the cursor and limit of a list that takes no other
// parameters than known and pageParams, or answers why it cannot.
func (a *api) listPage(w http.ResponseWriter, r *http.Request, known ...string) (cursor string, limit int, ok bool) {
	v := r.URL.Query()
	err := onlyParams(v, append(known, pageParams...)...)
	if err == nil {
		cursor, limit, err = pageOf(v)
	}
	if err != nil {
		a.fail(w, err)
		return "", 0, false
	}
	return cursor, limit, true
}

// servePage answers a page of a list with the query of statsQuery and
// extra parameters besides pageParams: list reads the page.
func servePage[T any](a *api, w http.ResponseWriter, r *http.Request, extra []string, list func(q Query, v url.Values, cursor string, limit int) (hubwire.Page[T], error)) {
	q, ok := a.statsQuery(w, r, append(extra, pageParams...)...)
	if !ok {
		return
	}
	v := r.URL.Query()
	cursor, limit, err := pageOf(v)
	if err != nil {
		a.fail(w, err)
		return
	}
	p, err := list(q, v, cursor, limit)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (a *api) statsRules(w http.ResponseWriter, r *http.Request) {
	servePage(a, w, r, []string{"used"}, func(q Query, v url.Values, cursor string, limit int) (hubwire.Page[hubwire.RuleStats], error) {
		used, err := parseBool(v, "used")
		if err != nil {
			return hubwire.Page[hubwire.RuleStats]{}, err
		}
		return a.h.StatsRules(q, used, cursor, limit)
	})
}

func (a *api) statsMembers(w http.ResponseWriter, r *http.Request) {
	servePage(a, w, r, nil, func(q Query, _ url.Values, cursor string, limit int) (hubwire.Page[hubwire.MemberStats], error) {
		return a.h.StatsMembers(q, cursor, limit)
	})
}

func (a *api) statsEvidenceRules(w http.ResponseWriter, r *http.Request) {
	servePage(a, w, r, nil, func(q Query, _ url.Values, cursor string, limit int) (hubwire.Page[hubwire.RuleEvidence], error) {
		return a.h.StatsEvidenceRules(q, cursor, limit)
	})
}

func (a *api) statsSessions(w http.ResponseWriter, r *http.Request) {
	servePage(a, w, r, nil, func(q Query, _ url.Values, cursor string, limit int) (hubwire.Page[hubwire.SessionEvidence], error) {
		return a.h.StatsSessions(q, cursor, limit)
	})
}

func (a *api) statsChecks(w http.ResponseWriter, r *http.Request) {
	servePage(a, w, r, nil, func(q Query, _ url.Values, cursor string, limit int) (hubwire.Page[hubwire.RuleChecks], error) {
		return a.h.StatsChecks(q, cursor, limit)
	})
}

// parseBool reads the boolean parameter k of v: false when absent.
func parseBool(v url.Values, k string) (bool, error) {
	s := v.Get(k)
	if s == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("%w: %s %q: want true or false", ErrInvalid, k, s)
	}
	return b, nil
}

// onlyParams refuses a parameter of v that is not in known.
func onlyParams(v url.Values, known ...string) error {
	for k := range v {
		if !slices.Contains(known, k) {
			return fmt.Errorf("%w: unknown parameter %q (%s)", ErrInvalid, k, strings.Join(known, ", "))
		}
	}
	return nil
}
