package history

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/proof/ledger"
)

// Options shape a history.
type Options struct {
	// Days is how many days back the history starts (at least 1).
	Days int
	// Seed makes the history repeatable.
	Seed uint64
	// Now is its last day; zero: today.
	Now time.Time
}

// rule is a published rule or workflow a session may load and refer to.
type rule struct {
	id, hash    string
	constraints []content.Constraint
	weight      int // how often sessions pick it
}

// Write writes to w an export of a ledger of workspaceID whose content
// tree is the one under contentRoot (the .clumsies folder): its publish
// opt.Days days ago, as `clumsies publish` would record it (so that a
// later publish of the same tree changes nothing), then the sessions of
// every day since. Weekends are quieter and one week in the middle has
// no session at all; legacy/SVN.md, if the tree has it, is never
// referred to.
func Write(ctx context.Context, contentRoot, workspaceID string, opt Options, w io.Writer) (ledger.Summary, error) {
	files, err := content.Scan(contentRoot)
	if err != nil {
		return ledger.Summary{}, fmt.Errorf("scan %s: %w", contentRoot, err)
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	days := max(opt.Days, 1)
	day0 := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, -days)
	g := &gen{log: events.NewMemoryLog(), ws: workspaceID, rng: rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x5eed)), at: day0.Add(8 * time.Hour)}
	var rules []rule
	var metaHash string
	for _, c := range catalog.Diff(files, nil, nil) {
		ev, err := c.Event(workspaceID)
		if err != nil {
			return ledger.Summary{}, err
		}
		if err := g.add(ctx, ev, 0); err != nil {
			return ledger.Summary{}, err
		}
		switch c.File.Kind {
		case content.KindMPF:
			metaHash = c.File.Hash
		case content.KindRule, content.KindWorkflow:
			r := rule{id: c.ID, hash: c.File.Hash, constraints: content.ParseConstraints(c.File.Name, c.File.Body), weight: 6 - min(len(rules), 5)}
			if c.File.Path == neverApplied {
				r.weight = 0 // loaded now and then, never applied
			}
			rules = append(rules, r)
		}
	}
	for d := 0; d <= days; d++ {
		date := day0.AddDate(0, 0, d)
		n := 1 + g.rng.IntN(4)
		switch {
		case d > days/2-4 && d <= days/2+3 && days > 14: // a quiet week
			n = 0
		case date.Weekday() == time.Saturday || date.Weekday() == time.Sunday:
			n = g.rng.IntN(2)
		}
		for i := range n {
			g.at = date.Add(time.Duration(9+i*2+g.rng.IntN(2))*time.Hour + time.Duration(g.rng.IntN(3600))*time.Second)
			if d == days && g.at.After(now) {
				break
			}
			if err := g.session(ctx, fmt.Sprintf("s-%s-%d", date.Format("0102"), i+1), metaHash, rules); err != nil {
				return ledger.Summary{}, err
			}
		}
	}
	return ledger.Export(ctx, g.log, workspaceID, 1, 0, w, nil)
}

// gen appends the events of a history in time order.
type gen struct {
	log *events.MemoryLog
	ws  string
	rng *rand.Rand
	at  time.Time
}

// add appends ev at the generator's time, then moves the time on by a few
// seconds; a tool call takes durationUs.
func (g *gen) add(ctx context.Context, ev events.Event, durationUs int64) error {
	ev.Time = events.FormatTime(g.at)
	ev.DurationUs = durationUs
	g.at = g.at.Add(time.Duration(2+g.rng.IntN(40)) * time.Second)
	if _, err := g.log.Append(ctx, ev); err != nil {
		return fmt.Errorf("append %s: %w", ev.Type, err)
	}
	return nil
}

// event appends an event of session sid; a tool's call (tool not "")
// that failed has code.
func (g *gen) event(ctx context.Context, sid string, t events.Type, tool, code string, p any) error {
	ev, err := events.New(g.ws, t, p)
	if err != nil {
		return err
	}
	ev.SessionID, ev.Tool = sid, tool
	var us int64
	if tool != "" {
		us = int64(40 + g.rng.IntN(900) + g.rng.IntN(4)*g.rng.IntN(4000))
	}
	if code != "" {
		ev.Outcome, ev.ErrorCode = events.OutcomeError, code
	}
	return g.add(ctx, ev, us)
}

