package evidence_test

import (
	"reflect"
	"testing"

	"github.com/clumsies/clumsies/evidence"
)

// facts knows every id as a rule; scoped ones declare their paths.
type facts map[string]bool

func (f facts) IsRule(string) bool    { return true }
func (f facts) Scoped(id string) bool { return f[id] }

func TestRow_Reid(t *testing.T) {
	reid := func(r *evidence.Row) { r.Reid("old", "new") }
	for _, tc := range []struct {
		name string
		fold []func(r *evidence.Row)
		want []evidence.Rule
	}{
		{
			name: "EditsBeforeAndAfter",
			fold: []func(r *evidence.Row){
				func(r *evidence.Row) { r.Edit([]string{"a.go"}, []string{"old"}) },
				reid,
				func(r *evidence.Row) { r.Edit([]string{"b.go"}, []string{"new"}) },
			},
			want: []evidence.Rule{{ID: "new", InScope: 2, UnloadedEdits: 2}},
		},
		{
			name: "LoadedBeforeRefAfter",
			fold: []func(r *evidence.Row){
				func(r *evidence.Row) { load(r, "old") },
				reid,
				func(r *evidence.Row) { r.Ref("new") },
			},
			want: []evidence.Rule{{ID: "new", Loaded: true, Refs: 1}},
		},
		{
			name: "RefBeforeLoadOfOldStaysUnsupported",
			fold: []func(r *evidence.Row){
				func(r *evidence.Row) { r.Ref("old") },
				func(r *evidence.Row) { load(r, "new") },
				reid,
			},
			want: []evidence.Rule{{ID: "new", Loaded: true, Refs: 1, Unsupported: 1, Why: evidence.WhyNotLoaded}},
		},
		{
			name: "RefOfLoadedOldStaysSupported",
			fold: []func(r *evidence.Row){
				func(r *evidence.Row) { load(r, "old") },
				func(r *evidence.Row) { r.Ref("old") },
				reid,
				func(r *evidence.Row) { r.Ref("new") },
			},
			want: []evidence.Rule{{ID: "new", Loaded: true, Refs: 2}},
		},
		{
			name: "OtherRulesKept",
			fold: []func(r *evidence.Row){
				func(r *evidence.Row) { r.Edit([]string{"a.go"}, []string{"old", "other"}) },
				reid,
			},
			want: []evidence.Rule{{ID: "new", InScope: 1, UnloadedEdits: 1}, {ID: "other", InScope: 1, UnloadedEdits: 1}},
		},
		{
			name: "FollowLikeReid",
			fold: []func(r *evidence.Row){
				func(r *evidence.Row) { load(r, "old") },
				func(r *evidence.Row) { r.Ref("new") },
				func(r *evidence.Row) {
					r.Follow(func(id string) string {
						if id == "old" {
							return "new"
						}
						return id
					})
				},
			},
			want: []evidence.Rule{{ID: "new", Loaded: true, Refs: 1, Unsupported: 1, Why: evidence.WhyNotLoaded}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r evidence.Row
			for _, f := range tc.fold {
				f(&r)
			}
			if got := r.Session("s", facts{}, nil).Rules; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestRow_ReidUnknownRule(t *testing.T) {
	var r evidence.Row
	load(&r, "other")
	if r.Reid("old", "new") {
		t.Error("got a change for a rule the session never named, want none")
	}
	if r.Reid("other", "other") {
		t.Error("got a change for a reid to the same id, want none")
	}
}
