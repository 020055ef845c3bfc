package content

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxPathLen is the longest path, in bytes and counting the ".md" extension,
// that CleanPath accepts.
const MaxPathLen = 512

// CleanPath checks a content path an agent proposed for a draft and returns
// it cleaned: surrounding white space trimmed and ".md" appended when the
// path does not already end in ".md". Otherwise the path is kept as given.
//
// It returns an error wrapping ErrUnsafePath, naming the broken rule, when
// the path is empty, is not valid UTF-8, holds a NUL byte, a control
// character or a backslash, is absolute, has an empty, "." or ".." segment
// or a segment starting with ".", or is longer than MaxPathLen bytes.
//
// It also refuses paths that could pass for another path: U+FFFD (what a
// JSON decoder makes of invalid UTF-8 and lone surrogates, so that two
// different inputs would land on one path), invisible formatting characters
// (bidi overrides and isolates, zero-width characters, soft hyphens, byte
// order marks), spaces other than U+0020, unprintable characters, text
// that is not in Unicode NFKC form (fullwidth letters, ligatures, combining
// sequences that have a precomposed form), and words (runs of letters) that
// mix the Latin, Greek, Cyrillic, Armenian or Cherokee scripts ("pаypal"
// with a Cyrillic а).
//
// A cleaned path is accepted by CleanPath again unchanged. Whether the path
// may name the meta prompt is the caller's call (see IsMetaPrompt).
func CleanPath(p string) (string, error) {
	clean, reason := cleanPath(p)
	if reason != "" {
		return "", fmt.Errorf("%w %s: %s", ErrUnsafePath, strconv.Quote(p), reason)
	}
	return clean, nil
}

// cleanPath does the work of CleanPath and returns the reason a path is
// unsafe instead of an error, so Scan can word its own error.
func cleanPath(p string) (clean, reason string) {
	p = strings.TrimSpace(p)
	switch {
	case p == "":
		return "", "empty"
	case !utf8.ValidString(p):
		return "", "not valid UTF-8"
	case strings.IndexByte(p, 0) >= 0:
		return "", "NUL byte"
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return "", "control character"
	case strings.IndexByte(p, '\\') >= 0:
		return "", "backslash"
	case p[0] == '/':
		return "", "absolute path"
	}
	if reason := lookAlike(p); reason != "" {
		return "", reason
	}
	for seg := range strings.SplitSeq(p, "/") {
		switch {
		case seg == "":
			return "", "empty segment"
		case seg == "." || seg == "..":
			return "", strconv.Quote(seg) + " segment"
		case seg[0] == '.':
			return "", `segment starts with "."`
		}
	}
	if !strings.HasSuffix(p, mdExt) {
		p += mdExt
	}
	if len(p) > MaxPathLen {
		return "", fmt.Sprintf("longer than %d bytes", MaxPathLen)
	}
	return p, ""
}

// IsMetaPrompt reports whether p names the meta prompt: its base name,
// ignoring case, surrounding white space and any trailing ".md" extensions,
// is META_PROMPT. The artifact tool uses it to keep META_PROMPT.md out of
// the rule and context namespaces; Scan rejects such files there too.
func IsMetaPrompt(p string) bool {
	base := strings.TrimSpace(p)
	base = base[strings.LastIndexByte(base, '/')+1:]
	for len(base) >= len(mdExt) && strings.EqualFold(base[len(base)-len(mdExt):], mdExt) {
		base = base[:len(base)-len(mdExt)]
	}
	return strings.EqualFold(base, NameOf(MetaPromptPath))
}

// lookAlike returns why a valid UTF-8 path could pass for another one, or
// "".
func lookAlike(p string) string {
	for _, r := range p {
		switch {
		case r == utf8.RuneError:
			return "replacement character U+FFFD (invalid UTF-8 or a lone surrogate)"
		case unicode.Is(unicode.Cf, r):
			return fmt.Sprintf("invisible formatting character %U", r)
		case unicode.IsSpace(r) && r != ' ':
			return fmt.Sprintf("space character %U; use a plain space", r)
		case !unicode.IsPrint(r) && r != ' ':
			return fmt.Sprintf("unprintable character %U", r)
		}
	}
	if !norm.NFKC.IsNormalString(p) {
		return "not in Unicode NFKC form (look-alike characters); write it with plain characters"
	}
	for word := range strings.FieldsFuncSeq(p, func(r rune) bool { return !unicode.In(r, unicode.L, unicode.M) }) {
		if a, b := mixedScripts(word); a != "" {
			return fmt.Sprintf("word %s mixes %s and %s letters", strconv.Quote(word), a, b)
		}
	}
	return ""
}

// confusable are scripts whose letters pass for each other's.
var confusable = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin},
	{"Greek", unicode.Greek},
	{"Cyrillic", unicode.Cyrillic},
	{"Armenian", unicode.Armenian},
	{"Cherokee", unicode.Cherokee},
}

// mixedScripts returns two of the confusable scripts that word mixes, or
// "", "".
func mixedScripts(word string) (string, string) {
	seen := ""
	for _, r := range word {
		for _, s := range confusable {
			if !unicode.Is(s.table, r) {
				continue
			}
			if seen == "" {
				seen = s.name
			} else if seen != s.name {
				return seen, s.name
			}
		}
	}
	return "", ""
}
