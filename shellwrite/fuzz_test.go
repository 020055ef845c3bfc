package shellwrite_test

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/shellwrite"
	"mvdan.cc/sh/v3/syntax"
)

// fuzzTarget is the file of the plain redirection the fuzzer appends.
const fuzzTarget = "/tmp/shellwrite-fuzz-target"

// FuzzAnalyze checks that Analyze never panics, answers the same twice,
// keeps its answer's form (sorted, each once, Dir relative), and misses
// no target a plain rule would find: a "> FILE" appended to any command
// line that parses is among its writes.
func FuzzAnalyze(f *testing.F) {
	for _, tt := range analyzeCases {
		f.Add(tt.cmd)
	}
	f.Add("f()\n")
	f.Add("cat <<''\n")
	f.Add("echo \\")
	f.Add("case x in\n")
	f.Fuzz(func(t *testing.T, cmd string) {
		got := shellwrite.Analyze(cmd)
		checkResult(t, got)
		if again := shellwrite.Analyze(cmd); !slices.Equal(again.Writes, got.Writes) || !slices.Equal(again.Opaque, got.Opaque) {
			t.Errorf("got %s %q on the second call, want %s %q",
				formatTargets(again.Writes), again.Opaque, formatTargets(got.Writes), got.Opaque)
		}
		if got.Err != nil || strings.HasPrefix(strings.TrimLeft(cmd, " \t\r\n"), "*** Begin Patch") {
			return
		}
		withRule := cmd + "\n: > " + fuzzTarget + "\n"
		if !endsWithRedirection(withRule) {
			return // the text appended is no statement of its own (a heredoc's body, ...)
		}
		r := shellwrite.Analyze(withRule)
		if r.Err != nil {
			return // nested too deeply, or too long, with the rule
		}
		if !slices.Contains(r.Writes, shellwrite.Target{Path: fuzzTarget, Op: shellwrite.OpWrite}) {
			t.Errorf("Analyze(%q).Writes = %s, want %s among them", withRule, formatTargets(r.Writes), fuzzTarget)
		}
	})
}

// endsWithRedirection tells whether the last statement of src parses as
// the ": > fuzzTarget" appended to it.
func endsWithRedirection(src string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	last := f.Stmts[len(f.Stmts)-1]
	from, to := last.Pos().Offset(), last.End().Offset()
	return to <= uint(len(src)) && src[from:to] == ": > "+fuzzTarget
}

// checkResult checks the form of a Result.
func checkResult(tb testing.TB, r shellwrite.Result) {
	tb.Helper()
	if r.Err != nil && (r.Writes != nil || r.Opaque != nil) {
		tb.Errorf("got writes %s and opaque %q with error %v, want none", formatTargets(r.Writes), r.Opaque, r.Err)
	}
	ops := []string{shellwrite.OpWrite, shellwrite.OpAppend, shellwrite.OpCreate, shellwrite.OpDelete,
		shellwrite.OpMove, shellwrite.OpLink, shellwrite.OpMode}
	for i, t := range r.Writes {
		switch {
		case t.Path == "":
			tb.Errorf("got an empty Path in %s", formatTargets(r.Writes))
		case path.IsAbs(t.Dir) || strings.HasPrefix(t.Dir, "~"):
			tb.Errorf("got Dir %q, want it relative", t.Dir)
		case t.Dir != "" && (path.IsAbs(t.Path) || strings.HasPrefix(t.Path, "~")):
			tb.Errorf("got Dir %q with the absolute Path %q, want no Dir", t.Dir, t.Path)
		case !slices.Contains(ops, t.Op):
			tb.Errorf("got Op %q, want one of %q", t.Op, ops)
		}
		if i > 0 {
			prev := r.Writes[i-1]
			if c := cmp.Or(cmp.Compare(prev.Dir, t.Dir), cmp.Compare(prev.Path, t.Path)); c > 0 || (c == 0 && prev.Glob == t.Glob) {
				tb.Errorf("got writes %s, want them sorted, each once", formatTargets(r.Writes))
			}
		}
	}
	if !slices.IsSorted(r.Opaque) || len(slices.Compact(slices.Clone(r.Opaque))) != len(r.Opaque) {
		tb.Errorf("got opaque %q, want it sorted, each once", r.Opaque)
	}
	for _, o := range r.Opaque {
		if o == "" || strings.ContainsAny(o, "\n") {
			tb.Errorf("got opaque entry %q, want one non-empty line", o)
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	// A typical command line of an agent, 200 bytes.
	cmd := `cd web && sed -i 's/oldName/newName/g' src/app.ts src/util.ts && git checkout -- package.json && ` +
		`npm run build > build.log 2>&1 && cp dist/app.js ../public/ && rm -rf dist/tmp "$HOME/.cache/x"`
	b.SetBytes(int64(len(cmd)))
	for b.Loop() {
		shellwrite.Analyze(cmd)
	}
}
