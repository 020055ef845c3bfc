package telemetry

import "strings"

// attr is an attribute of a span, a data point or the resource: a key
// and a string, a bool or a list of strings, the kinds this package sets.
type attr struct {
	key  string
	kind attrKind
	str  string
	b    bool
	strs []string
}

// attrKind is the kind of an attr's value.
type attrKind uint8

const (
	kindString attrKind = iota
	kindBool
	kindStrings
)

func stringAttr(key, v string) attr           { return attr{key: key, kind: kindString, str: v} }
func boolAttr(key string, v bool) attr        { return attr{key: key, kind: kindBool, b: v} }
func stringsAttr(key string, v []string) attr { return attr{key: key, kind: kindStrings, strs: v} }

// setKey is the key of a set of string attributes in an instrument's
// series: the keys and values in their order, separated by bytes no
// UTF-8 text holds. The instruments always give a set's attributes in
// the same order.
func setKey(attrs []attr) string {
	var b strings.Builder
	for _, a := range attrs {
		b.WriteString(a.key)
		b.WriteByte(0xfe)
		b.WriteString(a.str)
		b.WriteByte(0xff)
	}
	return b.String()
}
