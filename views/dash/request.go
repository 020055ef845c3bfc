package dash

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// The pages of the API: Request.Page.
const (
	PageOverview = "overview"
	PageRules    = "rules"
	PageRule     = "rule"
	PageSessions = "sessions"
	PageSession  = "session"
	PageDrafts   = "drafts"
	PageMetrics  = "metrics"
	PageSearch   = "search"
	// PageCommit (a commit or a range, in ID) and PageCommits (the
	// branch's last commits) are judged from the ledger and the git
	// repository, not from the read models: the owner answers them
	// (package commitcheck), never Answer.
	PageCommit  = "commit"
	PageCommits = "commits"
)

// Request asks for one page of the API.
type Request struct {
	Page string `json:"page"`
	ID   string `json:"id,omitempty"` // the rule or session of PageRule and PageSession
	// Range limits the figures counted per day to its days (the zero
	// Range is all time): see ranged.go for what a range holds.
	Range dayrange.Range `json:"range,omitzero"`
	// Q is the query of PageSearch.
	Q string `json:"q,omitempty"`
	// Session and Rule keep the commits of PageCommits with an agent
	// edit of that session, or made with that rule in scope; N is how
	// many of the branch's last commits it looks at (0: the default).
	Session string `json:"session,omitempty"`
	Rule    string `json:"rule,omitempty"`
	N       int    `json:"n,omitempty"`
}

// Reply is a page as the HTTP front writes it: a status and a JSON body.
type Reply struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// Source is what the API reads: the read models of a workspace
// (*projections.Store).
type Source interface {
	Summary() projections.Summary
	RuleSummaries() []projections.RuleSummary
	Usage() []projections.RuleUsage
	UsageOf(id string) projections.RuleUsage
	Tools() []projections.ToolMetrics
	Sessions() []projections.Session
	Evidence() []projections.SessionEvidence
	Compliance() []projections.Compliance
	Session(id string) (projections.Session, error)
	SessionCompliance(id string) (projections.Compliance, error)
	SessionEvidence(id string) (projections.SessionEvidence, error)
	RuleEvidence(id string) projections.RuleEvidenceOf
	Object(id string) (projections.Object, error)
	Days() []projections.Day
	Latencies() []projections.Latency
	RuleDays(ruleID string) []projections.Day
	Timeline(ctx context.Context, sessionID string, limit int) ([]uint64, bool, error)
	RuleApplications(ctx context.Context, ruleID string, limit int) ([]uint64, bool, error)
	Publishes(ctx context.Context, id string) ([]projections.PublishEntry, error)
	PublishedBody(id string) (string, error)
	Drafts() ([]catalog.Draft, error)
}

// Events reads single events of the ledger by their sequence
// (*natsjs.Log): the pages that show events (a session's timeline, the
// reasons of a rule's refs) find them in an index of the read models and
// read those few, never replaying the ledger.
type Events interface {
	Get(ctx context.Context, seq uint64) (events.Event, error)
}

// Ledger is what the API shows of the stream itself.
type Ledger struct {
	WorkspaceID string `json:"workspaceId"`
	// WorkspaceName is the workspace's name for people (config.toml's
	// name, else its folder's).
	WorkspaceName string `json:"workspaceName,omitempty"`
	LastSeq       uint64 `json:"lastSeq"` // the stream's last sequence
	Applied       uint64 `json:"applied"` // the read models' checkpoint
}

// Answer computes the page req asks for. A page or id that does not exist
// gives a 404 reply, not an error; the error is for a read model that
// cannot be read.
func Answer(ctx context.Context, src Source, evs Events, led Ledger, req Request) (Reply, error) {
	var v any
	var err error
	switch req.Page {
	case PageOverview:
		v = overview(src, led, req.Range)
	case PageRules:
		v, err = rules(ctx, src, req.Range)
	case PageRule:
		v, err = rule(ctx, src, evs, req.ID, req.Range)
	case PageSessions:
		v = sessions(src, req.Range, MaxSessions)
	case PageSearch:
		v = search(src, req.Q, req.Range)
	case PageSession:
		v, err = session(ctx, src, evs, req.ID)
	case PageDrafts:
		v, err = drafts(ctx, src, evs)
	case PageMetrics:
		v = metricsOf(src, led)
	default:
		return notFound(fmt.Sprintf("no page %q: the API has overview, rules, rules/{id}, sessions, sessions/{id}, drafts and search", req.Page))
	}
	if errors.Is(err, projections.ErrNotFound) {
		return notFound(missing(req))
	}
	if err != nil {
		return Reply{}, fmt.Errorf("dash: %s %s: %w", req.Page, req.ID, err)
	}
	body, err := json.Marshal(v)
	if err != nil {
		return Reply{}, fmt.Errorf("dash: encode %s: %w", req.Page, err)
	}
	return Reply{Status: http.StatusOK, Body: body}, nil
}

func notFound(msg string) (Reply, error) {
	return ErrorReply(http.StatusNotFound, msg), nil
}

// ErrorReply is a page that answers status with the message msg, in the
// API's shape of errors ({"error": msg}).
func ErrorReply(status int, msg string) Reply {
	body, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	return Reply{Status: status, Body: body}
}
