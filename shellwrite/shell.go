package shellwrite

import (
	"strings"
)

// nested reads a command string run by the command named who (sh -c,
// eval) in the shell state e, and returns the state after it.
func (w *walker) nested(script string, e env, who string) env {
	if w.depth+1 > maxDepth {
		w.a.addOpaque(who + " (nested too deeply)")
		return e
	}
	if parenDepth(script) > maxParens {
		w.a.addOpaque(who + " (nested too deeply)")
		return e
	}
	if w.a.nestedLen += len(script); w.a.nestedLen > MaxLen {
		w.a.addOpaque(who + " (too long)")
		return e
	}
	f, err := w.a.parse(script)
	if err != nil {
		w.a.addOpaque(who + " (does not parse)")
		return e
	}
	inner := &walker{a: w.a, src: script, depth: w.depth + 1, nest: w.nest}
	return inner.stmts(f.Stmts, e)
}

// shell reads sh, bash, zsh ...: the string of -c, a script read from a
// known standard input, or a script file (opaque).
func (c *call) shell() {
	args := c.args
	command, stdin := false, false
	for len(args) > 0 && args[0].static {
		a := args[0].lit
		if a == "-" || a == "--" {
			args = args[1:]
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		args = args[1:]
		if strings.HasPrefix(a, "--") {
			if (a == "--rcfile" || a == "--init-file") && len(args) > 0 {
				args = args[1:]
			}
			continue
		}
		command = command || strings.ContainsRune(a[1:], 'c')
		stdin = stdin || strings.ContainsRune(a[1:], 's')
		// -o option and -O shopt take the next argument.
		for range strings.Count(a[1:], "o") + strings.Count(a[1:], "O") {
			if len(args) > 0 {
				args = args[1:]
			}
		}
	}
	switch {
	case command:
		if len(args) == 0 {
			return
		}
		if !args[0].static {
			c.opaque(c.name + " -c " + args[0].src)
			return
		}
		c.w.nested(args[0].lit, c.e, c.name+" -c")
	case len(args) > 0 && !stdin:
		c.opaque(c.name + " " + args[0].src) // a script file
	case c.e.stdin.known && !c.e.stdin.holes:
		c.w.nested(c.e.stdin.text, c.e, c.name+" (stdin)")
	default:
		c.opaque(c.name + " (stdin)")
	}
}

// eval reads eval args: their words joined, read as a command line run in
// this shell (a cd in it holds after it).
func (c *call) eval() env {
	words := make([]string, len(c.args))
	for i, a := range c.args {
		if !a.static || a.glob {
			c.opaque("eval " + a.src)
			return c.e
		}
		words[i] = a.lit
	}
	return c.w.nested(strings.Join(words, " "), c.e, "eval")
}

// trap reads trap 'command' SIGNAL...: the command may run later.
func (c *call) trap() {
	if len(c.args) < 2 || (c.args[0].static && c.args[0].lit == "-") {
		return // trap -p, trap -l, trap - SIGNAL
	}
	a := c.args[0]
	if a.static && strings.HasPrefix(a.lit, "-") {
		return
	}
	if !a.static {
		c.opaque("trap " + a.src)
		return
	}
	c.w.nested(a.lit, c.e, "trap")
}

// interpreter reads a language's interpreter: python, node, ... Its code
// (inline, a script file or its standard input) may write anything.
func (c *call) interpreter() {
	for i, a := range c.args {
		switch {
		case !a.static:
			c.opaque(c.name + " " + a.src)
		case a.lit == "-c" || a.lit == "-e" || a.lit == "--eval" || a.lit == "-p" || a.lit == "--print":
			c.opaque(c.name + " " + a.lit)
		case a.lit == "-m" && i+1 < len(c.args):
			c.opaque(c.name + " -m " + c.args[i+1].src)
		case a.lit == "--version" || a.lit == "-V" || a.lit == "--help" || a.lit == "-h":
			return
		case strings.HasPrefix(a.lit, "-"):
			continue
		default:
			c.opaque(c.name + " " + a.src) // a script
		}
		return
	}
	c.opaque(c.name)
}
