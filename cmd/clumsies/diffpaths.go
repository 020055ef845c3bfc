package main

import (
	"path"
	"strings"
)

// fromRepoRoot rewrites the file names of a draft's unified diff, which
// are relative to the content root ("a/rules/go/A.md"), to be relative
// to the workspace's folder, where the content root is the folder content
// (config.toml's content, ".clumsies" by default): `git apply` then takes
// the diff from the repository's root. Only the header lines, before the
// first hunk, change: a draft's diff is of one file.
func fromRepoRoot(diff, content string) string {
	content = path.Clean(strings.ReplaceAll(content, `\`, "/"))
	if diff == "" || content == "." {
		return diff
	}
	lines := strings.SplitAfter(diff, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "@@") {
			break
		}
		for _, p := range []string{"--- a/", "+++ b/", "rename from ", "rename to "} {
			if strings.HasPrefix(l, p) {
				lines[i] = p + content + "/" + l[len(p):]
				break
			}
		}
	}
	return strings.Join(lines, "")
}
