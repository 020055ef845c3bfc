package rulecheck

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// Range runs the pattern checks of rules on the lines added between two
// commits of the git repository at repo (Findings keeps the failures): base and head are anything git
// rev-parse reads (a commit, a branch, HEAD~3). It returns the results of
// the checks that apply to the files the range changed (a file deleted in
// head has none), in the order of the files, then of the checks. Paths
// are relative to the repository's root, as the rules' globs read them.
// Command checks are not run: they would see the working tree, not head.
func Range(ctx context.Context, repo, base, head string, rules []Rule) ([]Result, error) {
	set, err := Compile(rules)
	if err != nil {
		return nil, err
	}
	for _, rev := range []string{base, head} {
		if rev == "" || strings.HasPrefix(rev, "-") {
			return nil, fmt.Errorf("check %s..%s: %q is not a revision", base, head, rev)
		}
	}
	cmd := exec.CommandContext(ctx, "git", "-C", repo, "-c", "core.quotePath=off", "diff", "--no-color", "--no-ext-diff",
		"--no-renames", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "-U0", base, head, "--")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("check %s..%s: git diff: %w: %s", base, head, err, strings.TrimSpace(stderr.String()))
	}
	var results []Result
	for _, fa := range parseDiff(out) {
		results = append(results, set.File(fa.file, fa.lines)...)
	}
	return results, nil
}

// fileAdded is the lines a diff adds to one file.
type fileAdded struct {
	file  string
	lines []Line
}

// parseDiff reads the files and added lines of a unified diff with no
// context (git diff -U0). A deleted file has none.
func parseDiff(diff []byte) []fileAdded {
	var out []fileAdded
	var cur *fileAdded
	n := 0 // the number of the next line of the new file in the hunk
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "diff --git "):
			cur = nil
		case strings.HasPrefix(l, "+++ "):
			name := strings.TrimPrefix(l, "+++ ")
			if name == "/dev/null" {
				cur = nil
				continue
			}
			if uq, err := strconv.Unquote(name); err == nil && strings.HasPrefix(name, `"`) {
				name = uq
			}
			out = append(out, fileAdded{file: strings.TrimPrefix(name, "b/")})
			cur = &out[len(out)-1]
		case strings.HasPrefix(l, "@@ "):
			n = hunkStart(l)
		case cur != nil && strings.HasPrefix(l, "+"):
			cur.lines = append(cur.lines, Line{N: n, Text: strings.TrimSuffix(l[1:], "\r")})
			n++
		}
	}
	return out
}

// hunkStart reads the first line of the new file in a hunk header
// "@@ -a,b +c,d @@".
func hunkStart(h string) int {
	f := strings.Fields(h)
	if len(f) < 3 {
		return 0
	}
	start, _, _ := strings.Cut(strings.TrimPrefix(f[2], "+"), ",")
	n, _ := strconv.Atoi(start)
	return n
}
