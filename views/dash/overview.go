package dash

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/projections"
)

// Overview is the API's overview: GET /api/overview.
type Overview struct {
	Ledger
	// Range is the range of days the figures count (ranged.go); the
	// zero Range is all time.
	Range  dayrange.Range `json:"range"`
	Events uint64         `json:"events"`
	// Calls and Errors count the tool calls and the failed ones in the
	// range; Tools are over all time.
	Calls    uint64 `json:"calls"`
	Errors   uint64 `json:"errors"`
	Sessions int    `json:"sessions"` // sessions set up (events.SessionSetUp)
	// SessionsHooksOnly counts the sessions a host hook saw that never set
	// up (events.SessionHooksOnly).
	SessionsHooksOnly int               `json:"sessionsHooksOnly"`
	Refs              uint64            `json:"refs"`
	Objects           int               `json:"objects"`
	Drafts            int               `json:"drafts"`
	Days              []projections.Day `json:"days"`
	Tools             []Tool            `json:"tools"`
	// MostApplied and LeastApplied are the rules and workflows with the
	// most and the fewest refs (published ones only), at most TopN each;
	// no rule is in both (a small catalog is split between them).
	MostApplied  []RuleRefs     `json:"mostApplied"`
	LeastApplied []RuleRefs     `json:"leastApplied"`
	Recent       []SessionBrief `json:"recentSessions"` // newest first, at most TopN
	// Hosts and Models count the sessions set up in the range by the host
	// and the model that ran them (dash.Who; "unknown" where none was
	// named), most sessions first.
	Hosts  []Breakdown `json:"hosts"`
	Models []Breakdown `json:"models"`
}

// TopN bounds the lists of the overview.
const TopN = 10

// Tool is what the overview shows of one tool.
type Tool struct {
	Tool      string  `json:"tool"`
	Calls     uint64  `json:"calls"`
	Errors    uint64  `json:"errors"`
	ErrorRate float64 `json:"errorRate"` // errors / calls
	AvgUs     uint64  `json:"avgUs"`
	// P50Us and P99Us are read from the latency histogram: upper bounds
	// of the bucket that holds them, within a factor of 1.5.
	P50Us uint64 `json:"p50Us"`
	P99Us uint64 `json:"p99Us"`
	MaxUs uint64 `json:"maxUs"`
}

// RuleRefs is a rule or workflow with its refs.
type RuleRefs struct {
	ID   string       `json:"id"`
	Path string       `json:"path"`
	Kind content.Kind `json:"kind"`
	Refs uint64       `json:"refs"`
}

// SessionBrief is a session in a list.
type SessionBrief struct {
	projections.Session
	// Host and Model are the agent host and the model its hooks named
	// (the sessions list and search only).
	Host  string `json:"host,omitempty"`
	Model string `json:"model,omitempty"`
}

func overview(src Source, led Ledger, rg dayrange.Range) Overview {
	sum := src.Summary()
	days := src.Days()
	in := SumDays(days, rg)
	ov := Overview{
		Ledger: led, Range: rg, Events: sum.Events, Sessions: sum.Sessions, SessionsHooksOnly: sum.SessionsHooksOnly, Objects: sum.Objects, Drafts: sum.Drafts,
		Calls: in.Calls, Errors: in.Errors, Refs: in.Refs,
		Days: fillDays(days, rg, time.Now()), Tools: tools(src), MostApplied: []RuleRefs{}, LeastApplied: []RuleRefs{},
	}
	all := SessionsIn(src.Sessions(), rg)
	if !rg.All() {
		ov.Events = in.Events
		ov.Sessions, ov.SessionsHooksOnly = Kinds(all)
	}
	var published []RuleRefs
	for _, r := range src.RuleSummaries() {
		if r.Kind != content.KindContext {
			published = append(published, RuleRefs{ID: r.ID, Path: r.Path, Kind: r.Kind, Refs: refsIn(src, r, rg)})
		}
	}
	slices.SortFunc(published, func(a, b RuleRefs) int {
		return cmp.Or(cmp.Compare(b.Refs, a.Refs), strings.Compare(a.Path, b.Path))
	})
	// A catalog of fewer than 2*TopN rules is split between the two
	// lists, so that no rule is in both.
	most := min(TopN, (len(published)+1)/2)
	ov.MostApplied = append(ov.MostApplied, published[:most]...)
	for i := len(published) - 1; i >= most && len(ov.LeastApplied) < TopN; i-- {
		ov.LeastApplied = append(ov.LeastApplied, published[i])
	}
	who := whoIndex(src)
	ov.Recent = recentSessions(all, TopN)
	for i := range ov.Recent {
		w := who[ov.Recent[i].ID]
		ov.Recent[i].Host, ov.Recent[i].Model = w.Host, w.Model
	}
	ov.Hosts, ov.Models = breakdowns(all, who)
	return ov
}

func tools(src Source) []Tool {
	lat := make(map[string]projections.Latency)
	for _, l := range src.Latencies() {
		lat[l.Tool] = l
	}
	out := []Tool{}
	for _, m := range src.Tools() {
		t := Tool{Tool: m.Tool, Calls: m.Calls, Errors: m.Errors, AvgUs: m.AvgUs(), MaxUs: m.MaxUs}
		if m.Calls > 0 {
			t.ErrorRate = float64(m.Errors) / float64(m.Calls)
		}
		if l, ok := lat[m.Tool]; ok {
			t.P50Us, t.P99Us = min(l.Quantile(0.5), m.MaxUs), min(l.Quantile(0.99), m.MaxUs)
		}
		out = append(out, t)
	}
	return out
}

// recentSessions returns the n sessions with the latest last event, newest
// first, of those that set up.
func recentSessions(all []projections.Session, n int) []SessionBrief {
	slices.SortFunc(all, func(a, b projections.Session) int {
		return cmp.Or(strings.Compare(b.Last, a.Last), strings.Compare(a.ID, b.ID))
	})
	out := []SessionBrief{}
	for _, s := range all {
		if len(out) == n {
			break
		}
		if s.SetUp {
			out = append(out, SessionBrief{Session: s})
		}
	}
	return out
}

// refsIn returns the refs of rule r in rg.
func refsIn(src Source, r projections.RuleSummary, rg dayrange.Range) uint64 {
	if rg.All() {
		return r.Refs
	}
	return SumDays(src.RuleDays(r.ID), rg).Refs
}
