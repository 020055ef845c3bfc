package shellwrite

import (
	"path"
	"strings"
)

// write records that who (a command name, a redirection operator) writes
// the file f names, in the shell state e; op and tree are as in Target.
// A path not known before the command runs makes who opaque instead.
func (w *walker) write(e env, f field, op string, tree bool, who string) {
	if !f.static {
		w.a.addOpaque(who + " " + f.src)
		return
	}
	p := f.path()
	if p == "" || (!f.glob && isDevice(p)) {
		return
	}
	t := Target{Op: op, Glob: f.glob, Tree: tree}
	switch {
	case isAbs(p):
		t.Path = cleanPath(p)
	case e.unknown != "":
		w.a.addOpaque(e.unknown)
		return
	case isAbs(e.dir):
		t.Path = cleanPath(e.dir + "/" + p)
	default:
		t.Path = cleanPath(p)
		t.Dir = e.dir
	}
	w.a.add(t)
}

// isAbs tells whether p does not depend on the current directory: it is
// absolute or starts with ~.
func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~")
}

// cleanPath is path.Clean that keeps a leading ~ or ~user: "~/a/../b" is
// "~/b", and "~/.." stays under ~ ("~").
func cleanPath(p string) string {
	if !strings.HasPrefix(p, "~") {
		return path.Clean(p)
	}
	user, rest, ok := strings.Cut(p, "/")
	if !ok {
		return p
	}
	if rest = path.Clean("/" + rest); rest == "/" {
		return user
	}
	return user + rest
}

// joinRel joins a relative directory and a relative path, "" for ".".
func joinRel(dir, p string) string {
	if j := path.Join(dir, p); j != "." {
		return j
	}
	return ""
}

// isDevice tells whether p is a device a command writes to without
// writing a file: /dev/null, the standard streams and the terminal.
func isDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty":
		return true
	}
	for _, prefix := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if n, ok := strings.CutPrefix(p, prefix); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return false
}
