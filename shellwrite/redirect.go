package shellwrite

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// input is what a command reads on its standard input.
type input struct {
	text  string
	known bool // text is the input; else it is not known before the command runs
	// desc names an input that is not known, when it is a file: "< fix.patch".
	desc  string
	holes bool // text has parts not known before the command runs, each marked by hole
}

// hole marks in an input's text a part not known before the command runs:
// a $VAR or $(...) in a here-document.
const hole = "\x00"

// redirect reads one redirection of a statement: the file it writes, or
// the input it gives the statement's command (set in e).
func (w *walker) redirect(r *syntax.Redirect, e *env) {
	w.substs(r.Word, *e)
	if r.Hdoc != nil {
		w.substs(r.Hdoc, *e)
	}
	if in, ok := w.stdinRedirect(r); ok {
		e.stdin = in
		return
	}
	op := ""
	switch r.Op {
	case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll, syntax.RdrAllClob, syntax.RdrInOut:
		op = OpWrite
	case syntax.AppOut, syntax.AppClob, syntax.AppAll, syntax.AppAllClob:
		op = OpAppend
	case syntax.DplOut:
		if isFD(r.Word) {
			return // 2>&1, >&-
		}
		op = OpWrite // >&file is &>file
	default:
		return
	}
	who := r.Op.String()
	if r.N != nil {
		who = r.N.Value + who
	}
	for _, f := range w.expand(r.Word) {
		w.write(*e, f, op, false, who)
	}
}

// stdinRedirect returns the input r gives a command on its standard
// input, if it gives one.
func (w *walker) stdinRedirect(r *syntax.Redirect) (input, bool) {
	if r.N != nil && r.N.Value != "0" {
		return input{}, false
	}
	switch r.Op {
	case syntax.RdrIn:
		return input{desc: "< " + w.text(r.Word)}, true // a file: not read here
	case syntax.Hdoc, syntax.DashHdoc:
		return w.heredoc(r), true
	case syntax.WordHdoc:
		fs := w.expand(r.Word)
		if len(fs) != 1 || !fs[0].static {
			return input{}, true
		}
		return input{text: fs[0].lit + "\n", known: true}, true
	}
	return input{}, false
}

// isFD tells whether the word of a >& redirection is a file descriptor or
// "-" (close), not a file.
func isFD(word *syntax.Word) bool {
	lit := word.Lit()
	if lit == "-" {
		return true
	}
	lit = strings.TrimSuffix(lit, "-") // 3>&4- moves a descriptor
	return lit != "" && strings.Trim(lit, "0123456789") == ""
}

// heredoc returns the body of a here-document: as written when its
// delimiter is quoted, else with its backslashes resolved and its
// expansions marked as holes.
func (w *walker) heredoc(r *syntax.Redirect) input {
	in := input{known: true}
	if r.Hdoc == nil {
		return in
	}
	quoted := delimiterQuoted(r.Word)
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		switch {
		case ok && quoted:
			b.WriteString(lit.Value)
		case ok:
			b.WriteString(unescapeHeredoc(lit.Value))
		default:
			b.WriteString(hole)
			in.holes = true
		}
	}
	in.text = b.String()
	if r.Op == syntax.DashHdoc {
		in.text = stripTabs(in.text)
	}
	return in
}

// delimiterQuoted tells whether a here-document's delimiter has quotes or
// a backslash, which keep its body from expansion.
func delimiterQuoted(word *syntax.Word) bool {
	for _, p := range word.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok || strings.Contains(lit.Value, `\`) {
			return true
		}
	}
	return false
}

// unescapeHeredoc resolves the backslashes of a here-document body, which
// quote only $, `, \ and a newline.
func unescapeHeredoc(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// stripTabs removes the leading tabs of each line, as <<- does.
func stripTabs(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "")
}

// output returns what a stage of a pipeline writes on its standard
// output, when that is known: a here-document through cat, echo's and
// printf's static arguments.
func (w *walker) output(s *syntax.Stmt, e env) input {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return input{}
	}
	in := e.stdin
	for _, r := range s.Redirs {
		if redirectsStdout(r) {
			return input{}
		}
		if got, ok := w.stdinRedirect(r); ok {
			in = got
		}
	}
	fs := w.fields(call.Args)
	if !fs[0].static {
		return input{}
	}
	args := fs[1:]
	switch path.Base(fs[0].lit) {
	case "cat":
		for _, a := range args {
			if !a.static || a.lit != "-" {
				return input{}
			}
		}
		return in
	case "echo":
		return echoOutput(args)
	case "printf":
		return printfOutput(args)
	}
	return input{}
}

// redirectsStdout tells whether r sends the standard output elsewhere.
func redirectsStdout(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
		return true
	case syntax.RdrOut, syntax.RdrClob, syntax.AppOut, syntax.AppClob, syntax.DplOut:
		return r.N == nil || r.N.Value == "1"
	}
	return false
}

// echoOutput returns what echo [-neE] args writes.
func echoOutput(args []field) input {
	newline, escapes := true, false
	for len(args) > 0 && args[0].static && isEchoOption(args[0].lit) {
		newline = newline && !strings.Contains(args[0].lit, "n")
		escapes = strings.Contains(args[0].lit, "e") || escapes && !strings.Contains(args[0].lit, "E")
		args = args[1:]
	}
	words := make([]string, len(args))
	for i, a := range args {
		if !a.static || a.glob {
			return input{}
		}
		words[i] = a.lit
	}
	text := strings.Join(words, " ")
	if escapes {
		text = ansiC(text)
	}
	if newline {
		text += "\n"
	}
	return input{text: text, known: true}
}

func isEchoOption(s string) bool {
	return len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "neE") == ""
}

// printfOutput returns what printf writes for a format without
// conversions, or for %s, %b and %s\n of one argument.
func printfOutput(args []field) input {
	if len(args) == 0 || !args[0].static {
		return input{}
	}
	format := args[0].lit
	switch {
	case len(args) == 1 && !strings.Contains(strings.ReplaceAll(format, "%%", ""), "%"):
		return input{text: strings.ReplaceAll(ansiC(format), "%%", "%"), known: true}
	case len(args) == 2 && args[1].static && !args[1].glob:
		switch format {
		case "%s", "%b":
			return input{text: args[1].lit, known: true}
		case `%s\n`, `%b\n`:
			return input{text: args[1].lit + "\n", known: true}
		}
	}
	return input{}
}
