package adapt

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// A TOML file gets one block between two marker comments, appended at the
// end so that it opens its own table and holds no key of the user's:
//
//	# >>> clumsies adapt <host> (remove with: clumsies adapt <host> --remove)
//	[mcp_servers.clumsies]
//	...
//	# <<< clumsies adapt <host>
//
// Removing deletes the block and the line break adapt put before it, so
// the file gets back its exact bytes.

func blockStart(host string) string {
	return fmt.Sprintf("# >>> clumsies adapt %s (remove with: clumsies adapt %s --remove)\n", host, host)
}
func blockEnd(host string) string { return fmt.Sprintf("# <<< clumsies adapt %s\n", host) }

// findBlock returns the span of host's block in b, the blank line before
// it included, or -1.
func findBlock(b []byte, host string) (int, int) {
	start := bytes.Index(b, []byte(blockStart(host)))
	if start < 0 {
		return -1, -1
	}
	endMark := []byte(blockEnd(host))
	end := bytes.Index(b[start:], endMark)
	if end < 0 {
		return -1, -1
	}
	end += start + len(endMark)
	if start > 0 && b[start-1] == '\n' {
		start-- // the line break adapt put before the block
	}
	return start, end
}

// putBlock makes b end with host's block holding body (TOML text ending in
// a newline). It refuses when b is not valid TOML, or when the user's own
// part of b already defines one of tables.
func putBlock(b []byte, host, body string, tables []string) ([]byte, bool, error) {
	block := blockStart(host) + body + blockEnd(host)
	rest := b
	if s, e := findBlock(b, host); s >= 0 {
		rest = append(append([]byte{}, b[:s]...), b[e:]...)
	}
	var parsed map[string]any
	if _, err := toml.Decode(string(rest), &parsed); err != nil {
		return nil, false, fmt.Errorf("%w; fix the file first, adapt edits only a file it can read", err)
	}
	for _, t := range tables {
		if lookupTable(parsed, t) {
			return nil, false, fmt.Errorf("it already defines [%s], which adapt did not write; remove that table (or keep it and do not adapt this host)", t)
		}
	}
	if s, e := findBlock(b, host); s >= 0 {
		cur := strings.TrimPrefix(string(b[s:e]), "\n")
		if cur == block {
			return b, false, nil
		}
		lead := string(b[s : e-len(cur)])
		out := append(append(append([]byte{}, b[:s]...), lead+block...), b[e:]...)
		return out, true, nil
	}
	out := append([]byte{}, b...)
	if len(out) > 0 {
		out = append(out, '\n')
	}
	return append(out, block...), true, nil
}

// hasBlock reports whether b holds host's block with body.
func hasBlock(b []byte, host, body string) bool {
	s, e := findBlock(b, host)
	return s >= 0 && strings.TrimPrefix(string(b[s:e]), "\n") == blockStart(host)+body+blockEnd(host)
}

// dropBlock removes host's block from b.
func dropBlock(b []byte, host string) ([]byte, bool) {
	s, e := findBlock(b, host)
	if s < 0 {
		return b, false
	}
	return append(append([]byte{}, b[:s]...), b[e:]...), true
}

// lookupTable reports whether the dotted table name is defined in m.
func lookupTable(m map[string]any, dotted string) bool {
	cur := m
	for _, k := range strings.Split(dotted, ".") {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return false
		}
		cur = next
	}
	return true
}
