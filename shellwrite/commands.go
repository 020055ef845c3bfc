package shellwrite

import (
	"path"
	"strings"
)

// call is one simple command being read: its name, its arguments, and the
// shell it runs in.
type call struct {
	w    *walker
	e    env
	name string  // the command's name, the base name of an absolute path
	args []field // the arguments after the name
}

// write records that the command writes the file f names.
func (c *call) write(f field, op string, tree bool) {
	c.w.write(c.e, f, op, tree, c.name)
}

// writeAll records that the command writes each of files.
func (c *call) writeAll(files []field, op string, tree bool) {
	for _, f := range files {
		c.write(f, op, tree)
	}
}

// opaque records that what the command writes is not known; desc names
// the part that is not, "" for the command's name.
func (c *call) opaque(desc string) {
	if desc == "" {
		desc = c.name
	}
	c.w.a.addOpaque(desc)
}

// run reads the simple command fs (its name then its arguments) and
// returns the state of the shell after it.
func (w *walker) run(fs []field, e env) env {
	if len(fs) == 0 || !w.enter() {
		return e
	}
	defer w.leave()
	first := fs[0]
	if !first.static || first.glob {
		w.a.addOpaque(first.src) // $CMD, $(which x)
		return e
	}
	name := first.lit
	if name == "" || w.a.funcs[name] {
		// No command, or a function of this command line: its body was
		// read where it is defined.
		return e
	}
	if strings.Contains(name, "/") {
		if !strings.HasPrefix(name, "/") {
			w.a.addOpaque(name) // ./x.sh, bin/tool
			return e
		}
		name = path.Base(name) // /bin/rm is rm
	}
	c := &call{w: w, e: e, name: name, args: fs[1:]}
	switch name {
	case "cd":
		return c.cd()
	case "pushd":
		return c.pushd()
	case "popd":
		return c.popd()
	case "eval":
		return c.eval()
	}
	if h := handler(name); h != nil {
		h(c)
	} else if !readOnly[name] {
		c.opaque(c.unknownName())
	}
	return e
}

// handler returns the reader of the command name, nil for a command that
// writes nothing or is not known.
func handler(name string) func(*call) {
	switch name {
	case "env":
		return (*call).env
	case "sudo", "doas":
		return (*call).sudo
	case "sudoedit":
		return (*call).sudoedit
	case "nohup", "builtin", "exec", "time", "command", "nice", "ionice", "timeout",
		"stdbuf", "setsid", "chronic", "busybox":
		return (*call).wrapper
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish":
		return (*call).shell
	case "source", ".", "xargs", "parallel", "watch":
		return (*call).runsOther
	case "trap":
		return (*call).trap
	case "python", "python2", "python3", "node", "nodejs", "deno", "bun", "php", "lua",
		"luajit", "Rscript", "osascript", "pwsh", "powershell", "tclsh", "julia", "irb":
		return (*call).interpreter
	case "perl":
		return (*call).perl
	case "ruby":
		return (*call).ruby
	case "sed", "gsed":
		return (*call).sed
	case "awk", "gawk", "mawk", "nawk":
		return (*call).awk
	case "yq":
		return (*call).yq
	case "tee", "sponge":
		return (*call).tee
	case "cp", "mv", "install", "ln":
		return (*call).copy
	case "rm", "rmdir", "unlink", "shred":
		return (*call).remove
	case "touch", "mkdir", "mkfifo", "truncate":
		return (*call).create
	case "mktemp":
		return (*call).mktemp
	case "chmod":
		return (*call).chmod
	case "chown", "chgrp":
		return (*call).chown
	case "dd":
		return (*call).dd
	case "sort", "uniq":
		return (*call).sortOutput
	case "curl", "wget":
		return (*call).download
	case "tar":
		return (*call).tar
	case "find":
		return (*call).find
	case "gofmt", "goimports":
		return (*call).gofmt
	case "git":
		return (*call).git
	case "patch":
		return (*call).patch
	case "apply_patch", "applypatch":
		return (*call).applyPatch
	}
	if strings.HasPrefix(name, "python3.") || strings.HasPrefix(name, "python2.") {
		return (*call).interpreter
	}
	return nil
}

// readOnly are the commands known to write no file, whatever their
// arguments.
var readOnly = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`
		: true false echo printf cat tac head tail less more grep egrep fgrep rg ag ack
		ls dir tree wc cut tr nl fold fmt column paste join comm diff diff3 cmp colordiff
		od hexdump strings file stat du df pwd whoami id groups date cal uptime uname
		hostname printenv which whereis type hash alias unalias set shopt export unset
		readonly local declare typeset read mapfile readarray test [ exit return break
		continue shift wait sleep jobs fg bg kill ps pgrep top free lsof basename dirname
		realpath readlink seq yes expr bc md5sum sha1sum sha224sum sha256sum sha384sum
		sha512sum shasum cksum b2sum base64 base32 jq tput clear history getopts let
		logger man info help tldr nproc ulimit umask dirs ping dig nslookup host rev
		numfmt factor zcat bzcat xzcat zgrep zless locale getconf tty stty sum
		`) {
		readOnly[name] = true
	}
}

// unknownName names a command that is not known: its name, and its
// first argument when that reads as a subcommand (npm install, go test).
func (c *call) unknownName() string {
	if len(c.args) > 0 && c.args[0].static && isSubcommand(c.args[0].lit) {
		return c.name + " " + c.args[0].lit
	}
	return c.name
}

func isSubcommand(s string) bool {
	if s == "" || s[0] == '-' {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' && r != ':' {
			return false
		}
	}
	return true
}

// runsOther reads a command that runs commands or a script it does not
// name in its arguments: source, xargs, watch.
func (c *call) runsOther() {
	desc := c.name
	if (c.name == "source" || c.name == ".") && len(c.args) > 0 {
		desc += " " + c.args[0].src
	}
	c.opaque(desc)
}
