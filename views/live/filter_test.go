package live

import (
	"testing"

	"github.com/clumsies/clumsies/events"
)

func TestFilter_Match(t *testing.T) {
	for _, tc := range []struct {
		filter filter
		typ    events.Type
		want   bool
	}{
		{nil, events.TypeRefer, true},
		{filter{"attest"}, events.TypeRefer, true},
		{filter{"attest.refer"}, events.TypeRefer, true},
		{filter{"attest.draft"}, events.TypeDraftCreate, true},
		{filter{"attest.draft"}, events.TypeRefer, false},
		{filter{"attest.ref"}, events.TypeRefer, false},
		{filter{"catalog"}, events.TypeDraftSubmit, false},
		{filter{"attest.load", "catalog"}, events.TypeCatalogRemove, true},
		{filter{"attest.draft"}, events.TypeDraftSubmit, true},
		{filter{"draft"}, events.TypeDraftSubmit, false},
		{filter{"draft"}, events.TypeDraftCreate, false},
	} {
		t.Run(string(tc.typ), func(t *testing.T) {
			if got := tc.filter.match(tc.typ); got != tc.want {
				t.Errorf("%v.match(%s): got %v, want %v", tc.filter, tc.typ, got, tc.want)
			}
		})
	}
}
