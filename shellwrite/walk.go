package shellwrite

import (
	"mvdan.cc/sh/v3/syntax"
)

// maxNest bounds how deep the walk goes into nested statements and
// wrapped commands; deeper parts are opaque.
const maxNest = 1000

// maxDepth bounds how many command strings (sh -c, eval) nest in one
// another; deeper ones are opaque.
const maxDepth = 8

// walker reads the statements of one source text: the command line, or
// a command string nested in it.
type walker struct {
	a     *analyzer
	src   string // the text the positions of the syntax tree point in
	depth int    // how many command strings this one is nested in
	nest  int    // how deep the walk is in the tree
}

// env is the state of the shell a statement runs in.
type env struct {
	dir     string  // see Target.Dir; absolute or ~ after a cd there
	unknown string  // set when a cd went where no one can tell: that cd
	stack   []place // where each pushd was
	stdin   input   // what the statement reads on its standard input
}

// enter steps one level deeper into the tree; it returns false, having
// marked the part opaque, when that is too deep.
func (w *walker) enter() bool {
	if w.nest >= maxNest {
		w.a.addOpaque("command nested too deeply")
		return false
	}
	w.nest++
	return true
}

func (w *walker) leave() { w.nest-- }

// stmts walks a list of statements run one after the other: a cd in one
// holds for the next. It returns the state after the last.
func (w *walker) stmts(list []*syntax.Stmt, e env) env {
	for _, s := range list {
		e = w.stmt(s, e)
	}
	return e
}

// subshell walks list in a copy of the shell: its cd does not leak out.
func (w *walker) subshell(list []*syntax.Stmt, e env) {
	w.stmts(list, e)
}

// stmt walks one statement and returns the state after it.
func (w *walker) stmt(s *syntax.Stmt, e env) env {
	if s == nil || !w.enter() {
		return e
	}
	defer w.leave()
	inner := e
	for _, r := range s.Redirs {
		w.redirect(r, &inner)
	}
	after := w.command(s.Cmd, inner)
	if s.Background || s.Coprocess || s.Disown {
		return e // run in a subshell of its own
	}
	after.stdin = e.stdin
	return after
}

// command walks the command of a statement.
func (w *walker) command(cmd syntax.Command, e env) env {
	switch c := cmd.(type) {
	case nil:
		return e
	case *syntax.CallExpr:
		return w.callExpr(c, e)
	case *syntax.BinaryCmd:
		return w.binary(c, e)
	case *syntax.Block:
		return w.stmts(c.Stmts, e)
	case *syntax.Subshell:
		w.subshell(c.Stmts, e)
		return e
	case *syntax.IfClause:
		for clause := c; clause != nil; clause = clause.Else {
			e = w.stmts(clause.Cond, e)
			e = w.stmts(clause.Then, e)
		}
		return e
	case *syntax.WhileClause:
		e = w.stmts(c.Cond, e)
		return w.stmts(c.Do, e)
	case *syntax.ForClause:
		w.substs(c.Loop, e)
		return w.stmts(c.Do, e)
	case *syntax.CaseClause:
		w.substs(c.Word, e)
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				w.substs(p, e)
			}
			e = w.stmts(item.Stmts, e)
		}
		return e
	case *syntax.FuncDecl:
		// The body runs when the function is called, maybe later in this
		// command line: read it as if it ran here, and its calls as
		// known.
		if c.Name != nil {
			w.a.funcs[c.Name.Value] = true
		}
		for _, name := range c.Names {
			w.a.funcs[name.Value] = true
		}
		w.stmt(c.Body, e)
		return e
	case *syntax.TimeClause:
		return w.stmt(c.Stmt, e)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, e)
		return e
	case *syntax.TestDecl:
		w.stmt(c.Body, e)
		return e
	default: // [[ ]], (( )), let, declare, export, local: no file written
		w.substs(c, e)
		return e
	}
}

// substs walks the command and process substitutions in node: they run
// in subshells, before the command they are part of.
func (w *walker) substs(node syntax.Node, e env) {
	if node == nil {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.subshell(n.Stmts, e)
			return false
		case *syntax.ProcSubst:
			w.subshell(n.Stmts, e)
			return false
		}
		return true
	})
}

// callExpr walks a simple command.
func (w *walker) callExpr(c *syntax.CallExpr, e env) env {
	for _, as := range c.Assigns {
		w.substs(as, e)
	}
	for _, word := range c.Args {
		w.substs(word, e)
	}
	if len(c.Args) == 0 {
		return e
	}
	return w.run(w.fields(c.Args), e)
}

// binary walks a && b, a || b and pipelines. Chains are walked in a loop,
// however long.
func (w *walker) binary(b *syntax.BinaryCmd, e env) env {
	pipe := isPipe(b.Op)
	stages := flatten(b, pipe)
	if !pipe {
		for _, s := range stages {
			e = w.stmt(s, e)
		}
		return e
	}
	// Each stage of a pipeline runs in a subshell, reading what the one
	// before it writes.
	in := e.stdin
	for _, s := range stages {
		se := e
		se.stdin = in
		w.stmt(s, se)
		in = w.output(s, se)
	}
	return e
}

func isPipe(op syntax.BinCmdOperator) bool {
	return op == syntax.Pipe || op == syntax.PipeAll
}

// flatten returns the statements of a chain of && and || (pipe false) or
// of a pipeline (pipe true), in order.
func flatten(b *syntax.BinaryCmd, pipe bool) []*syntax.Stmt {
	var out []*syntax.Stmt
	todo := []*syntax.Stmt{b.Y, b.X}
	for len(todo) > 0 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if inner, ok := s.Cmd.(*syntax.BinaryCmd); ok && isPipe(inner.Op) == pipe && plain(s) {
			todo = append(todo, inner.Y, inner.X)
			continue
		}
		out = append(out, s)
	}
	return out
}

// plain tells whether s is only its command: no redirection, no !, no &.
func plain(s *syntax.Stmt) bool {
	return len(s.Redirs) == 0 && !s.Negated && !s.Background && !s.Coprocess && !s.Disown
}

// text returns the source of node.
func (w *walker) text(node syntax.Node) string {
	from, to := node.Pos().Offset(), node.End().Offset()
	if from > to || to > uint(len(w.src)) {
		return ""
	}
	return w.src[from:to]
}
