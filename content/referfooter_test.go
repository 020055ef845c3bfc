package content_test

import (
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
)

func TestStripReferFooter(t *testing.T) {
	body := "# Errors\n\n## Wrap\n\n- Wrap errors.\n"
	footer := content.ReferFooter("p-1", "sha256:ab", []string{"Wrap/1"})
	cases := []struct {
		name, in, want string
		found          bool
	}{
		{"Appended", strings.TrimRight(body, "\n") + footer, body, true},
		{"NoConstraints", strings.TrimRight(body, "\n") + content.ReferFooter("p-1", "sha256:ab", nil), body, true},
		{"TrailingBlankLines", strings.TrimRight(body, "\n") + footer + "\n\n", body, true},
		{"CRLF", strings.ReplaceAll(strings.TrimRight(body, "\n")+footer, "\n", "\r\n"), strings.ReplaceAll(body, "\n", "\r\n"), true},
		{"NoFooter", body, body, false},
		{"TextAfter", strings.TrimRight(body, "\n") + footer + "More text.\n", strings.TrimRight(body, "\n") + footer + "More text.\n", false},
		{"RuleOnly", "---\nruleId: x\n", "---\nruleId: x\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, found := content.StripReferFooter(c.in)
			if got != c.want || found != c.found || content.HasReferFooter(c.in) != c.found {
				t.Fatalf("got %q, %v; want %q, %v", got, found, c.want, c.found)
			}
		})
	}
}
