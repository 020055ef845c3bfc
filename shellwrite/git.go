package shellwrite

import (
	"path"
	"strconv"
	"strings"
)

// gitReadOnly are git's subcommands that write no file of the working
// tree (they may write under .git).
var gitReadOnly = map[string]bool{}

// gitOpaque are git's subcommands that may rewrite any file of the
// working tree.
var gitOpaque = map[string]bool{}

func init() {
	for _, sub := range strings.Fields(`
		status diff log show blame annotate branch tag fetch remote config rev-parse
		rev-list ls-files ls-tree ls-remote cat-file describe shortlog reflog grep help
		version whatchanged merge-base name-rev show-ref for-each-ref count-objects fsck
		check-ignore check-attr var add commit push notes range-diff gc prune repack
		maintenance show-branch cherry verify-commit verify-tag hash-object update-index
		write-tree commit-tree symbolic-ref update-ref init difftool`) {
		gitReadOnly[sub] = true
	}
	for _, sub := range strings.Fields(`
		merge pull rebase cherry-pick revert switch bisect submodule sparse-checkout lfs
		mergetool filter-branch filter-repo subtree read-tree checkout-index`) {
		gitOpaque[sub] = true
	}
}

// gitCall is a git command after git's own options.
type gitCall struct {
	*call
	sub     string
	args    []field
	literal bool // --literal-pathspecs: no wildcards in pathspecs
}

// git reads git [-C DIR] [-c k=v] SUBCOMMAND ....
func (c *call) git() {
	args := c.args
	literal := false
	for len(args) > 0 && strings.HasPrefix(args[0].lit, "-") {
		a := args[0]
		args = args[1:]
		if !a.static {
			c.opaque("git " + a.src)
			return
		}
		switch a.lit {
		case "-C":
			if len(args) == 0 {
				return
			}
			c.e = chdir(c.e, args[0], "git -C "+args[0].src)
			args = args[1:]
		case "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix", "--attr-source":
			if len(args) > 0 {
				args = args[1:]
			}
		case "--literal-pathspecs":
			literal = true
		}
	}
	if len(args) == 0 {
		return
	}
	if !args[0].static {
		c.opaque("git " + args[0].src)
		return
	}
	g := &gitCall{call: c, sub: args[0].lit, args: args[1:], literal: literal}
	switch {
	case gitReadOnly[g.sub]:
	case gitOpaque[g.sub]:
		g.opaque("git " + g.sub)
	default:
		g.run()
	}
}

func (g *gitCall) run() {
	switch g.sub {
	case "checkout":
		g.checkout()
	case "restore":
		g.restore()
	case "rm":
		g.rm()
	case "mv":
		g.mv()
	case "clean":
		g.clean()
	case "reset":
		opts, _ := options{}.parse(g.args)
		for _, mode := range []string{"hard", "merge", "keep"} {
			if has(opts, mode) {
				g.opaque("git reset --" + mode)
			}
		}
	case "stash":
		if len(g.args) > 0 && g.args[0].static && (g.args[0].lit == "list" || g.args[0].lit == "show") {
			return
		}
		g.opaque("git stash")
	case "apply", "am":
		g.apply()
	case "clone":
		g.clone()
	case "worktree":
		g.worktree()
	case "archive":
		opts, _ := options{short: "o", long: []string{"output", "format", "prefix", "remote", "exec"}}.parse(g.args)
		g.writeAll(values(opts, "o", "output"), OpWrite, false)
	case "format-patch":
		opts, _ := options{short: "o", long: []string{"output-directory"}}.parse(g.args)
		switch dirs := values(opts, "o", "output-directory"); {
		case has(opts, "stdout"):
		case len(dirs) > 0:
			g.writeAll(dirs, OpCreate, true)
		default:
			g.opaque("git format-patch")
		}
	default:
		g.opaque("git " + g.sub) // an alias, or a subcommand not known
	}
}

// writePaths records the writes of pathspecs, which git matches itself:
// a wildcard is a glob, quoted or not, and a directory covers its tree.
func (g *gitCall) writePaths(specs []field, op string) {
	for _, f := range specs {
		switch {
		case f.static && (strings.HasPrefix(f.lit, ":!") || strings.HasPrefix(f.lit, ":^") || strings.HasPrefix(f.lit, ":(exclude")):
			continue // excludes paths
		case f.static && strings.HasPrefix(f.lit, ":"):
			g.opaque("git " + g.sub + " " + f.src) // magic pathspec
			continue
		case f.static && !g.literal && !f.glob && strings.ContainsAny(f.lit, "*?["):
			f.pat, f.glob = f.lit, true
		}
		g.write(f, op, true)
	}
}

// splitDashDash splits args at "--": what comes before, and the paths
// after it.
func splitDashDash(args []field) (before, paths []field, found bool) {
	for i, a := range args {
		if a.static && a.lit == "--" {
			return args[:i], args[i+1:], true
		}
	}
	return args, nil, false
}

// checkout reads git checkout [TREE-ISH] -- paths, and git checkout
// BRANCH, which rewrites the tree (opaque).
func (g *gitCall) checkout() {
	before, paths, dashdash := splitDashDash(g.args)
	opts, operands := options{short: "bB", long: []string{"orphan"}}.parse(before)
	switch {
	case has(opts, "pathspec-from-file"):
		g.opaque("git checkout --pathspec-from-file")
	case dashdash:
		g.writePaths(paths, OpWrite)
	case len(operands) == 0:
		if has(opts, "f", "force") {
			g.opaque("git checkout --force")
		}
	case has(opts, "b", "B", "orphan", "detach"):
		g.opaque("git checkout " + operands[0].src)
	case len(operands) == 1:
		// A branch (the whole tree) or a path: git tells them apart.
		g.opaque("git checkout " + operands[0].src)
		if !isRevision(operands[0]) {
			g.writePaths(operands, OpWrite)
		}
	case isRevision(operands[0]):
		g.writePaths(operands[1:], OpWrite)
	default:
		// The first may be a commit the paths come from.
		g.writePaths(operands, OpWrite)
	}
}

