package rulecheck

import (
	"reflect"
	"testing"
)

func TestAdded(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		want          []Line
	}{
		{"NewFile", "", "a\nb\n", []Line{{1, "a"}, {2, "b"}}},
		{"Unchanged", "a\nb\n", "a\nb\n", nil},
		{"Appended", "a\n", "a\nb", []Line{{2, "b"}}},
		{"Changed", "a\nb\nc\n", "a\nB\nc\n", []Line{{2, "B"}}},
		{"Moved", "a\nb\n", "b\na\n", nil},
		{"Duplicated", "x\n", "x\nx\n", []Line{{2, "x"}}},
		{"CRLF", "a\r\n", "a\nb\r\n", []Line{{2, "b"}}},
		{"Deleted", "a\nb\n", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Added(tt.before, tt.after); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Added = %v, want %v", got, tt.want)
			}
		})
	}
}
