package projections

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/content"
)

// Latency is the latency histogram of one tool.
type Latency struct {
	Tool string `json:"tool"`
	// Buckets holds the calls per bucket (see LatencyBound), trailing
	// empty buckets left out.
	Buckets []uint64 `json:"buckets"`
}

// Count returns the number of calls of the histogram.
func (l Latency) Count() uint64 {
	var n uint64
	for _, c := range l.Buckets {
		n += c
	}
	return n
}

// Quantile returns the upper bound in µs of the bucket that holds the
// q-quantile (0 < q <= 1) of the durations, 0 for an empty histogram: the
// true quantile is at most that, and more than two thirds of it.
func (l Latency) Quantile(q float64) uint64 {
	total := l.Count()
	if total == 0 {
		return 0
	}
	rank := uint64(q*float64(total) + 0.5)
	rank = min(max(rank, 1), total)
	var seen uint64
	for i, c := range l.Buckets {
		seen += c
		if seen >= rank {
			return LatencyBound(i + 1)
		}
	}
	return LatencyBound(len(l.Buckets))
}

// Days returns the counts of every day that has events, oldest first.
func (s *Store) Days() []Day {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Day, 0, len(s.st.dash.days))
	for day, r := range s.st.dash.days {
		out = append(out, Day{Day: day, Events: r.Events, Calls: r.Calls, Errors: r.Errors, Refs: r.Refs, Setups: r.Setups})
	}
	slices.SortFunc(out, func(a, b Day) int { return strings.Compare(a.Day, b.Day) })
	return out
}

// Latencies returns the latency histogram of every tool that was called,
// sorted by tool.
func (s *Store) Latencies() []Latency {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Latency, 0, len(s.st.dash.hist))
	for tool, h := range s.st.dash.hist {
		n := len(h)
		for n > 0 && h[n-1] == 0 {
			n--
		}
		out = append(out, Latency{Tool: tool, Buckets: slices.Clone(h[:n])})
	}
	slices.SortFunc(out, func(a, b Latency) int { return strings.Compare(a.Tool, b.Tool) })
	return out
}

// RuleDays returns the refs to a rule or workflow per day, oldest first.
func (s *Store) RuleDays(ruleID string) []Day {
	s.mu.RLock()
	defer s.mu.RUnlock()
	byDay := s.st.dash.ruleDays[ruleID]
	out := make([]Day, 0, len(byDay))
	for day, n := range byDay {
		out = append(out, Day{Day: day, Refs: n})
	}
	slices.SortFunc(out, func(a, b Day) int { return strings.Compare(a.Day, b.Day) })
	return out
}

// Timeline returns the sequences of a session's events in ledger order:
// the last limit of them when limit > 0, and whether older ones were left
// out. The ledger has the events.
func (s *Store) Timeline(ctx context.Context, sessionID string, limit int) ([]uint64, bool, error) {
	seqs, more, err := s.newest(ctx, prefixSessionIndex, sessionID, limit)
	slices.Reverse(seqs)
	return seqs, more, err
}

// RuleApplications returns the sequences of the newest limit successful
// memrefs (all when limit <= 0) that named a rule or workflow, newest
// first, and whether older ones were left out. The ledger has the events.
func (s *Store) RuleApplications(ctx context.Context, ruleID string, limit int) ([]uint64, bool, error) {
	return s.newest(ctx, prefixRuleIndex, ruleID, limit)
}