// isRevision tells whether f can only name a commit, not a path: HEAD~1,
// main^, @{u}, a hash.
func isRevision(f field) bool {
	if !f.static {
		return false
	}
	s := f.lit
	if strings.HasSuffix(s, "HEAD") && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == "" {
		return true // HEAD, ORIG_HEAD, FETCH_HEAD
	}
	if strings.ContainsAny(s, "~^") || strings.Contains(s, "@{") {
		return true
	}
	return len(s) >= 7 && len(s) <= 64 && strings.Trim(s, "0123456789abcdef") == ""
}

// restore reads git restore [--source=X] [--staged] [--worktree] paths.
func (g *gitCall) restore() {
	opts, paths := options{short: "s", long: []string{"source"}}.parse(g.args)
	switch {
	case has(opts, "pathspec-from-file"):
		g.opaque("git restore --pathspec-from-file")
	case has(opts, "S", "staged") && !has(opts, "W", "worktree"):
		// The index only.
	default:
		g.writePaths(paths, OpWrite)
	}
}

// rm reads git rm [--cached] paths.
func (g *gitCall) rm() {
	opts, paths := options{}.parse(g.args)
	switch {
	case has(opts, "cached", "n", "dry-run"):
	case has(opts, "pathspec-from-file"):
		g.opaque("git rm --pathspec-from-file")
	default:
		g.writePaths(paths, OpDelete)
	}
}

// mv reads git mv sources... dest.
func (g *gitCall) mv() {
	opts, operands := options{}.parse(g.args)
	if has(opts, "n", "dry-run") || len(operands) < 2 {
		return
	}
	dest, sources := operands[len(operands)-1], operands[:len(operands)-1]
	g.writeAll(sources, OpMove, true)
	g.place(dest, sources, OpWrite, true)
}

// clean reads git clean: it deletes the untracked files of its paths, or
// of the whole tree.
func (g *gitCall) clean() {
	opts, paths := options{short: "e", long: []string{"exclude"}}.parse(g.args)
	switch {
	case has(opts, "n", "dry-run"):
	case len(paths) == 0 || has(opts, "i", "interactive"):
		g.opaque("git clean")
	default:
		g.writePaths(paths, OpDelete)
	}
}

// apply reads git apply and git am: the files of the patch on their
// standard input; a patch file's are not read.
func (g *gitCall) apply() {
	who := "git " + g.sub
	o := options{short: "pC", long: []string{"directory", "exclude", "include", "whitespace",
		"build-fake-ancestor", "patch-format", "resolvemsg", "quoted-cr", "empty"}}
	opts, operands := o.parse(g.args)
	switch {
	case g.sub == "am" && has(opts, "show-current-patch"):
		return
	case g.sub == "am" && has(opts, "continue", "skip", "abort", "quit", "resolved", "r", "retry", "allow-empty"):
		g.opaque(who)
		return
	case g.sub == "apply" && has(opts, "cached"):
		return // the index only
	case g.sub == "apply" && has(opts, "check", "stat", "numstat", "summary") && !has(opts, "apply"):
		return
	}
	strip := 1
	for _, p := range values(opts, "p") {
		n, err := strconv.Atoi(p.lit)
		if !p.static || err != nil || n < 0 {
			g.opaque(who + " -p" + p.src)
			return
		}
		strip = n
	}
	prefix := ""
	for _, d := range values(opts, "directory") {
		if !d.static {
			g.opaque(who + " --directory " + d.src)
			return
		}
		prefix = strings.TrimSuffix(d.lit, "/")
	}
	stdin := len(operands) == 0
	for _, f := range operands {
		if f.static && f.lit == "-" {
			stdin = true
			continue
		}
		g.opaque(who + " " + f.src) // a patch file: not read here
	}
	if stdin {
		g.diffFromStdin(who, strip, false, prefix)
	}
}

// clone reads git clone URL [DIR]: it creates DIR, or the directory named
// after the repository.
func (g *gitCall) clone() {
	o := options{short: "bocuj", long: []string{"branch", "origin", "config", "upload-pack",
		"template", "reference", "reference-if-able", "separate-git-dir", "depth",
		"shallow-since", "shallow-exclude", "jobs", "filter", "server-option", "bundle-uri"}}
	_, operands := o.parse(g.args)
	switch {
	case len(operands) > 1:
		g.write(operands[1], OpCreate, true)
	case len(operands) == 1 && operands[0].static:
		url := strings.TrimSuffix(strings.TrimSuffix(operands[0].lit, "/"), ".git")
		name := path.Base(url[strings.LastIndexByte(url, ':')+1:])
		if name == "" || name == "." || name == "/" {
			g.opaque("git clone")
			return
		}
		g.write(literal(name), OpCreate, true)
	default:
		g.opaque("git clone")
	}
}

// worktree reads git worktree add PATH, remove PATH, move FROM TO.
func (g *gitCall) worktree() {
	if len(g.args) == 0 || !g.args[0].static {
		return
	}
	_, operands := options{short: "bB", long: []string{"reason"}}.parse(g.args[1:])
	if len(operands) == 0 {
		return
	}
	switch g.args[0].lit {
	case "add":
		g.write(operands[0], OpCreate, true)
	case "remove":
		g.write(operands[0], OpDelete, true)
	case "move":
		g.write(operands[0], OpMove, true)
		if len(operands) > 1 {
			g.write(operands[1], OpWrite, true)
		}
	}
}
