package shellwrite

import (
	"strings"
)

// sed reads sed: with -i (-i.bak, -ie, --in-place, BSD's -i "") it
// writes its files; its script's w commands write theirs.
func (c *call) sed() {
	var scripts, scriptFiles, operands []field
	inPlace, sandbox := false, false
	args := c.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.static && a.lit == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a.lit, "--"):
			name, _, attached := strings.Cut(a.lit[2:], "=")
			var v field
			if attached {
				v = a.cut(len("--" + name + "="))
			} else if (name == "expression" || name == "file" || name == "line-length") && i+1 < len(args) {
				i++
				v = args[i]
			}
			switch name {
			case "in-place":
				inPlace = true
			case "expression":
				scripts = append(scripts, v)
			case "file":
				scriptFiles = append(scriptFiles, v)
			case "sandbox":
				sandbox = true
			}
		case strings.HasPrefix(a.lit, "-") && (len(a.lit) > 1 || !a.static):
			for j := 1; j < len(a.lit); j++ {
				letter := a.lit[j]
				if letter != 'i' && letter != 'e' && letter != 'f' && letter != 'l' {
					continue
				}
				if letter == 'i' {
					// The rest is the suffix of a backup; BSD's -i takes
					// it as the next argument, often ''.
					inPlace = true
					if j+1 == len(a.lit) && a.static && i+1 < len(args) && isBackupSuffix(args[i+1]) {
						i++
					}
					break
				}
				v := a.cut(j + 1)
				if j+1 == len(a.lit) && a.static && i+1 < len(args) {
					i++
					v = args[i]
				}
				switch letter {
				case 'e':
					scripts = append(scripts, v)
				case 'f':
					scriptFiles = append(scriptFiles, v)
				}
				break
			}
		default:
			operands = append(operands, a)
		}
	}
	if len(scripts) == 0 && len(scriptFiles) == 0 && len(operands) > 0 {
		scripts, operands = operands[:1], operands[1:]
	}
	for _, f := range scriptFiles {
		c.opaque("sed -f " + f.src)
	}
	for _, s := range scripts {
		if !s.static {
			c.opaque("sed " + s.src)
			continue
		}
		files, runs := sedScript(s.lit)
		if sandbox {
			continue
		}
		if runs {
			c.opaque("sed e")
		}
		for _, f := range files {
			c.write(literal(f), OpWrite, false)
		}
	}
	if inPlace {
		c.writeAll(operands, OpWrite, false)
	}
}

// isBackupSuffix tells whether f, after a bare -i, is BSD sed's backup
// suffix ("" or ".bak") rather than the script.
func isBackupSuffix(f field) bool {
	if !f.static {
		return false
	}
	return f.lit == "" || (strings.HasPrefix(f.lit, ".") && !strings.ContainsAny(f.lit, " /;\n"))
}

// sedScript returns the files a sed script writes with its w and W
// commands and the w flag of s, and whether it runs commands (e).
func sedScript(s string) (files []string, runs bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case strings.IndexByte(" \t\n;{}!", c) >= 0:
			i++
			continue
		case c == '#':
			i = lineEnd(s, i)
			continue
		case strings.IndexByte("0123456789$/\\,~+", c) >= 0:
			i = max(skipAddress(s, i), i+1)
			continue
		}
		i++
		switch c {
		case 'w', 'W':
			end := lineEnd(s, i)
			files = append(files, strings.TrimSpace(s[i:end]))
			i = end
		case 'e':
			runs = true
			i = lineEnd(s, i)
		case 'r', 'R', 'a', 'i', 'c':
			i = textEnd(s, i)
		case ':', 'b', 't', 'T':
			for i < len(s) && s[i] != ';' && s[i] != '\n' {
				i++
			}
		case 's', 'y':
			if i >= len(s) {
				break
			}
			delim := s[i]
			i = skipDelimited(s, skipDelimited(s, i+1, delim), delim)
			if c == 'y' {
				break
			}
			for i < len(s) && strings.IndexByte(";\n}", s[i]) < 0 {
				switch s[i] {
				case 'w':
					end := lineEnd(s, i+1)
					files = append(files, strings.TrimSpace(s[i+1:end]))
					i = end
					continue
				case 'e':
					runs = true
				}
				i++
			}
		}
	}
	return files, runs
}

// lineEnd returns the index of the newline ending the line i is in, or
// len(s).
func lineEnd(s string, i int) int {
	if n := strings.IndexByte(s[min(i, len(s)):], '\n'); n >= 0 {
		return i + n
	}
	return len(s)
}

