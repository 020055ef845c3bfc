package history

import (
	"fmt"
	"os"
	"path/filepath"
)

// tree are rules a team might keep, besides those `clumsies init` writes.
var tree = map[string]string{
	"rules/go/TESTS.md": "# Tests\n\nHow the Go code is tested.\n\n## Real parts\n\n- Test against the real store, not a mock of it.\n" +
		"- A fix comes with a test that fails without it.\n\n## Time\n\n- Bound waits generously; assert behaviour, not speed.\n",
	"rules/go/LOGGING.md": "# Logging\n\nWhat a log line carries.\n\n## Lines\n\n- One event per line, with its context as fields.\n" +
		"- Never log a secret or a token.\n",
	"rules/review/COMMITS.md": "# Commits\n\nHow a change is cut into commits.\n\n## Messages\n\n- Say what changed and why, in the package's words.\n" +
		"- One concern per commit.\n",
	"rules/legacy/SVN.md": "# Subversion\n\nHow the old mirror was kept.\n\n## Mirror\n\n- Sync the mirror every night.\n",
}

// neverApplied is the rule of the tree a history never refers to.
const neverApplied = "legacy/SVN.md"

// WriteTree adds a few rules to the content tree under contentRoot (the
// .clumsies folder), so that a history has more to load and refer to;
// rules/legacy/SVN.md, last of the tree, is never referred to.
func WriteTree(contentRoot string) error {
	for path, body := range tree {
		file := filepath.Join(contentRoot, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return fmt.Errorf("write the rules of the history: %w", err)
		}
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			return fmt.Errorf("write the rules of the history: %w", err)
		}
	}
	return nil
}
