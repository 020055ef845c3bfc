package shellwrite

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// field is one argument of a command after the expansions that can be
// made before it runs.
type field struct {
	// lit is the value with quotes and escapes resolved. When static is
	// false it is the part of the value before the first expansion that
	// is not known, so that an option name is still seen: "--output=".
	lit string
	// pat is the value as a pattern: lit with the quoted *, ?, [ and \
	// escaped by a backslash.
	pat    string
	glob   bool   // the value has an unquoted *, ? or [...]: the shell expands it
	static bool   // the value is known before the command runs
	src    string // the word as written
}

// path returns f as a Target's Path: the pattern of a glob, else the
// value.
func (f field) path() string {
	if f.glob {
		return f.pat
	}
	return f.lit
}

// literal returns the field of a value known in advance.
func literal(s string) field {
	return field{lit: s, pat: escapeMeta(s), static: true, src: s}
}

// cut returns the field of f's value after its first n bytes, as the
// value of an option written --name=value or -Xvalue.
func (f field) cut(n int) field {
	if n > len(f.lit) {
		return field{src: f.src}
	}
	prefix := f.lit[:n]
	out := field{lit: f.lit[n:], static: f.static, src: f.src}
	pat, ok := strings.CutPrefix(f.pat, escapeMeta(prefix))
	if !ok {
		out.static = false
		return out
	}
	out.pat = pat
	out.glob = f.glob && hasMeta(pat)
	return out
}

// join returns the field of dir/name, name being a path's last element.
func join(dir, name field) field {
	return field{
		lit:    dir.lit + "/" + name.lit,
		pat:    dir.pat + "/" + name.pat,
		glob:   dir.glob || name.glob,
		static: dir.static && name.static,
		src:    dir.src + "/" + name.src,
	}
}

// maxFields bounds the fields one word's brace expansion yields; a word
// that yields more is not known.
const maxFields = 64

// maxWidth bounds the width of the zero-padded numbers of {01..10}.
const maxWidth = 32

// fields expands words into fields.
func (w *walker) fields(words []*syntax.Word) []field {
	out := make([]field, 0, len(words))
	for _, word := range words {
		out = append(out, w.expand(word)...)
	}
	return out
}

// expand expands one word: braces, then quotes, escapes, $HOME and $PWD.
func (w *walker) expand(word *syntax.Word) []field {
	src := w.text(word)
	parts := word.Parts
	if slices.ContainsFunc(parts, func(p syntax.WordPart) bool {
		lit, ok := p.(*syntax.Lit)
		return ok && strings.Contains(lit.Value, "{")
	}) {
		cp := &syntax.Word{Parts: slices.Clone(parts)}
		syntax.SplitBraces(cp)
		parts = cp.Parts
	}
	alts, ok := braces(parts)
	if !ok {
		return []field{{src: src}}
	}
	out := make([]field, 0, len(alts))
	for _, alt := range alts {
		f := evalParts(alt)
		f.src = src
		out = append(out, f)
	}
	return out
}

// braces expands the brace expressions in parts, into at most maxFields
// lists of parts.
func braces(parts []syntax.WordPart) ([][]syntax.WordPart, bool) {
	alts := [][]syntax.WordPart{nil}
	for _, p := range parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			for i := range alts {
				alts[i] = append(alts[i], p)
			}
			continue
		}
		var choices [][]syntax.WordPart
		if b.Sequence {
			seq, ok := sequence(b)
			if !ok {
				return nil, false
			}
			for _, s := range seq {
				choices = append(choices, []syntax.WordPart{&syntax.Lit{Value: s}})
			}
		} else {
			for _, elem := range b.Elems {
				inner, ok := braces(elem.Parts)
				if !ok {
					return nil, false
				}
				choices = append(choices, inner...)
			}
		}
		if len(alts)*len(choices) > maxFields {
			return nil, false
		}
		next := make([][]syntax.WordPart, 0, len(alts)*len(choices))
		for _, a := range alts {
			for _, c := range choices {
				next = append(next, append(slices.Clip(a), c...))
			}
		}
		alts = next
	}
	return alts, true
}

// sequence expands {x..y[..step]} of numbers or letters.
func sequence(b *syntax.BraceExp) ([]string, bool) {
	if len(b.Elems) < 2 {
		return nil, false
	}
	from, to := b.Elems[0].Lit(), b.Elems[1].Lit()
	step := 1
	if len(b.Elems) == 3 {
		n, err := strconv.Atoi(b.Elems[2].Lit())
		if err != nil {
			return nil, false
		}
		step = max(n, -n, 1)
	}
	x, errX := strconv.Atoi(from)
	y, errY := strconv.Atoi(to)
	letters := false
	if errX != nil || errY != nil {
		if len(from) != 1 || len(to) != 1 {
			return nil, false
		}
		x, y, letters = int(from[0]), int(to[0]), true
	}
	lo, hi := min(x, y), max(x, y)
	steps := (uint64(hi) - uint64(lo)) / uint64(step)
	if steps >= maxFields {
		return nil, false
	}
	count := steps + 1
	width := 0
	if !letters && (zeroPadded(from) || zeroPadded(to)) {
		width = max(len(from), len(to))
	}
	if width > maxWidth {
		return nil, false
	}
	out := make([]string, 0, count)
	for k := range int(count) {
		i := x + k*step
		if x > y {
			i = x - k*step
		}
		switch {
		case letters:
			out = append(out, string(rune(i)))
		case width > 0:
			out = append(out, padNumber(i, width))
		default:
			out = append(out, strconv.Itoa(i))
		}
	}
	return out, true
}

