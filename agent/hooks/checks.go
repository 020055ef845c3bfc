package hooks

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/rulecheck"
)

// MaxStopFindings bounds the findings a stop's reason, or the context
// after a tool, names.
const MaxStopFindings = 20

// changed is one file a check looks at: its path in the tree and where
// its change started (the blob id before, where known).
type changed struct {
	path   string
	before string
	known  bool
}

// checkRun is the checks of the rules in scope of some changed files,
// run on their changes.
type checkRun struct {
	rules   []rulecheck.Rule
	files   []string // the files checked, sorted
	results []rulecheck.Result
}

// runChecks runs the checks of the rules in scope of files on the lines
// their changes added: the pattern checks always, the command checks
// when commands is set (on the files checked). A file gone is checked
// with no result (what it held is no finding any more); files no check
// applies to, too large or not text are left out. It reads the rules from
// the owner; none in scope, it does nothing.
func runChecks(ctx context.Context, hd *node.Handle, pl place, files []changed, commands bool) (checkRun, error) {
	var run checkRun
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	if len(paths) == 0 {
		return run, nil
	}
	var err error
	if run.rules, err = hd.Checks(ctx, node.ChecksQuery{Paths: paths}); err != nil || len(run.rules) == 0 {
		return run, err
	}
	set, err := rulecheck.Compile(run.rules)
	if err != nil {
		return run, err
	}
	tx := newTexts(pl)
	var inScope, present []string
	for _, f := range files {
		if !set.Applies(f.path) {
			continue
		}
		after, id, ok := tx.now(f.path)
		if !ok {
			if tx.gone(f.path) {
				inScope = append(inScope, f.path) // checked: what it held is no finding any more
			}
			continue
		}
		present = append(present, f.path)
		tx.keep(id, after)
		before, _ := tx.before(ctx, f.path, f.before, f.known)
		inScope = append(inScope, f.path)
		run.results = append(run.results, set.File(f.path, rulecheck.Added(before, after))...)
	}
	if commands && len(present) > 0 {
		run.results = append(run.results, set.Commands(ctx, pl.tree, present, rulecheck.Limits{})...)
	}
	slices.Sort(inScope)
	run.files = inScope
	return run, nil
}

// findings are the results that failed.
func (c checkRun) findings() []rulecheck.Result { return rulecheck.Findings(c.results) }

// data is the attest.check of the run, unloaded being the ids of rules
// the session had not loaded.
func (c checkRun) data(host, via string, unloaded []string) events.CheckData {
	d := events.CheckData{Host: host, Via: via, Rules: []events.CheckedRule{}, Files: c.files, Results: []events.CheckResult{}}
	if d.Files == nil {
		d.Files = []string{}
	}
	for _, r := range c.rules {
		d.Rules = append(d.Rules, events.CheckedRule{ID: r.ID, Hash: r.Hash})
		if slices.Contains(unloaded, r.ID) {
			d.Unloaded = append(d.Unloaded, r.ID)
		}
	}
	slices.SortFunc(d.Rules, func(a, b events.CheckedRule) int { return cmp.Compare(a.ID, b.ID) })
	slices.Sort(d.Unloaded)
	ordered := append(c.findings(), passes(c.results)...)
	for i, r := range ordered {
		if i == events.MaxCheckResults {
			d.Dropped = len(ordered) - i
			break
		}
		d.Results = append(d.Results, events.CheckResult{Rule: r.Rule, Constraint: r.Constraint, Check: r.Check, Kind: r.Kind,
			File: r.File, Pass: r.Pass, Line: r.Line, Match: r.Match})
	}
	return d
}

// passes are the results that passed.
func passes(rs []rulecheck.Result) []rulecheck.Result {
	var out []rulecheck.Result
	for _, r := range rs {
		if r.Pass {
			out = append(out, r)
		}
	}
	return out
}

// findingLines words findings for the agent, MaxStopFindings at most,
// and says how many more there are.
func (c checkRun) findingLines() (lines []string, more int) {
	paths := map[string]string{}
	for _, r := range c.rules {
		paths[r.ID] = r.Path
	}
	for _, f := range c.findings() {
		if len(lines) == MaxStopFindings {
			more++
			continue
		}
		where := f.File
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		l := fmt.Sprintf("%s %s (%s)", where, f.Constraint, paths[f.Rule])
		if f.Message != "" {
			l += ": " + f.Message
		}
		if f.Output != "" {
			l += "\n  " + f.Output
		}
		lines = append(lines, l)
	}
	return lines, more
}
