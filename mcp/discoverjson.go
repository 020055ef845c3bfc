package mcp

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// memdisc's answer is encoded by hand, into one buffer sized for it: the
// same bytes as encoding/json's (TestDiscoverJSON_SameAsEncodingJSON),
// without its reflection over fifty items and the copy out of its pooled
// buffer on every call.

// appendJSON implements jsonAppender.
func (r *discoverResult) appendJSON(dst []byte) []byte {
	dst = slices.Grow(dst, r.jsonSize())
	dst = append(dst, `{"items":`...)
	if r.Items == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range r.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = r.Items[i].appendJSON(dst)
		}
		dst = append(dst, ']')
	}
	dst = strconv.AppendInt(append(dst, `,"total":`...), int64(r.Total), 10)
	if r.InScope != nil {
		dst = strconv.AppendInt(append(dst, `,"inScope":`...), int64(*r.InScope), 10)
	}
	dst = strconv.AppendBool(append(dst, `,"truncated":`...), r.Truncated)
	dst = appendStringMember(dst, `,"nextCursor":`, r.NextCursor, true)
	dst = appendStringMember(dst, `,"hint":`, r.Hint, true)
	return append(dst, '}')
}

// jsonSize is about how many bytes appendJSON writes, strings that need
// no escaping assumed (one that does grows the buffer once).
func (r *discoverResult) jsonSize() int {
	n := 80 + len(r.NextCursor) + len(r.Hint)
	for i := range r.Items {
		it := &r.Items[i]
		// Each member's name, quotes and comma, and its value.
		n += 50 + len(it.ID) + len(it.Kind) + len(it.Path) + len(it.Name) + len(it.Hash)
		for _, opt := range [...]struct {
			name  int
			value string
		}{{11, it.Group}, {17, it.Description}, {17, it.DraftStatus}, {17, it.DraftReason}, {12, it.Source}, {12, it.Shadows}} {
			if opt.value != "" {
				n += opt.name + len(opt.value)
			}
		}
		if it.HasDraft {
			n += 16
		}
		if it.Revision != 0 {
			n += 32
		}
		for _, list := range [...]struct {
			name   int
			values []string
		}{{11, it.Paths}, {13, it.Matched}} {
			if len(list.values) > 0 {
				n += list.name
			}
			for _, v := range list.values {
				n += len(v) + 3
			}
		}
	}
	return n
}

func (it *discoverItem) appendJSON(dst []byte) []byte {
	dst = appendJSONText(append(dst, `{"id":`...), it.ID)
	dst = appendJSONText(append(dst, `,"kind":`...), string(it.Kind))
	dst = appendJSONText(append(dst, `,"path":`...), it.Path)
	dst = appendJSONText(append(dst, `,"name":`...), it.Name)
	dst = appendStringMember(dst, `,"group":`, it.Group, true)
	dst = appendJSONText(append(dst, `,"hash":`...), it.Hash)
	dst = appendStringMember(dst, `,"description":`, it.Description, true)
	if it.HasDraft {
		dst = append(dst, `,"hasDraft":true`...)
	}
	dst = appendStringMember(dst, `,"draftStatus":`, it.DraftStatus, true)
	dst = appendStringMember(dst, `,"draftReason":`, it.DraftReason, true)
	dst = appendStringsMember(dst, `,"paths":`, it.Paths)
	dst = appendStringsMember(dst, `,"matched":`, it.Matched)
	dst = appendStringMember(dst, `,"source":`, it.Source, true)
	if it.Revision != 0 {
		dst = strconv.AppendUint(append(dst, `,"revision":`...), it.Revision, 10)
	}
	dst = appendStringMember(dst, `,"shadows":`, it.Shadows, true)
	return append(dst, '}')
}

// appendStringMember appends head and s as a JSON string, or nothing when
// s is empty and omitEmpty is set.
func appendStringMember(dst []byte, head, s string, omitEmpty bool) []byte {
	if s == "" && omitEmpty {
		return dst
	}
	return appendJSONText(append(dst, head...), s)
}

// appendStringsMember appends head and values as a JSON array of strings,
// or nothing when there are none (omitempty).
func appendStringsMember(dst []byte, head string, values []string) []byte {
	if len(values) == 0 {
		return dst
	}
	dst = append(dst, head...)
	for i, v := range values {
		if i == 0 {
			dst = append(dst, '[')
		} else {
			dst = append(dst, ',')
		}
		dst = appendJSONText(dst, v)
	}
	return append(dst, ']')
}

// appendJSONText appends s as a JSON string as encoding/json.Marshal writes
// it: quotes, backslashes and control characters escaped (\b, \f, \n, \r
// and \t by name), <, > and & escaped for HTML, U+2028 and U+2029 escaped,
// and each byte of invalid UTF-8 written as \ufffd.
func appendJSONText(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigit[b>>4], hexDigit[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigit[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}
