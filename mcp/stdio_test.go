package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// stdio is a session over ServeStdio through pipes, as a host drives it.
type stdio struct {
	tb    testing.TB
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func newStdio(tb testing.TB, e *env) *stdio {
	tb.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdio{tb: tb, in: inW, lines: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		s.done <- e.srv.ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	tb.Cleanup(func() { inW.Close() })
	return s
}

// send writes one line (a line end is added).
func (s *stdio) send(line string) {
	s.tb.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.tb.Fatalf("write stdin: %v", err)
	}
}

// next returns the next line the server writes.
func (s *stdio) next() string {
	s.tb.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.tb.Fatal("the server closed stdout")
		}
		return l
	case <-time.After(time.Minute):
		s.tb.Fatal("no answer within a minute")
	}
	return ""
}

// rpcAnswer is a JSON-RPC response as read back.
type rpcAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (s *stdio) answer() rpcAnswer {
	s.tb.Helper()
	l := s.next()
	var a rpcAnswer
	if err := json.Unmarshal([]byte(l), &a); err != nil || a.JSONRPC != "2.0" || !utf8.ValidString(l) {
		s.tb.Fatalf("answer %q is not a JSON-RPC 2.0 response (%v)", l, err)
	}
	return a
}

// initialize runs the MCP handshake with id 0.
func (s *stdio) initialize() {
	s.tb.Helper()
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if a := s.answer(); a.Error != nil || string(a.ID) != "0" {
		s.tb.Fatalf("initialize: got %+v", a)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func TestStdio_BadLines(t *testing.T) {
	e := newEnv(t, envOptions{})
	s := newStdio(t, e)
	deep := `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`
	long := `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"a":"` + strings.Repeat("x", MaxLine) + `"}}`
	// The id after a deep value, and after 40 KiB of params: still in the
	// prefix that is read for it.
	deepThenID := `{"jsonrpc":"2.0","method":"ping","params":{"a":` + strings.Repeat(`[{"id":1},`, 1000) + "0" + strings.Repeat("]", 1000) + `},"id":"late"}`
	longThenID := `{"jsonrpc":"2.0","method":"ping","params":{"pad":"` + strings.Repeat("x", 40<<10) + `"},"id":"late","more":"` + strings.Repeat("y", MaxLine) + `"}`
	idPastPrefix := `{"jsonrpc":"2.0","method":"ping","params":{"a":"` + strings.Repeat("x", MaxLine) + `"},"id":10}`
	badUTF8 := "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"ping\"}"
	for _, tc := range []struct {
		name, line, id string
		code           int64
	}{
		{"NotJSON", `{not json`, "null", -32700},
		{"Truncated", `{"jsonrpc":"2.0","id":1,"method":"ping"`, "null", -32700},
		{"Batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "null", -32600},
		{"EmptyBatch", `[]`, "null", -32600},
		{"Number", `42`, "null", -32600},
		{"Null", `null`, "null", -32600},
		{"ObjectID", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", -32600},
		{"BoolID", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null", -32600},
		{"Version1", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, "7", -32600},
		{"NoVersion", `{"id":"v","method":"ping"}`, `"v"`, -32600},
		{"MethodNotString", `{"jsonrpc":"2.0","id":10,"method":5}`, "10", -32600},
		{"ScalarParams", `{"jsonrpc":"2.0","id":11,"method":"ping","params":3}`, "11", -32600},
		{"Deep", deep, "8", -32600},
		{"DeepIDLast", deepThenID, `"late"`, -32600},
		{"DeepResponse", `{"jsonrpc":"2.0","id":14,"result":{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`, "null", -32600},
		{"OverLong", long, "9", -32600},
		{"OverLongIDLast", longThenID, `"late"`, -32600},
		{"OverLongIDPastThePrefix", idPastPrefix, "null", -32600},
		{"OverLongObjectID", `{"id":{"a":1},"x":"` + strings.Repeat("x", MaxLine) + `"}`, "null", -32600},
		{"IDNotUTF8", badUTF8, "null", -32600},
		{"OverLongIDNotUTF8", strings.TrimSuffix(badUTF8, "}") + `,"x":"` + strings.Repeat("x", MaxLine) + `"}`, "null", -32600},
		{"NoMethodNoResult", `{"jsonrpc":"2.0","id":12}`, "", 0},
		{"BeforeInitialize", `{"jsonrpc":"2.0","id":"early","method":"tools/list"}`, `"early"`, -32600},
		{"UnknownBeforeInitialize", `{"jsonrpc":"2.0","id":13,"method":"no/such"}`, "13", -32600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.send(tc.line)
			if tc.code != 0 {
				a := s.answer()
				if a.Error == nil || a.Error.Code != tc.code || string(a.ID) != tc.id {
					t.Fatalf("got %s, want error %d with id %s", mustJSON(t, a), tc.code, tc.id)
				}
			}
			// The session goes on: a ping is still answered, in order.
			s.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
			if a := s.answer(); a.Error != nil || string(a.ID) != `"after"` {
				t.Fatalf("ping after %s: got %s, want a result for id \"after\"", tc.name, mustJSON(t, a))
			}
		})
	}
}

func TestStdio_IDsEchoed(t *testing.T) {
	e := newEnv(t, envOptions{})
	s := newStdio(t, e)
	// Before initialize only ping is allowed, whatever its id.
	s.send(`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`)
	if a := s.answer(); a.Error != nil || string(a.ID) != "1.5" {
		t.Fatalf("ping id 1.5: got %s", mustJSON(t, a))
	}
	s.initialize()
	for _, id := range []string{`1.5`, `12345678901234567890`, `-9223372036854775809`, `1e400`, `0.000001`, `"x"`, `""`, `"1"`, `null`, `"\u00e9\ud83d\ude00"`} {
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"memsetup","arguments":{"session_id":"ids"}}}`)
		a := s.answer()
		if a.Error != nil || string(a.ID) != id {
			t.Fatalf("tools/call with id %s: got %s, want a result with the id as sent", id, mustJSON(t, a))
		}
	}
	// Two calls in flight with the same id are both answered with it.
	s.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`)
	for range 2 {
		if a := s.answer(); a.Error != nil || string(a.ID) != "5" {
			t.Fatalf("duplicate id 5: got %s", mustJSON(t, a))
		}
	}
	// An error the SDK gives without a code gets one.
	s.send(`{"jsonrpc":"2.0","id":"u","method":"tools/call","params":{"name":"nope","arguments":{}}}`)
	if a := s.answer(); a.Error == nil || a.Error.Code == 0 || string(a.ID) != `"u"` {
		t.Fatalf("unknown tool: got %s, want a coded error", mustJSON(t, a))
	}
	s.in.Close()
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("ServeStdio after stdin closed: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("ServeStdio still running a minute after stdin closed")
	}
}

func mustJSON(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}
