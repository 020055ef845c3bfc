package engine

import (
	"maps"
	"slices"
	"testing"
)

// prefixed is a model of the test that declares words.
type prefixed interface{ Words() []string }

type wordsModel struct {
	lengths
	words []string
}

func (m *wordsModel) Words() []string { return m.words }

// TestDeclared: the union of what the models that implement the
// interface declare; a model that does not implement it declares nothing.
func TestDeclared(t *testing.T) {
	models := []Model[item]{
		&wordsModel{words: []string{"a", "b"}},
		&lengths{},
		&wordsModel{words: []string{"b", "c"}},
	}
	got := slices.Sorted(maps.Keys(Declared(models, prefixed.Words)))
	if want := []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("Declared: %v, want %v", got, want)
	}
	if got := Declared(models[1:2], prefixed.Words); len(got) != 0 {
		t.Errorf("Declared of a model that declares nothing: %v", got)
	}
}
