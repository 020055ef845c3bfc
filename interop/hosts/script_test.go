package hosts

import (
	"regexp"
	"strings"
	"sync"
)

// The markers the script reads in what a host sends its model.
const (
	// doneText ends the scripted agent's turn before it has reported.
	doneText = "clumsies-script: the turn is done."
	// reportedText ends the turn after agentreport.
	reportedText = "clumsies-script: reported."
	// stopMarker is a phrase of adapt.StopReason: the stop hook's reason
	// came back to the model.
	stopMarker = "has no report yet"
	// stopGateMarker is a phrase of adapt.StopGateReason: the stop gate's
	// reason (files changed in scope of rules not loaded) came back.
	stopGateMarker = "without loading them"
	// subMarker starts the prompt the script gives a subagent: a request
	// whose first user message holds it is the subagent's.
	subMarker = "clumsies-script subagent:"
)

// stopGateReason is adapt.StopGateReason up to the rules it names, as it
// appears in a request.
var stopGateReason = regexp.MustCompile(`before you stop, you changed .*?` + stopGateMarker + `: [^.]*`)

// announcedID finds the session id of adapt.SetupContext in a request
// body, its quotes JSON-escaped or not.
var announcedID = regexp.MustCompile(`session's id is \\*"([^"\\]+)\\*"`)

// announcedSecret finds the session secret of adapt.SetupContext in a
// request body, its quotes JSON-escaped or not.
var announcedSecret = regexp.MustCompile(`session_secret \\*"(css-[0-9a-f]+)\\*"`)

// conversation is what the script needs of one model request, whichever
// API it came in.
type conversation struct {
	body       string   // the request as sent
	tools      []string // the tool names offered
	called     []string // the tool names the model called so far, in order
	lastResult string   // the last tool result in the request, as sent
	first      string   // the first user message, as sent (read for the Anthropic API only)
}

// step is the script's answer: a tool call (tool set) or a text ending the
// turn.
type step struct {
	tool string
	args map[string]any
	text string
}

// script is the stand-in model's fixed behaviour, shared by the servers of
// every API. It remembers what it saw for the checks after a run.
type script struct {
	mu        sync.Mutex
	announced string   // the session id seen in the session-start context
	secret    string   // the session secret seen with it
	calls     []string // the tool calls it made, "tool" or "tool:arg"
	stopSeen  int      // requests that carried the stop hook's reason
	requests  int
	edit      *edit    // the edit to make after memdisc, if any
	denials   []string // the edit's results that named memload
	plan      *plan    // the calls to make after memdisc instead of an edit, if any
	sub       *plan    // a subagent's calls, if any
	stopGate  string   // the stop gate's reason as the model last read it
}

// plan is a fixed series of tool calls the script makes in a row, each
// whatever the previous one's result, and what each result said.
type plan struct {
	steps   []planned
	results []string // the result of each step as the model read it ("" until then)
}

// planned is one call of a plan: the host's tool, and its arguments,
// made from the conversation (a subagent's working folder is in its
// system prompt).
type planned struct {
	tool string
	args func(c conversation) map[string]any
}

// fixed is arguments known before the run.
func fixed(args map[string]any) func(conversation) map[string]any {
	return func(conversation) map[string]any { return args }
}

// at returns step k of the plan for the conversation that made k calls of
// it (recording the result of the one before), or false when it is done.
func (p *plan) at(c conversation, k int) (planned, bool) {
	if k > 0 && k <= len(p.steps) {
		p.results[k-1] = c.lastResult
	}
	if k < len(p.steps) {
		return p.steps[k], true
	}
	return planned{}, false
}

// edit is the file-changing tool call a host's script makes after
// memdisc: the host's own tool (Write, write_file, ...) with its
// arguments, writing path.
type edit struct {
	tool string
	args map[string]any
	path string // absolute
}

// matches says whether the tool name is base, or base under a prefix
// (hosts prefix MCP tools with the server's name in their own way).
func matches(name, base string) bool {
	return name == base || strings.HasSuffix(name, "_"+base) || strings.HasSuffix(name, "-"+base)
}

// offered returns the offered tool named for base, or "".
func (c conversation) offered(base string) string {
	for _, name := range c.tools {
		if matches(name, base) {
			return name
		}
	}
	return ""
}

// calls says how many times the model already called the tool named for
// base.
func (c conversation) calls(base string) int {
	n := 0
	for _, name := range c.called {
		if matches(name, base) {
			n++
		}
	}
	return n
}

func (c conversation) hasCalled(base string) bool { return c.calls(base) > 0 }

// ruleID is the form of a published object's id (p- a rule, ...).
var ruleID = regexp.MustCompile(`\b[a-z]-[0-9a-f]{32}\b`)