func zeroPadded(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

func padNumber(n, width int) string {
	neg := n < 0
	s := strconv.Itoa(max(n, -n))
	if pad := width - len(s) - boolInt(neg); pad > 0 {
		s = strings.Repeat("0", pad) + s
	}
	if neg {
		s = "-" + s
	}
	return s
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// value builds a field from word parts.
type value struct {
	lit, pat  strings.Builder
	glob      bool
	dynamic   bool // a part is not known: the rest is not added
	started   bool // a part was added
	home, pwd bool // the value starts with $HOME or $PWD
}

// evalParts evaluates word parts, brace expressions already expanded.
func evalParts(parts []syntax.WordPart) field {
	var v value
	for i, p := range parts {
		v.part(p, false, i == 0)
		if v.dynamic {
			break
		}
	}
	return v.field()
}

func (v *value) field() field {
	f := field{lit: v.lit.String(), pat: v.pat.String(), glob: v.glob, static: !v.dynamic}
	if (v.home && !isUnder(f.lit, "~")) || (v.pwd && !isUnder(f.lit, ".")) {
		// $HOME or $PWD followed by more than a path: $HOMEx.
		f.static = false
	}
	return f
}

// isUnder tells whether p is dir or a path under it.
func isUnder(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// quoted adds text that quotes keep from the shell's expansions.
func (v *value) quoted(s string) {
	v.started = true
	v.lit.WriteString(s)
	v.pat.WriteString(escapeMeta(s))
}

// part adds one word part; inDbl is set inside double quotes, first for
// the first part of the word.
func (v *value) part(p syntax.WordPart, inDbl, first bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		if inDbl {
			v.quoted(unescapeDbl(p.Value))
		} else {
			v.unquoted(p.Value)
		}
	case *syntax.SglQuoted:
		if p.Dollar {
			v.quoted(ansiC(p.Value))
		} else {
			v.quoted(p.Value)
		}
	case *syntax.DblQuoted:
		v.started = v.started || len(p.Parts) == 0
		for i, inner := range p.Parts {
			v.part(inner, true, first && i == 0)
			if v.dynamic {
				return
			}
		}
	case *syntax.ParamExp:
		switch name := plainParam(p); {
		case first && !v.started && name == "HOME":
			v.home = true
			v.quoted("~")
		case first && !v.started && name == "PWD":
			v.pwd = true
			v.quoted(".")
		default:
			v.dynamic = true
		}
	case *syntax.ProcSubst:
		// Expands to a path such as /dev/fd/63, which is no file.
		if first && !v.started {
			v.quoted("/dev/fd/63")
			return
		}
		v.dynamic = true
	default: // $(...), $((...)), extended globs
		v.dynamic = true
	}
}

// plainParam returns the name of a plain $name or ${name}, "" for any
// other parameter expansion.
func plainParam(p *syntax.ParamExp) string {
	if p.Param == nil || p.Flags != nil || p.Excl || p.Length || p.Width || p.IsSet ||
		p.Split != syntax.OptUnset || p.GlobSubst != syntax.OptUnset || p.RcExpand != syntax.OptUnset ||
		p.NestedParam != nil || p.Index != nil || len(p.Modifiers) > 0 || p.Slice != nil ||
		p.Repl != nil || p.Names != 0 || p.Exp != nil {
		return ""
	}
	return p.Param.Value
}

// unquoted adds unquoted text: a backslash quotes the next character, and
// *, ? and [...] make the word a glob.
func (v *value) unquoted(s string) {
	v.started = true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			v.lit.WriteByte(s[i])
			v.pat.WriteString(escapeMeta(s[i : i+1]))
		case c == '*' || c == '?' || (c == '[' && strings.IndexByte(s[i+1:], ']') >= 0):
			v.glob = true
			v.lit.WriteByte(c)
			v.pat.WriteByte(c)
		default:
			v.lit.WriteByte(c)
			v.pat.WriteString(escapeMeta(s[i : i+1]))
		}
	}
}

// unescapeDbl resolves the backslashes of text in double quotes, which
// quote only $, `, ", \ and a newline.
func unescapeDbl(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
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

// escapeMeta escapes the characters a pattern reads specially.
func escapeMeta(s string) string {
	if !strings.ContainsAny(s, `*?[\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hasMeta tells whether pattern p has a *, ? or [ that is not escaped.
func hasMeta(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// ansiC resolves the escapes of a $'...' string.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			size := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(s) && j-i-1 < size && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteString(`\` + string(c))
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if c == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
