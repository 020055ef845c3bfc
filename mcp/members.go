package mcp

import (
	"encoding/json"
	"fmt"
)

// eachMember calls fn with the name and the raw value of every member of
// the JSON object obj, in order, and stops at fn's first error. obj must be
// valid JSON (json.Valid) whose first value is an object: eachMember walks
// its structure in one pass and checks nothing else. A value is the exact
// bytes of the member's value (no surrounding white space), as
// json.Unmarshal into a json.RawMessage gives it.
func eachMember(obj []byte, fn func(name string, value json.RawMessage) error) error {
	return eachRawMember(obj, func(lit, value []byte) error {
		name, err := unquote(lit)
		if err != nil {
			return fmt.Errorf("each member: %w", err)
		}
		return fn(name, json.RawMessage(value))
	})
}

// eachRawMember is eachMember with every name as its string literal, as
// written (quotes and escapes included), which it does not copy.
func eachRawMember(obj []byte, fn func(lit, value []byte) error) error {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return fmt.Errorf("each member: not an object")
	}
	i = skipSpace(obj, i+1)
	for i < len(obj) && obj[i] != '}' {
		end := skipString(obj, i)
		lit := obj[i:end]
		i = skipSpace(obj, end) + 1 // the colon
		i = skipSpace(obj, i)
		end = skipValue(obj, i)
		if err := fn(lit, obj[i:end]); err != nil {
			return err
		}
		i = skipSpace(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	return nil
}

// eachElement calls fn with the raw bytes of every element of the JSON
// array arr, in order. arr must be valid JSON whose first value is an
// array.
func eachElement(arr []byte, fn func(value json.RawMessage)) {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	i = skipSpace(arr, i+1)
	for i < len(arr) && arr[i] != ']' {
		end := skipValue(arr, i)
		fn(json.RawMessage(arr[i:end]))
		i = skipSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
}

// unquoteValue returns the string a valid JSON value stands for, or an
// error when it is not a string.
func unquoteValue(v []byte) (string, error) {
	v = v[skipSpace(v, 0):]
	if len(v) < 2 || v[0] != '"' {
		return "", fmt.Errorf("not a JSON string")
	}
	return unquote(v)
}

// unquote returns the string a JSON string literal stands for.
func unquote(lit []byte) (string, error) {
	plain := true
	for _, c := range lit[1 : len(lit)-1] {
		if c == '\\' || c < 0x20 || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return string(lit[1 : len(lit)-1]), nil
	}
	var s string
	if err := json.Unmarshal(lit, &s); err != nil {
		return "", err
	}
	return s, nil
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string literal that starts
// at i.
func skipString(b []byte, i int) int {
	end, _ := stringEnd(b, i)
	return end
}

// skipValue returns the index just past the JSON value that starts at i.
func skipValue(b []byte, i int) int {
	end, _ := valueEnd(b, i)
	return end
}

// stringEnd returns the index just past the string literal that starts at
// i; ok is false when b ends before the string does.
func stringEnd(b []byte, i int) (end int, ok bool) {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return len(b), false
}

// valueEnd returns the index just past the JSON value that starts at i;
// ok is false when b ends before the value does (a number or a literal
// ends only where something follows it). The value is not checked, only
// delimited: an array or object by its brackets, counted, outside
// strings.
func valueEnd(b []byte, i int) (end int, ok bool) {
	if i >= len(b) {
		return len(b), false
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				if i, ok = stringEnd(b, i); !ok {
					return len(b), false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return len(b), false
	}
	for ; i < len(b); i++ { // a number, true, false or null
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i, true
		}
	}
	return len(b), false
}
