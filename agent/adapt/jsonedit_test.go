package adapt

import (
	"errors"
	"strings"
	"testing"
)

func mustDoc(tb testing.TB, s string) *doc {
	tb.Helper()
	d, err := newDoc([]byte(s))
	if err != nil {
		tb.Fatalf("parse: %v", err)
	}
	return d
}

func TestDoc_AddThenRemoveGivesBackTheBytes(t *testing.T) {
	ours := func(raw string) bool { return strings.Contains(raw, "clumsies hook") }
	group := obj{{"hooks", []any{obj{{"type", "command"}, {"command", "clumsies hook stop --host claude-code"}}}}}
	server := obj{{"command", "clumsies"}, {"args", []string{"serve"}}}
	for name, in := range map[string]string{
		"empty":  "{}",
		"tabs":   "{\n\t\"model\": \"opus\",\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}\n\t\t]\n\t}\n}\n",
		"inline": `{"mcpServers": {"other": {"command": "x"}}, "hooks": {"Stop": []}}`,
		"jsonc":  "{\n  // my settings\n  \"theme\": \"dark\", /* keep */\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]},\n    ],\n  },\n}\n",
		"nested": "{\n    \"a\": {\n        \"b\": [1, 2]\n    }\n}",
		"crlf":   "{\r\n  \"hooks\": {\r\n    \"Stop\": []\r\n  },\r\n  \"x\": 1\r\n}\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			d := mustDoc(t, in)
			if _, err := d.setMember([]string{"mcpServers", "clumsies"}, server); err != nil {
				t.Fatal(err)
			}
			if _, err := d.putElement([]string{"hooks", "Stop"}, group, ours); err != nil {
				t.Fatal(err)
			}
			if !d.hasMember([]string{"mcpServers", "clumsies"}, server) || !d.hasElement([]string{"hooks", "Stop"}, group, ours) {
				t.Fatalf("after adding, the entries are not there:\n%s", d.b)
			}
			added := string(d.b)
			// Adding again changes nothing.
			if ch, err := d.setMember([]string{"mcpServers", "clumsies"}, server); ch || err != nil {
				t.Errorf("second set: changed %v, err %v", ch, err)
			}
			if ch, err := d.putElement([]string{"hooks", "Stop"}, group, ours); ch || err != nil {
				t.Errorf("second put: changed %v, err %v", ch, err)
			}
			if string(d.b) != added {
				t.Errorf("adding twice changed the bytes")
			}
			if _, err := d.removeMember([]string{"mcpServers", "clumsies"}); err != nil {
				t.Fatal(err)
			}
			if _, err := d.dropElements([]string{"hooks", "Stop"}, ours); err != nil {
				t.Fatal(err)
			}
			want := in
			switch name { // the user's empty Stop list goes with ours: nothing tells them apart
			case "inline":
				want = `{"mcpServers": {"other": {"command": "x"}}}`
			case "crlf":
				want = "{\r\n  \"x\": 1\r\n}\r\n"
			}
			if name == "crlf" && strings.Contains(strings.ReplaceAll(added, "\r\n", ""), "\n") {
				t.Errorf("added lines do not end in \\r\\n like the file's:\n%q", added)
			}
			if string(d.b) != want {
				t.Errorf("got\n%s\nwant\n%s\n(after adding:\n%s)", d.b, want, added)
			}
		})
	}
}

func TestDoc_Layout(t *testing.T) {
	d := mustDoc(t, "{\n    \"theme\": \"dark\"\n}\n")
	if _, err := d.setMember([]string{"mcpServers", "clumsies"}, obj{{"command", "clumsies"}}); err != nil {
		t.Fatal(err)
	}
	want := "{\n    \"theme\": \"dark\",\n    \"mcpServers\": {\n        \"clumsies\": {\n            \"command\": \"clumsies\"\n        }\n    }\n}\n"
	if string(d.b) != want {
		t.Errorf("got\n%s\nwant\n%s", d.b, want)
	}
}

func TestParseJSON_Errors(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": }`:         "line 1, column 7: invalid value",
		"{\n  \"a\": 1\n": "line 3, column 1: expected , or }",
		`{"a": "x}`:       "unterminated string",
		`[1]`:             "the top level is not an object",
		`{} x`:            "after the end of the document",
		`{/* open`:        "unterminated comment",
		strings.Repeat("[", 300) + strings.Repeat("]", 300): "nested too deeply",
	} {
		_, err := newDoc([]byte(in))
		var pe *ParseError
		if err == nil || !strings.Contains(err.Error(), want) || (want != "the top level is not an object" && !errors.As(err, &pe)) {
			t.Errorf("%.20q: got %v, want %q", in, err, want)
		}
	}
}
