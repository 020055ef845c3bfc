package hub

import (
	"flag"
	"testing"

	"github.com/clumsies/clumsies/events/natsjs"
)

var update = flag.Bool("update", false, "rewrite the read models of testdata/fold/*.txtar")

// TestFold is the data-driven test of the hub's projector: each file of
// testdata/fold holds messages of the aggregate and what the hub's read
// models answer after them (foldcase_test.go). The messages go through a
// real projector over pebble in one batch; a second projector applies
// them one batch per message, which must answer the same. `go test
// ./hub -run TestFold -update` rewrites "want".
func TestFold(t *testing.T) {
	for _, c := range hubFoldCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			whole, perMessage := testProjector(t), testProjector(t)
			if err := whole.apply(c.msgs); err != nil {
				t.Fatal(err)
			}
			for _, m := range c.msgs {
				if err := perMessage.apply([]natsjs.Message{m}); err != nil {
					t.Fatal(err)
				}
			}
			got := renderHub(t, whole)
			if other := renderHub(t, perMessage); other != got {
				t.Fatalf("one batch per message gives other read models:\n%s\nthan one batch:\n%s", other, got)
			}
			c.Want(t, got, *update)
		})
	}
}
