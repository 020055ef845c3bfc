package front

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadFirst(t *testing.T) {
	for _, tc := range []struct {
		name, in   string
		line, read string
		lineNil    bool
	}{
		{name: "one line", in: "abc\n", line: "abc", read: "abc\n"},
		{name: "a CRLF line end is not part of the line", in: "abc\r\nxyz", line: "abc", read: "abc\r\n"},
		{name: "the end of the input without a line end", in: "abc", read: "abc", lineNil: true},
		{name: "nothing", in: "", read: "", lineNil: true},
		{name: "an empty first line", in: "\n{}\n", line: "", read: "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte per read: the line end is found however the
			// input arrives, and nothing after it is read.
			read, line, err := ReadFirst(iotest.OneByteReader(strings.NewReader(tc.in)))
			if err != nil {
				t.Fatal(err)
			}
			if string(read) != tc.read {
				t.Fatalf("read %q, want %q", read, tc.read)
			}
			if (line == nil) != tc.lineNil || string(line) != tc.line {
				t.Fatalf("line %q (nil %v), want %q", line, line == nil, tc.line)
			}
		})
	}
}

// Whatever arrives in the first read after the line is returned with it.
func TestReadFirst_KeepsWhatFollows(t *testing.T) {
	read, line, err := ReadFirst(strings.NewReader("first\nsecond\nthird"))
	if err != nil || string(line) != "first" || string(read) != "first\nsecond\nthird" {
		t.Fatalf("read %q line %q err %v", read, line, err)
	}
}

// A line longer than MaxRead is not a line the front answers: it stops
// reading there and hands all of it on.
func TestReadFirst_StopsAtMaxRead(t *testing.T) {
	in := bytes.Repeat([]byte("x"), MaxRead+100)
	read, line, err := ReadFirst(bytes.NewReader(append(in, '\n')))
	if err != nil || line != nil || len(read) != MaxRead {
		t.Fatalf("read %d bytes, line %v, err %v", len(read), line != nil, err)
	}
}

func TestReadFirst_ReadError(t *testing.T) {
	read, line, err := ReadFirst(io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(io.ErrUnexpectedEOF)))
	if err == nil || line != nil || string(read) != "ab" {
		t.Fatalf("read %q line %q err %v", read, line, err)
	}
}