var (
	hosts   = []string{"claude-code", "codex", "gemini-cli", "copilot"}
	queries = []string{"error handling", "how to commit", "tests", "logging", "naming", "review"}
	reasons = []string{"wrapped the error with what was being read", "kept the change small and reviewable",
		"named the failing file in the message", "ran the tests before the report", "no stack trace reaches the user",
		"split the refactor from the fix"}
)

// session appends one agent session: its hooks, setup, a discover, a
// load, refs to constraints of what it loaded, now and then a failed
// call or a rejection, and its report.
func (g *gen) session(ctx context.Context, sid, metaHash string, rules []rule) error {
	host := hosts[g.rng.IntN(len(hosts))]
	prompt := sha256.Sum256([]byte(sid))
	steps := []func() error{
		func() error {
			return g.event(ctx, sid, events.TypeSessionStart, "", "", events.SessionStartData{Host: host, Source: "startup"})
		},
		func() error {
			return g.event(ctx, sid, events.TypeUserPrompt, "", "", events.UserPromptData{Host: host,
				SHA256: "sha256:" + hex.EncodeToString(prompt[:]), Length: 40 + g.rng.IntN(400)})
		},
		func() error {
			return g.event(ctx, sid, events.TypeSetup, "memsetup", "", events.SetupData{Hash: metaHash, Changed: true})
		},
		func() error {
			return g.event(ctx, sid, events.TypeDiscover, "memdisc", "", events.DiscoverData{Query: queries[g.rng.IntN(len(queries))],
				Count: len(rules), Total: len(rules)})
		},
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	picked := g.pick(rules)
	var items []events.LoadedItem
	for _, r := range picked {
		items = append(items, events.LoadedItem{ID: r.id, Hash: r.hash, Changed: true})
	}
	if len(items) > 0 {
		if err := g.event(ctx, sid, events.TypeLoad, "memload", "", events.LoadData{Items: items}); err != nil {
			return err
		}
	}
	var refs []events.Ref
	for _, r := range picked {
		if r.weight == 0 || len(r.constraints) == 0 {
			continue
		}
		for range 1 + g.rng.IntN(2) {
			c := r.constraints[min(g.rng.IntN(len(r.constraints)), g.rng.IntN(len(r.constraints)))] // the first ones more often
			refs = append(refs, events.Ref{RuleID: r.id, RuleHash: r.hash, ConstraintID: c.ID, Name: c.Name, TextHash: c.TextHash,
				Reason: reasons[g.rng.IntN(len(reasons))]})
		}
	}
	if g.rng.IntN(6) == 0 {
		if err := g.event(ctx, sid, events.TypeRefer, "memref", "unknown_constraint", events.FailureData{Message: "no constraint Steps/9 in this rule"}); err != nil {
			return err
		}
	}
	if len(refs) > 0 {
		if err := g.event(ctx, sid, events.TypeRefer, "memref", "", events.ReferData{Refs: refs}); err != nil {
			return err
		}
	}
	if g.rng.IntN(8) == 0 {
		if err := g.event(ctx, sid, events.TypeReject, "agentrejected", "", events.RejectData{Reason: "the rule asks for a migration this change does not need"}); err != nil {
			return err
		}
	}
	return g.event(ctx, sid, events.TypeAgentReport, "agentreport", "", events.AgentReportData{Summary: "done: " + queries[g.rng.IntN(len(queries))]})
}

// pick chooses one to three rules, by weight, and the rules of weight 0
// now and then.
func (g *gen) pick(rules []rule) []rule {
	total := 0
	for _, r := range rules {
		total += r.weight
	}
	var out []rule
	seen := map[string]bool{}
	for range 1 + g.rng.IntN(3) {
		if total == 0 {
			break
		}
		n := g.rng.IntN(total)
		for _, r := range rules {
			if n -= r.weight; n < 0 {
				if !seen[r.id] {
					seen[r.id] = true
					out = append(out, r)
				}
				break
			}
		}
	}
	for _, r := range rules {
		if r.weight == 0 && g.rng.IntN(10) == 0 {
			out = append(out, r)
		}
	}
	return out
}