// next decides the model's answer to c: memsetup with the announced id,
// memdisc, the plan's calls when the script has one (whatever their
// results), or the edit when it has one (when a gate denies it naming
// memload: memload the ids it names, then the edit again), end the turn;
// once the stop hook's reason is back, agentreport (after the plan, when
// the stop gate's reason names rules not loaded, memload them first), end
// the turn. A subagent's request makes the subagent's calls, then
// ends its turn. A request that offers no memsetup (a host's own side
// request, such as a title) gets a short text.
func (s *script) next(c conversation) step {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	if s.sub != nil && strings.Contains(c.first, subMarker) {
		if st, ok := s.sub.at(c, len(c.called)); ok {
			return s.call(st.tool, st.args(c))
		}
		return step{text: "clumsies-script: the subagent is done."}
	}
	setup := c.offered("memsetup")
	if setup == "" {
		return step{text: "clumsies session"}
	}
	if m := announcedID.FindStringSubmatch(c.body); m != nil && s.announced == "" {
		s.announced = m[1]
		if m := announcedSecret.FindStringSubmatch(c.body); m != nil {
			s.secret = m[1]
		}
	}
	stopBack := strings.Contains(c.body, stopMarker) || strings.Contains(c.body, stopGateMarker)
	if stopBack {
		s.stopSeen++
	}
	e := s.edit
	if s.plan != nil && c.hasCalled("memsetup") && c.hasCalled("memdisc") && !c.hasCalled("agentreport") {
		if st, ok := s.plan.at(c, len(c.called)-c.calls("memsetup")-c.calls("memdisc")); ok {
			return s.call(st.tool, st.args(c))
		}
	}
	switch {
	case !c.hasCalled("memsetup"):
		if s.announced == "" {
			return step{text: "clumsies-script: no session id was announced."}
		}
		args := map[string]any{"session_id": s.announced, "knownHashes": map[string]any{"META_PROMPT.md": ""}}
		if s.secret != "" {
			args["session_secret"] = s.secret
		}
		return s.call(setup, args)
	case !c.hasCalled("memdisc"):
		return s.call(c.offered("memdisc"), map[string]any{})
	case e != nil && c.calls(e.tool) == 0:
		return s.call(e.tool, e.args)
	case e != nil && c.calls(e.tool) == 1 && !c.hasCalled("memload") && strings.Contains(c.lastResult, "memload"):
		s.denials = append(s.denials, c.lastResult)
		ids, known := []string{}, map[string]any{}
		for _, id := range ruleID.FindAllString(c.lastResult, -1) {
			if _, dup := known[id]; !dup {
				ids, known[id] = append(ids, id), ""
			}
		}
		return s.call(c.offered("memload"), map[string]any{"ids": ids, "knownHashes": known})
	case e != nil && c.calls(e.tool) == 1 && c.hasCalled("memload"):
		return s.call(e.tool, e.args)
	case c.hasCalled("agentreport"):
		return step{text: reportedText}
	case s.plan != nil && stopGateReason.MatchString(c.body) && !c.hasCalled("memload"):
		// The stop gate named the rules not loaded: load them, then report.
		all := stopGateReason.FindAllString(c.body, -1)
		s.stopGate = all[len(all)-1]
		ids, known := []string{}, map[string]any{}
		for _, id := range ruleID.FindAllString(s.stopGate, -1) {
			if _, dup := known[id]; !dup {
				ids, known[id] = append(ids, id), ""
			}
		}
		return s.call(c.offered("memload"), map[string]any{"ids": ids, "knownHashes": known})
	case stopBack:
		return s.call(c.offered("agentreport"), map[string]any{"summary": "Set up the session and listed the rules."})
	}
	return step{text: doneText}
}

func (s *script) call(tool string, args map[string]any) step {
	s.calls = append(s.calls, tool)
	return step{tool: tool, args: args}
}

// count returns how many requests the script answered, for ids.
func (s *script) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// setEdit has the script make e after memdisc.
func (s *script) setEdit(e edit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.edit = &e
}

// setPlan has the script make the calls of steps after memdisc, and
// those of sub in a subagent (a request whose first user message holds
// subMarker).
func (s *script) setPlan(steps, sub []planned) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.plan = &plan{steps: steps, results: make([]string, len(steps))}
	if sub != nil {
		s.sub = &plan{steps: sub, results: make([]string, len(sub))}
	}
}

// planResults returns what the results of the plan's calls and the
// subagent's said, in order.
func (s *script) planResults() (main, sub []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.plan != nil {
		main = append(main, s.plan.results...)
	}
	if s.sub != nil {
		sub = append(sub, s.sub.results...)
	}
	return main, sub
}

// stopGateRead returns the stop gate's reason as the model read it, up to
// the rules it names, or "".
func (s *script) stopGateRead() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopGate
}

// denied returns the edit's results that named memload: a gate's denials.
func (s *script) denied() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.denials...)
}

// seen returns what the script saw and did, for the checks.
func (s *script) seen() (announced string, calls []string, stopSeen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.announced, append([]string(nil), s.calls...), s.stopSeen
}
