package shellwrite

import (
	"path"
	"strings"
)

// tee reads tee [-a] files and sponge [-a] file: they write (or append
// to) their operands.
func (c *call) tee() {
	opts, files := options{long: []string{"output-error"}}.parse(c.args)
	op := OpWrite
	if has(opts, "a", "append") {
		op = OpAppend
	}
	c.writeAll(files, op, false)
}

// copy reads cp, mv, install and ln: SOURCE DEST, SOURCE... DIR, or
// -t DIR SOURCE.... mv also moves its sources away; ln makes links.
func (c *call) copy() {
	o := options{short: "St", long: []string{"suffix", "target-directory"}}
	switch c.name {
	case "install":
		o = options{short: "gmoSt", long: []string{"group", "mode", "owner", "suffix", "target-directory", "strip-program"}}
	case "ln":
		o.short = "St"
	}
	opts, operands := o.parse(c.args)
	op, tree := OpWrite, has(opts, "r", "R", "a", "recursive", "archive")
	switch c.name {
	case "install":
		if has(opts, "d", "directory") {
			c.writeAll(operands, OpCreate, false)
			return
		}
		tree = false
	case "ln":
		op, tree = OpLink, false
	case "mv":
		tree = true // a source may be a directory
		dirs := values(opts, "t", "target-directory")
		sources := operands
		if len(dirs) == 0 && len(operands) > 1 {
			sources = operands[:len(operands)-1]
		}
		c.writeAll(sources, OpMove, true)
	}
	if dirs := values(opts, "t", "target-directory"); len(dirs) > 0 {
		for _, src := range operands {
			c.into(dirs[len(dirs)-1], src, op, tree)
		}
		return
	}
	if len(operands) < 2 {
		if c.name == "ln" && len(operands) == 1 {
			c.into(literal("."), operands[0], op, tree) // ln -s /x/y makes ./y
		}
		return
	}
	dest, sources := operands[len(operands)-1], operands[:len(operands)-1]
	if has(opts, "T", "no-target-directory") {
		c.write(dest, op, tree)
		return
	}
	c.place(dest, sources, op, tree)
}

// place records the writes of sources copied or moved to dest: dest
// itself when it may be the new file, and the sources' names in it when
// it may be a directory.
func (c *call) place(dest field, sources []field, op string, tree bool) {
	if len(sources) == 1 && !strings.HasSuffix(dest.lit, "/") {
		c.write(dest, op, tree)
	}
	for _, src := range sources {
		c.into(dest, src, op, tree)
	}
}

// into records the write of src's copy in the directory dir.
func (c *call) into(dir, src field, op string, tree bool) {
	if !dir.static || !src.static {
		// Anything under dir may be written.
		c.write(dir, op, true)
		return
	}
	name := field{lit: path.Base(src.lit), pat: path.Base(src.pat), static: true, src: src.src}
	name.glob = src.glob && hasMeta(name.pat)
	if dir.lit == "." {
		c.write(name, op, tree)
		return
	}
	c.write(join(dir, name), op, tree)
}

// remove reads rm, rmdir, unlink and shred: they delete their operands
// (shred overwrites them, and deletes them with -u).
func (c *call) remove() {
	o := options{}
	if c.name == "shred" {
		o = options{short: "ns", long: []string{"iterations", "size", "random-source"}}
	}
	opts, files := o.parse(c.args)
	op, tree := OpDelete, c.name == "rm" && has(opts, "r", "R", "recursive")
	if c.name == "shred" && !has(opts, "u", "remove") {
		op = OpWrite
	}
	c.writeAll(files, op, tree)
}

// create reads touch, mkdir, mkfifo and truncate: they create (or
// change) their operands.
func (c *call) create() {
	var o options
	op := OpCreate
	switch c.name {
	case "touch":
		o = options{short: "drt", long: []string{"date", "reference", "time"}}
	case "mkdir", "mkfifo":
		o = options{short: "m", long: []string{"mode"}}
	case "truncate":
		o = options{short: "rs", long: []string{"reference", "size"}}
		op = OpWrite
	}
	_, files := o.parse(c.args)
	c.writeAll(files, op, false)
}

// mktemp reads mktemp [-p DIR] [TEMPLATE]: a template not under a temp
// directory names a file in the current directory; its XXX are a glob.
func (c *call) mktemp() {
	opts, operands := options{short: "p", long: []string{"suffix"}}.parse(c.args)
	if len(operands) == 0 || has(opts, "u", "dry-run", "t", "tmpdir") {
		return // in $TMPDIR, or nothing made
	}
	tmpl := operands[0]
	if tmpl.static {
		base := strings.TrimRight(tmpl.lit, "X")
		if len(tmpl.lit)-len(base) >= 3 && !strings.Contains(tmpl.lit[len(base):], "/") {
			tmpl = field{lit: tmpl.lit, pat: escapeMeta(base) + "*", glob: true, static: true, src: tmpl.src}
		}
	}
	if dirs := values(opts, "p"); len(dirs) > 0 {
		tmpl = join(dirs[len(dirs)-1], tmpl)
	}
	c.write(tmpl, OpCreate, has(opts, "d", "directory"))
}

// chmod reads chmod [-R] MODE files: a mode may start with a dash (-x).
func (c *call) chmod() {
	recursive, mode := false, false
	var files []field
	for i, a := range c.args {
		switch {
		case a.static && a.lit == "--":
			rest := c.args[i+1:]
			if !mode && len(rest) > 0 {
				rest = rest[1:]
			}
			c.writeAll(append(files, rest...), OpMode, recursive)
			return
		case a.static && strings.HasPrefix(a.lit, "--"):
			recursive = recursive || a.lit == "--recursive"
			mode = mode || strings.HasPrefix(a.lit, "--reference=")
		case a.static && len(a.lit) > 1 && a.lit[0] == '-' && strings.Trim(a.lit[1:], "Rcfvh") == "":
			recursive = recursive || strings.Contains(a.lit, "R")
		case !mode:
			mode = true
		default:
			files = append(files, a)
		}
	}
	c.writeAll(files, OpMode, recursive)
}

// chown reads chown and chgrp [-R] OWNER files, or --reference=FILE files.
func (c *call) chown() {
	opts, operands := options{long: []string{"from"}}.parse(c.args)
	if !has(opts, "reference") && len(operands) > 0 {
		operands = operands[1:]
	}
	c.writeAll(operands, OpMode, has(opts, "R", "recursive"))
}

// dd reads dd's of=FILE.
func (c *call) dd() {
	for _, a := range c.args {
		if strings.HasPrefix(a.lit, "of=") {
			c.write(a.cut(len("of=")), OpWrite, false)
		}
	}
}

// sortOutput reads sort -o FILE and uniq INPUT OUTPUT.
func (c *call) sortOutput() {
	if c.name == "uniq" {
		_, operands := options{short: "fsw", long: []string{"skip-fields", "skip-chars", "check-chars"}}.parse(c.args)
		if len(operands) > 1 {
			c.write(operands[1], OpWrite, false)
		}
		return
	}
	o := options{short: "kStTo", long: []string{"key", "buffer-size", "field-separator",
		"temporary-directory", "output", "files0-from", "batch-size", "parallel",
		"compress-program", "random-source", "sort"}}
	opts, _ := o.parse(c.args)
	c.writeAll(values(opts, "o", "output"), OpWrite, false)
}
