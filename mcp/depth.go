package mcp

// depth returns the deepest nesting of arrays and objects in valid JSON:
// the stdio transport refuses a message nested deeper than MaxDepth with
// it, before the SDK decodes the message.
func depth(b []byte) int {
	d, max, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			if d > max {
				max = d
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return max
}
