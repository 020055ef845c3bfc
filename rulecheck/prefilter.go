package rulecheck

import (
	"regexp/syntax"
	"strings"
)

// A pattern's required literal is a piece of text every match holds: a
// text without it cannot match, and strings.Contains says so far faster
// than a regular expression that has no literal prefix to look for (Go's
// engine scans for a literal prefix itself, not for a literal inside).

// literal is a required literal: the text, and whether it matches
// case-insensitively (then the text is lower case ASCII).
type literal struct {
	text string
	fold bool
}

// requiredLiteral returns the longest literal every match of pattern p
// (as content.CompilePattern reads it) holds; "" when none is known. A
// case-insensitive literal is kept only when it is ASCII, so that a
// lowered ASCII text can be searched for it.
func requiredLiteral(p string) literal {
	re, err := syntax.Parse("(?m:"+p+")", syntax.Perl)
	if err != nil {
		return literal{}
	}
	return longestRequired(re.Simplify())
}

func longestRequired(re *syntax.Regexp) literal {
	switch re.Op {
	case syntax.OpLiteral:
		l := literal{text: string(re.Rune), fold: re.Flags&syntax.FoldCase != 0}
		if l.fold {
			if !isASCII(l.text) {
				return literal{}
			}
			l.text = strings.ToLower(l.text)
		}
		return l
	case syntax.OpCapture, syntax.OpPlus:
		return longestRequired(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return longestRequired(re.Sub[0])
		}
	case syntax.OpConcat:
		var best literal
		for _, sub := range re.Sub {
			if l := longestRequired(sub); len(l.text) > len(best.text) {
				best = l
			}
		}
		return best
	}
	return literal{}
}

// absent reports whether text surely holds no match of a pattern with
// required literal l; lower is text lowered when text is ASCII, "" when
// it is not (a case-insensitive literal then tells nothing: Unicode
// folds more than ASCII does).
func (l literal) absent(text, lower string, ascii bool) bool {
	switch {
	case l.text == "":
		return false
	case !l.fold:
		return !strings.Contains(text, l.text)
	case ascii:
		return !strings.Contains(lower, l.text)
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
