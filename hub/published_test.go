package hub

import (
	"slices"
	"testing"

	"github.com/clumsies/clumsies/events"
)

func TestPublishedRow(t *testing.T) {
	for _, tc := range []struct {
		name string
		row  []byte
		want publishedRule
	}{
		{"a row of an earlier hub is its path alone", []byte("style/A.md"), publishedRule{path: "style/A.md"}},
		{"a file without sections is one constraint, named after the file", publishedRow(events.PublishData{Path: "style/E.md", Body: "# E\n\nOne thing to ask.\n"}),
			publishedRule{path: "style/E.md", constraints: []string{"E"}}},
		{"constraints in the order of the file", publishedRow(events.PublishData{Path: "style/A.md", Body: "# A\n\nd\n\n## C\n\n- one\n- two\n\n## D\n\n- three\n"}),
			publishedRule{path: "style/A.md", constraints: []string{"C/1", "C/2", "D/1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := readPublishedRow(tc.row)
			if got.path != tc.want.path || !slices.Equal(got.constraints, tc.want.constraints) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
