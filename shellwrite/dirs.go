package shellwrite

// place is where a shell is: env's dir and unknown.
type place struct{ dir, unknown string }

func (e env) place() place { return place{e.dir, e.unknown} }

func (e env) at(p place) env {
	e.dir, e.unknown = p.dir, p.unknown
	return e
}

// maxDirLen bounds the length of the directory a chain of cd reaches, and
// maxStack the depth of pushd's stack; beyond them, where the shell is
// is not followed.
const (
	maxDirLen = 4096
	maxStack  = 64
)

// chdir returns e after a cd to the directory f names; desc names the
// cd, for the Opaque entry of the writes that follow a cd to a directory
// not known before the command runs.
func chdir(e env, f field, desc string) env {
	if !f.static || f.glob {
		e.unknown = desc
		return e
	}
	d := f.lit
	switch {
	case d == "":
		// cd "" stays where it is.
	case isAbs(d):
		e.dir, e.unknown = cleanPath(d), ""
	case e.unknown != "":
		// Below a directory no one can tell is still unknown.
	case isAbs(e.dir):
		e.dir = cleanPath(e.dir + "/" + d)
	default:
		e.dir = joinRel(e.dir, d)
	}
	if len(e.dir) > maxDirLen {
		e.unknown = desc
	}
	return e
}

// cd reads cd [-L|-P|-e|-@] [dir]: no dir is ~, "-" is the directory
// before, which is not known.
func (c *call) cd() env {
	operands := dirOperands(c.args)
	switch {
	case len(operands) == 0:
		return chdir(c.e, literal("~"), "cd")
	case operands[0].static && operands[0].lit == "-":
		c.e.unknown = "cd -"
		return c.e
	}
	return chdir(c.e, operands[0], "cd "+operands[0].src)
}

// pushd reads pushd [-n] [dir | +N | -N]: like cd, remembering where it
// was for popd.
func (c *call) pushd() env {
	operands := dirOperands(c.args)
	if len(operands) == 0 || isStackIndex(operands[0]) {
		// Swaps or rotates the stack: where it lands is not followed.
		c.e.unknown = "pushd"
		return c.e
	}
	for _, a := range c.args {
		if a.static && a.lit == "-n" {
			return c.e // only adds to the stack
		}
	}
	e := c.e
	if len(e.stack) >= maxStack {
		e.unknown = "pushd"
		return e
	}
	e.stack = append(e.stack[:len(e.stack):len(e.stack)], e.place())
	return chdir(e, operands[0], "pushd "+operands[0].src)
}

// popd reads popd: back where the last pushd was.
func (c *call) popd() env {
	e := c.e
	if len(dirOperands(c.args)) > 0 || len(e.stack) == 0 {
		e.unknown = "popd"
		return e
	}
	top := e.stack[len(e.stack)-1]
	e.stack = e.stack[:len(e.stack)-1]
	return e.at(top)
}

// dirOperands returns the arguments of cd, pushd or popd after their
// options.
func dirOperands(args []field) []field {
	for i, a := range args {
		switch {
		case a.static && a.lit == "--":
			return args[i+1:]
		case a.static && len(a.lit) > 1 && a.lit[0] == '-' && !isStackIndex(a):
			continue
		default:
			return args[i:]
		}
	}
	return nil
}

// isStackIndex tells whether f is +N or -N, a place in pushd's stack.
func isStackIndex(f field) bool {
	if !f.static || len(f.lit) < 2 || (f.lit[0] != '+' && f.lit[0] != '-') {
		return false
	}
	for _, r := range f.lit[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
