// Package frame is the text initialize's instructions carry: the
// workspace's META_PROMPT, or a built-in summary of the protocol when it
// has none, and a notice on a read-only server. The MCP server reads it
// before the workspace opens, so that initialize is answered at once.
package frame

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/clumsies/clumsies/content"
)

// Summary is the frame an agent gets when the workspace has no
// META_PROMPT.md: in initialize's instructions, and as memsetup's mpf.
const Summary = `# clumsies

This server holds the rules, workflows and context of this workspace and records how you use them.
Work in this cycle: setup once, then discover, load, apply, refer, refine, submit.

1. Setup: call memsetup once, before any other clumsies tool, with session_id set to the real session or thread id your host gave you (never make one up) and knownHashes {"META_PROMPT.md": ""} unless you remember its hash.
2. Discover: call memdisc to list what exists; filter by kind (rule, workflow, context), group or query.
3. Load: call memload with the ids you need and knownHashes holding an entry for every id ("" when you do not know the hash).
4. Apply: follow the loaded rules and workflows while you work. Loaded rules come first, then this frame, then your own defaults.
5. Refer: at the end of your turn, call memref once with every constraint you applied, copying ruleId, ruleHash and constraintId exactly as memload returned them.
6. Refine: when the task is to change rules, context or this frame, stage the change with artifact; it becomes a draft for review.
7. Submit: close the turn with agentreport (a short summary), or agentrejected when the result did not follow the loaded rules.

Every failed call returns structuredContent with error, code and retryable; follow retryAction when it is present.
`

// readOnlyNotice ends the instructions of a read-only server, so that an
// agent knows before it tries that artifact will not stage its change.
const readOnlyNotice = `

---
This clumsies server is read-only: artifact answers read_only and stages no draft. Discover, load and refer as usual; when a task calls for a change to rules, workflows, context or the META_PROMPT, tell the user the change you would make instead.
`

// Instructions returns initialize's instructions for a frame body: the
// body (Summary when it is blank) and, on a read-only server, the notice
// that says so.
func Instructions(body string, readOnly bool) string {
	if strings.TrimSpace(body) == "" {
		body = Summary
	}
	if readOnly {
		body = strings.TrimRight(body, "\n") + readOnlyNotice
	}
	return body
}

// Read returns the META_PROMPT as the content tree under contentRoot holds
// it, or "" when there is none.
func Read(contentRoot string) (string, error) {
	b, err := os.ReadFile(filepath.Join(contentRoot, content.MetaPromptPath))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", content.MetaPromptPath, err)
	}
	return string(b), nil
}
