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
)

// announcedID finds the session id of adapt.SetupContext in a request
// body, its quotes JSON-escaped or not.
var announcedID = regexp.MustCompile(`session's id is \\*"([^"\\]+)\\*"`)

// conversation is what the script needs of one model request, whichever
// API it came in.
type conversation struct {
	body       string   // the request as sent
	tools      []string // the tool names offered
	called     []string // the tool names the model called so far, in order
	lastResult string   // the last tool result in the request, as sent
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
	calls     []string // the tool calls it made, "tool" or "tool:arg"
	stopSeen  int      // requests that carried the stop hook's reason
	requests  int
	edit      *edit    // the edit to make after memdisc, if any
	denials   []string // the edit's results that named memload
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
// memdisc, the edit when the script has one (when a gate denies it
// naming memload: memload the ids it names, then the edit again), end the
// turn; once the stop hook's reason is back, agentreport, end the turn. A
// request that offers no memsetup (a host's own side request, such as a
// title) gets a short text.
func (s *script) next(c conversation) step {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	setup := c.offered("memsetup")
	if setup == "" {
		return step{text: "clumsies session"}
	}
	if m := announcedID.FindStringSubmatch(c.body); m != nil && s.announced == "" {
		s.announced = m[1]
	}
	stopBack := strings.Contains(c.body, stopMarker)
	if stopBack {
		s.stopSeen++
	}
	e := s.edit
	switch {
	case !c.hasCalled("memsetup"):
		if s.announced == "" {
			return step{text: "clumsies-script: no session id was announced."}
		}
		return s.call(setup, map[string]any{"session_id": s.announced, "knownHashes": map[string]any{"META_PROMPT.md": ""}})
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