// textEnd returns the end of the text of a, i or c: the first newline
// not escaped by a backslash.
func textEnd(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\n':
			return i
		}
	}
	return len(s)
}

// skipDelimited returns the index after the part of s from i that ends
// with delim, backslashes escaping.
func skipDelimited(s string, i int, delim byte) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case delim:
			return i + 1
		}
	}
	return len(s)
}

// skipAddress returns the index after the address that starts at i:
// numbers, $, /regex/ or \cregexc with I and M flags, ranges.
func skipAddress(s string, i int) int {
	for i < len(s) {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '$', c == ',', c == '~', c == '+':
			i++
		case c == '/':
			i = skipDelimited(s, i+1, '/')
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case c == '\\' && i+1 < len(s):
			i = skipDelimited(s, i+2, s[i+1])
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// editor says how an interpreter with an in-place mode (-i) takes its
// options.
type editor struct {
	code   string // letters whose value is the code: "e"
	value  string // letters that take a value, attached or the next argument
	rest   string // letters that take the rest of the bundle, if any
	digits string // letters that take the digits that follow them
}

// perl reads perl: with -i (-pi -e, -i.bak) it writes the files after
// its code; without it, its code may write anything.
func (c *call) perl() {
	c.inPlace(editor{code: "eE", value: "I", rest: "dDmMxFV", digits: "0lC"})
}

// ruby reads ruby as perl.
func (c *call) ruby() {
	c.inPlace(editor{code: "e", value: "CEIr", rest: "xFWKT", digits: "0"})
}

func (c *call) inPlace(ed editor) {
	inPlace, code := false, false
	args := c.args
	for len(args) > 0 && args[0].static && len(args[0].lit) > 1 && args[0].lit[0] == '-' {
		a := args[0].lit
		args = args[1:]
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--") {
			if a == "--version" || a == "--help" {
				return
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			letter := a[j]
			switch {
			case letter == 'i':
				inPlace = true
				j = len(a) // the rest is the backup's extension
			case strings.IndexByte(ed.code, letter) >= 0 || strings.IndexByte(ed.value, letter) >= 0:
				code = code || strings.IndexByte(ed.code, letter) >= 0
				if j+1 == len(a) && len(args) > 0 {
					args = args[1:]
				}
				j = len(a)
			case strings.IndexByte(ed.rest, letter) >= 0:
				j = len(a)
			case strings.IndexByte(ed.digits, letter) >= 0:
				for j+1 < len(a) && strings.IndexByte("0123456789abcdefABCDEFx", a[j+1]) >= 0 {
					j++
				}
			}
		}
	}
	if !code {
		if len(args) == 0 {
			c.opaque(c.name + " (stdin)")
			return
		}
		c.opaque(c.name + " " + args[0].src) // a script file
		args = args[1:]
	}
	if inPlace {
		c.writeAll(args, OpWrite, false)
	} else if code {
		c.opaque(c.name + " -e")
	}
}

// awk reads awk: gawk -i inplace writes its files; a program with a
// redirection or system() may write anything.
func (c *call) awk() {
	o := options{short: "FvfeEilW", first: true, long: []string{"field-separator", "assign",
		"file", "source", "exec", "include", "load"}}
	opts, operands := o.parse(c.args)
	for _, f := range values(opts, "f", "file", "E", "exec") {
		c.opaque(c.name + " -f " + f.src)
	}
	programs := values(opts, "e", "source")
	if !has(opts, "f", "file", "E", "exec", "e", "source") && len(operands) > 0 {
		programs, operands = operands[:1], operands[1:]
	}
	for _, p := range programs {
		if !p.static {
			c.opaque(c.name + " " + p.src)
		} else if strings.ContainsAny(p.lit, ">|") || strings.Contains(p.lit, "system") {
			c.opaque(c.name) // print > "file", | "cmd", system()
		}
	}
	inPlace := false
	for _, lib := range values(opts, "i", "include") {
		inPlace = inPlace || (lib.static && lib.lit == "inplace")
	}
	if !inPlace {
		return
	}
	for _, f := range operands {
		if !f.static || !isAssignment(f.lit) {
			c.write(f, OpWrite, false)
		}
	}
}

// yq reads yq -i EXPRESSION FILE...: it writes the files.
func (c *call) yq() {
	o := options{short: "opI", long: []string{"output-format", "input-format", "indent",
		"expression", "front-matter", "from-file"}}
	opts, operands := o.parse(c.args)
	if !has(opts, "i", "inplace") {
		return
	}
	if !has(opts, "expression", "from-file") && len(operands) > 1 {
		operands = operands[1:]
	}
	c.writeAll(operands, OpWrite, false)
}
