package shellwrite

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// MaxLen is the length in bytes of the longest command line Analyze reads.
const MaxLen = 256 << 10

// maxParens bounds how deep parentheses may nest in a command line: the
// parser's time grows faster than the depth of nested arithmetic.
const maxParens = 1000

var (
	// ErrTooLong is the Err of a command line longer than MaxLen.
	ErrTooLong = errors.New("shellwrite: command line too long")
	// ErrNested is the Err of a command line whose parentheses nest
	// deeper than any command written by hand.
	ErrNested = errors.New("shellwrite: command line nested too deeply")
)

// The operations of a Target.
const (
	OpWrite  = "write"  // created or overwritten: >, tee, cp, sed -i, git checkout
	OpAppend = "append" // appended to: >>, tee -a
	OpCreate = "create" // created, or its times changed: touch, mkdir, a file a patch adds
	OpDelete = "delete" // removed: rm, rmdir, git rm, a file a patch deletes
	OpMove   = "move"   // moved away: the sources of mv and git mv
	OpLink   = "link"   // made a link: ln
	OpMode   = "mode"   // its mode or owner changed: chmod, chown
)

// Result is what a command line writes.
type Result struct {
	// Writes are the files the command would create, change, move, or
	// delete, as written in the command, each once, sorted by Dir then
	// Path.
	Writes []Target
	// Opaque names the parts of the command whose writes cannot be known
	// before it runs, each once, sorted: "python -c", "make", "> $F",
	// "git apply fix.patch". It is empty when every write is known.
	Opaque []string
	// Err is set when the command does not parse, is longer than MaxLen
	// (ErrTooLong) or nests too deeply (ErrNested); Writes and Opaque are
	// then empty and the caller treats the whole command as opaque.
	Err error
}

// Target is one file (or pattern, or directory) a command writes.
type Target struct {
	// Path is the file as written, with quotes and escapes resolved, and
	// the static parts of it expanded: braces, $PWD, and $HOME, which
	// becomes "~" as a leading ~ stays: "~/.bashrc". It is absolute, or
	// starts with "~", or is relative to Dir. It is cleaned (path.Clean).
	Path string
	// Dir is the directory the command was in when it wrote Path,
	// relative to the directory the command line starts in: "" there,
	// "sub" after cd sub, ".." after cd ... It is always relative; a cd
	// to an absolute directory or under ~ is folded into Path instead.
	// The file is filepath.Join(start, Dir, Path) when Path is relative.
	Dir string
	// Op says what happens to Path: OpWrite, OpAppend, OpCreate,
	// OpDelete, OpMove, OpLink or OpMode. A file written in several ways
	// carries the strongest (delete, move, write, create, append, link,
	// mode, in that order).
	Op string
	// Glob is set when Path is a pattern (a shell glob such as src/*.go,
	// or a git pathspec): the command writes the files it matches. In a
	// pattern, the characters that were quoted are escaped with a
	// backslash, as path.Match reads them; a Path that is no pattern is
	// the name itself, whatever its characters.
	Glob bool
	// Tree is set when Path may be a directory the command writes
	// anything under: rm -r, cp -r, mv, chmod -R, git checkout -- dir.
	Tree bool
}

// Analyze reads a shell command line (bash dialect) and returns what it
// writes. It never panics and never runs anything. A command line that
// starts with "*** Begin Patch" is read as an apply_patch body, as
// Codex passes its patches.
func Analyze(cmd string) Result {
	if len(cmd) > MaxLen {
		return Result{Err: fmt.Errorf("analyze a command line of %d bytes: %w", len(cmd), ErrTooLong)}
	}
	a := newAnalyzer()
	if isRawPatch(cmd) {
		w := &walker{a: a, src: cmd}
		w.patchTargets(env{}, applyPatchFiles(cmd), "apply_patch")
		return a.result()
	}
	if parenDepth(cmd) > maxParens {
		return Result{Err: fmt.Errorf("analyze command line: %w", ErrNested)}
	}
	f, err := a.parse(cmd)
	if err != nil {
		return Result{Err: fmt.Errorf("parse command line: %w", err)}
	}
	w := &walker{a: a, src: cmd}
	w.stmts(f.Stmts, env{})
	return a.result()
}

// analyzer gathers the writes and opaque parts of one command line and of
// the command strings nested in it (sh -c, eval).
type analyzer struct {
	parser *syntax.Parser
	writes map[targetKey]Target
	opaque map[string]bool
	funcs  map[string]bool // the functions the command line defines
	// nestedLen is the length of the command strings read so far: they
	// may be no longer than MaxLen together.
	nestedLen int
}

type targetKey struct {
	dir, path string
	glob      bool
}

func newAnalyzer() *analyzer {
	return &analyzer{
		parser: syntax.NewParser(syntax.Variant(syntax.LangBash)),
		writes: map[targetKey]Target{},
		opaque: map[string]bool{},
		funcs:  map[string]bool{},
	}
}

func (a *analyzer) parse(src string) (*syntax.File, error) {
	return a.parser.Parse(strings.NewReader(src), "")
}

// add records t, merging it with an earlier write of the same path.
func (a *analyzer) add(t Target) {
	k := targetKey{t.Dir, t.Path, t.Glob}
	if old, ok := a.writes[k]; ok {
		if opRank(old.Op) > opRank(t.Op) {
			t.Op = old.Op
		}
		t.Tree = t.Tree || old.Tree
	}
	a.writes[k] = t
}

// addOpaque records desc, shortened to one line of a few words.
func (a *analyzer) addOpaque(desc string) {
	if desc = shorten(desc); desc == "" {
		desc = "(blank)"
	}
	a.opaque[desc] = true
}

func (a *analyzer) result() Result {
	var r Result
	for _, t := range a.writes {
		r.Writes = append(r.Writes, t)
	}
	slices.SortFunc(r.Writes, func(x, y Target) int {
		return cmp.Or(cmp.Compare(x.Dir, y.Dir), cmp.Compare(x.Path, y.Path), boolCompare(x.Glob, y.Glob))
	})
	for d := range a.opaque {
		r.Opaque = append(r.Opaque, d)
	}
	slices.Sort(r.Opaque)
	return r
}

func boolCompare(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}

// opRank orders the operations from the weakest to the strongest.
func opRank(op string) int {
	return slices.Index([]string{OpMode, OpLink, OpAppend, OpCreate, OpWrite, OpMove, OpDelete}, op)
}

// maxOpaqueLen bounds the length of an Opaque entry.
const maxOpaqueLen = 60

// shorten makes desc one line of at most maxOpaqueLen bytes.
func shorten(desc string) string {
	desc = strings.Join(strings.Fields(desc), " ")
	if len(desc) <= maxOpaqueLen {
		return desc
	}
	cut := maxOpaqueLen
	for cut > 0 && !isRuneStart(desc[cut]) {
		cut--
	}
	return desc[:cut] + "..."
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// parenDepth returns how deep parentheses nest in s, counted over the
// whole text, quoted or not.
func parenDepth(s string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
			deepest = max(deepest, depth)
		case ')':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}
