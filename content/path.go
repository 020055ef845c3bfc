package content

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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
