package content_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
)

func TestCheckRule(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"Good", "# Go style\n\nHow we write Go.\n\n## Errors\n\n- wrap them\n", ""},
		{"NoTitle", "How we write Go.\n\n## Errors\n\n- wrap them\n", "no title"},
		{"TitleInCode", "```\n# Go style\n```\nHow we write Go.\n\n## Errors\n", "no title"},
		{"NoDescription", "# Go style\n\n## Errors\n\n- wrap them\n", "no description"},
		{"NoSections", "# Go style\n\nHow we write Go.\n", "no sections"},
		{"SectionInCode", "# Go style\n\nHow.\n\n```\n## Errors\n```\n", "no sections"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := content.CheckRule(tc.body)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, content.ErrNotARule) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrNotARule saying %q", err, tc.want)
			}
		})
	}
}
