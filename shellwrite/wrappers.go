package shellwrite

import (
	"strings"
)

// wrapper reads a command that runs the command in its arguments: nohup,
// nice, timeout, command, exec, ...
func (c *call) wrapper() {
	var o options
	switch c.name {
	case "nice":
		o = options{short: "n", long: []string{"adjustment"}, first: true}
	case "ionice":
		o = options{short: "cnp", long: []string{"class", "classdata", "pid", "pgid", "uid"}, first: true}
	case "timeout":
		o = options{short: "ks", long: []string{"kill-after", "signal"}, first: true}
	case "stdbuf":
		o = options{short: "ioe", long: []string{"input", "output", "error"}, first: true}
	case "exec":
		o = options{short: "a", first: true}
	default:
		o = options{first: true}
	}
	opts, rest := o.parse(c.args)
	switch {
	case c.name == "command" && has(opts, "v", "V"):
		return // command -v names a command, runs none
	case c.name == "ionice" && has(opts, "p", "pid", "P", "pgid", "u", "uid"):
		return // changes a running process
	case c.name == "timeout":
		if len(rest) == 0 {
			return
		}
		rest = rest[1:] // the duration
	}
	c.w.run(rest, c.e)
}

// env reads env [-i] [-u NAME] [-C DIR] [NAME=VALUE]... [command].
func (c *call) env() {
	o := options{short: "uCS", long: []string{"unset", "chdir", "split-string"}, first: true}
	opts, rest := o.parse(c.args)
	if has(opts, "S", "split-string") {
		c.opaque("env -S")
		return
	}
	e := c.e
	for _, d := range values(opts, "C", "chdir") {
		e = chdir(e, d, "env -C "+d.src)
	}
	for len(rest) > 0 && rest[0].static && isAssignment(rest[0].lit) {
		rest = rest[1:]
	}
	c.w.run(rest, e)
}

// isAssignment tells whether s reads as NAME=VALUE.
func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// sudo reads sudo [options] [command]: the command, in the directory of
// -D; sudo -e edits files.
func (c *call) sudo() {
	o := options{short: "CDghpRrtTUu", first: true, long: []string{
		"close-from", "chdir", "group", "host", "prompt", "chroot", "role", "type",
		"command-timeout", "other-user", "user"}}
	opts, rest := o.parse(c.args)
	if has(opts, "e", "edit") {
		c.writeAll(rest, OpWrite, false)
		return
	}
	e := c.e
	for _, d := range values(opts, "D", "chdir") {
		e = chdir(e, d, "sudo -D "+d.src)
	}
	c.w.run(rest, e)
}

// sudoedit reads sudoedit files: it writes them.
func (c *call) sudoedit() {
	_, files := options{short: "CDghpRrtTUu"}.parse(c.args)
	c.writeAll(files, OpWrite, false)
}
