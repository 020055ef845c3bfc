package hub

import (
	"errors"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// A draft whose body ends with memload's refer-reminder footer (an agent
// edited the rule from memload's answer, on a node that sent it as it
// was) is refused at Accept and stays in review; the same rule without
// the footer is acceptable.
func TestAcceptable_ReferFooter(t *testing.T) {
	rule := "# Style\n\nHow the team writes Go.\n\n## Errors\n\n1. Wrap them.\n"
	with := strings.TrimRight(rule, "\n") + content.ReferFooter("p-1", "sha256:00", []string{"Errors/1"})
	r := hubwire.Review{ID: "r-1", Resource: events.ResourceRule, Op: events.DraftOpUpdate, DraftID: "p-1", Body: with}
	if err := acceptable(r); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "refer-reminder footer") {
		t.Fatalf("a body with the footer: got %v, want ErrInvalid naming the footer", err)
	}
	r.Resource, r.Op = events.ResourceContext, events.DraftOpCreate
	if err := acceptable(r); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a context body with the footer: got %v, want ErrInvalid", err)
	}
	r.Resource, r.Op, r.Body = events.ResourceRule, events.DraftOpUpdate, rule
	if err := acceptable(r); err != nil {
		t.Fatalf("the rule without the footer: got %v, want it acceptable", err)
	}
}
