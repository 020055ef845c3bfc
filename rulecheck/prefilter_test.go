package rulecheck

import (
	"testing"

	"github.com/clumsies/clumsies/content"
)

func TestRequiredLiteral(t *testing.T) {
	tests := []struct {
		pattern string
		want    literal
	}{
		{"StatusInternalServerError", literal{text: "StatusInternalServerError"}},
		{`fmt\.Print(ln|f)?\(.*secret\b`, literal{text: "fmt.Print"}},
		{`(?i)todo:\s*remove`, literal{text: "remove", fold: true}},
		{`(?i)Straße`, literal{}}, // folds beyond ASCII: no prefilter
		{`(a|b)+c`, literal{text: "c"}},
		{`x*`, literal{}},
		{`(?:panic\(){2,}`, literal{text: "panic("}},
		{`^\s*$x`, literal{text: "x"}},
	}
	for _, tt := range tests {
		if got := requiredLiteral(tt.pattern); got != tt.want {
			t.Errorf("requiredLiteral(%q) = %+v, want %+v", tt.pattern, got, tt.want)
		}
	}
}

// The prefilter never changes a result: on texts where the literal is
// missing in ASCII but a Unicode fold would match, the regular expression
// decides.
func TestPrefilter_UnicodeFold(t *testing.T) {
	s := compile(t, Rule{ID: "p", Paths: []string{"**"}, Checks: []content.Check{{Constraint: "C", Forbid: "(?i)secret"}}})
	// U+017F LATIN SMALL LETTER LONG S folds to s.
	rs := s.File("a", []Line{{1, "ſecret"}})
	if len(rs) != 1 || rs[0].Pass {
		t.Fatalf("results %+v, want the folded match found", rs)
	}
}
