package shellwrite

import (
	"slices"
	"strconv"
	"strings"
)

// PatchFiles returns the files an apply_patch body changes, sorted, each
// once: the paths of its "*** Add File:", "*** Update File:", "*** Delete
// File:" and "*** Move to:" lines, as written in the body.
func PatchFiles(body string) []string {
	var out []string
	for _, f := range applyPatchFiles(body) {
		out = append(out, f.path)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// beginPatch starts an apply_patch body.
const beginPatch = "*** Begin Patch"

// isRawPatch tells whether cmd is an apply_patch body given as the
// command itself, as Codex gives its patches.
func isRawPatch(cmd string) bool {
	return strings.HasPrefix(strings.TrimLeft(cmd, " \t\r\n"), beginPatch)
}

// applyPatchFiles returns the files of an apply_patch body, in order,
// with what happens to each.
func applyPatchFiles(body string) []patchFile {
	var out []patchFile
	for l := range strings.SplitSeq(body, "\n") {
		l = strings.TrimRight(l, "\r")
		for _, h := range []struct{ prefix, op string }{
			{"*** Add File:", OpCreate},
			{"*** Update File:", OpWrite},
			{"*** Delete File:", OpDelete},
			{"*** Move to:", OpWrite},
		} {
			p, ok := strings.CutPrefix(l, h.prefix)
			if p = strings.TrimSpace(p); !ok || p == "" {
				continue
			}
			if h.prefix == "*** Move to:" && len(out) > 0 {
				out[len(out)-1].op = OpMove // the updated file moves away
			}
			out = append(out, patchFile{p, h.op})
		}
	}
	return out
}

// patchTargets records the files a patch changes, in the shell state e;
// who names the command applying it.
func (w *walker) patchTargets(e env, files []patchFile, who string) {
	for _, f := range files {
		if strings.Contains(f.path, hole) {
			w.a.addOpaque(who + " (a path is not known)")
			continue
		}
		w.write(e, literal(f.path), f.op, false, who)
	}
}

// applyPatch reads apply_patch with its body as its argument or on its
// standard input.
func (c *call) applyPatch() {
	switch {
	case len(c.args) > 0 && c.args[0].static:
		c.w.patchTargets(c.e, applyPatchFiles(c.args[0].lit), c.name)
	case len(c.args) > 0:
		c.opaque(c.name + " " + c.args[0].src)
	case c.e.stdin.known:
		c.w.patchTargets(c.e, applyPatchFiles(c.e.stdin.text), c.name)
	default:
		c.opaque(c.name + " " + stdinDesc(c.e.stdin))
	}
}

// stdinDesc names a standard input that is not known.
func stdinDesc(in input) string {
	if in.desc != "" {
		return in.desc
	}
	return "(stdin)"
}

// patch reads patch [-pN] [-d DIR] [ORIGINAL [PATCHFILE]] with the diff
// on its standard input or in -i FILE.
func (c *call) patch() {
	o := options{short: "pdioBrzVFDgY", long: []string{"strip", "directory", "input", "output",
		"prefix", "reject-file", "suffix", "version-control", "fuzz", "ifdef", "get",
		"basename-prefix", "quoting-style", "reject-format", "read-only"}}
	opts, operands := o.parse(c.args)
	if has(opts, "dry-run", "C", "check") {
		return
	}
	for _, d := range values(opts, "d", "directory") {
		c.e = chdir(c.e, d, "patch -d "+d.src)
	}
	for _, r := range values(opts, "r", "reject-file") {
		if !r.static || r.lit != "-" {
			c.write(r, OpWrite, false)
		}
	}
	if outs := values(opts, "o", "output"); len(outs) > 0 {
		for _, f := range outs {
			if !f.static || f.lit != "-" {
				c.write(f, OpWrite, false)
			}
		}
		return
	}
	if len(operands) > 0 {
		c.write(operands[0], OpWrite, false) // the file to patch, named
		return
	}
	if in := values(opts, "i", "input"); len(in) > 0 {
		c.opaque("patch -i " + in[len(in)-1].src)
		return
	}
	strip := -1
	for _, p := range values(opts, "p", "strip") {
		n, err := strconv.Atoi(p.lit)
		if !p.static || err != nil || n < 0 {
			c.opaque("patch -p " + p.src)
			return
		}
		strip = n
	}
	c.diffFromStdin("patch", strip, true, "")
}

// diffFromStdin records the files of the diff on the standard input of
// who, patch (both) or git apply; prefix is git apply's --directory.
func (c *call) diffFromStdin(who string, strip int, both bool, prefix string) {
	if !c.e.stdin.known {
		c.opaque(who + " " + stdinDesc(c.e.stdin))
		return
	}
	files, ok := diffFiles(c.e.stdin.text, strip, both)
	if !ok {
		c.opaque(who + " (stdin)")
	}
	if prefix != "" {
		for i := range files {
			files[i].path = prefix + "/" + files[i].path
		}
	}
	c.w.patchTargets(c.e, files, who)
}