// Publishes returns every publish of an object, oldest first.
func (s *Store) Publishes(ctx context.Context, id string) ([]PublishEntry, error) {
	var out []PublishEntry
	_, err := s.scanLog(ctx, prefixPublishLog, id, 0, func(_ uint64, v []byte) error {
		var e PublishEntry
		if err := json.Unmarshal(v, &e); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	slices.Reverse(out)
	return out, err
}

// PublishedBody returns the published body of an object, ErrNotFound for
// an id that is not published.
func (s *Store) PublishedBody(id string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return "", ErrClosed
	}
	if s.st.manifest.objects[id] == nil {
		return "", ErrNotFound
	}
	return s.body(id)
}

// scanLog calls fn for the rows of one id of a log, newest first, at most
// limit of them when limit > 0; more reports rows left.
func (s *Store) scanLog(ctx context.Context, prefix, id string, limit int, fn func(seq uint64, v []byte) error) (more bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return false, ErrClosed
	}
	lower := []byte(prefix + id + "\x00")
	upper := []byte(prefix + id + "\x01")
	it, err := s.db.NewIter(nil)
	if err != nil {
		return false, fmt.Errorf("read %s%s: %w", prefix, id, err)
	}
	defer it.Close()
	n := 0
	for ok := it.SeekLT(upper); ok && strings.HasPrefix(string(it.Key()), string(lower)); ok = it.Prev() {
		k := it.Key()
		if len(k) != len(lower)+8 {
			continue
		}
		if limit > 0 && n == limit {
			return true, nil
		}
		v, err := it.ValueAndErr()
		if err == nil {
			err = fn(binary.BigEndian.Uint64(k[len(lower):]), v)
		}
		if err != nil {
			return false, fmt.Errorf("read %s%s: %w", prefix, id, err)
		}
		n++
	}
	return false, it.Error()
}

// Session returns the summary of one session, ErrNotFound for an id the
// ledger has no event of.
func (s *Store) Session(id string) (Session, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r, ok := s.st.sessions.byID[id]; ok {
		return r.session(), nil
	}
	return Session{}, ErrNotFound
}

// RuleSummary is a published rule, workflow or context with its refs, as
// a list of them shows it.
type RuleSummary struct {
	ID          string       `json:"id"`
	Kind        content.Kind `json:"kind"`
	Path        string       `json:"path"`
	Name        string       `json:"name"`
	Group       string       `json:"group,omitempty"`
	Description string       `json:"description,omitempty"`
	Refs        uint64       `json:"refs"`
	Constraints int          `json:"constraints"`
	// Unused counts the constraints of the published body never
	// referenced.
	Unused int `json:"unusedConstraints"`
}

// RuleSummaries returns every published rule, workflow and context with
// its refs, sorted by path, then id. It copies no constraint and no body,
// so that a list of 10,000 rules stays cheap.
func (s *Store) RuleSummaries() []RuleSummary {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]RuleSummary, 0, len(s.st.manifest.objects))
	for _, o := range s.st.manifest.objects {
		f := o.fields()
		kind := content.Kind(f[fieldKind])
		if kind != content.KindRule && kind != content.KindWorkflow && kind != content.KindContext {
			continue
		}
		ids := o.constraintIDs()
		r := RuleSummary{
			ID: f[fieldID], Kind: kind, Path: f[fieldPath], Name: f[fieldName], Group: f[fieldGroup], Description: f[fieldDescription],
			Refs: s.st.usage.rules[f[fieldID]], Constraints: len(ids),
		}
		counted := s.st.usage.constraints[f[fieldID]]
		for _, id := range ids {
			if counted[id] == 0 {
				r.Unused++
			}
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b RuleSummary) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.ID, b.ID))
	})
	return out
}

// UsageOf returns the refs of one rule or workflow and of each constraint
// it was referenced by (sorted by constraint id), whether published or
// not; zero refs for an id never referenced.
func (s *Store) UsageOf(id string) RuleUsage {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := RuleUsage{ID: id, Refs: s.st.usage.rules[id], Constraints: []ConstraintUsage{}}
	if o, ok := s.st.manifest.objects[id]; ok {
		u.Path, u.Kind = o.Path(), o.Kind()
	}
	for c, n := range s.st.usage.constraints[id] {
		u.Constraints = append(u.Constraints, ConstraintUsage{ID: c, Refs: n})
	}
	slices.SortFunc(u.Constraints, func(a, b ConstraintUsage) int { return strings.Compare(a.ID, b.ID) })
	return u
}
