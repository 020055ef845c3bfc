package mcp

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/front"
	"github.com/clumsies/clumsies/mcp/frame"
)

// resumed serves a session that another process began, and returns the
// lines the server writes.
func resumed(tb testing.TB, e *env, r Resumed, then ...string) (lines chan string, in *io.PipeWriter) {
	tb.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	lines = make(chan string, 64)
	go func() {
		e.srv.ResumeStdio(context.Background(), inR, outW, r)
		outW.Close()
	}()
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	tb.Cleanup(func() { inW.Close() })
	for _, l := range then {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			tb.Fatal(err)
		}
	}
	return lines, inW
}

func nextLine(tb testing.TB, lines chan string) string {
	tb.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			tb.Fatal("the server closed stdout")
		}
		return l
	case <-time.After(time.Minute):
		tb.Fatal("no answer within a minute")
	}
	return ""
}

// The front answers a session's opening request with what this server
// would answer, for every request it answers: a server resumed after it
// finds its own answer the same (nothing logged) and does not write it
// again; the next request is answered as usual.
func TestResumeStdio_TheFrontAnswersAsTheServer(t *testing.T) {
	const (
		tools    = `{"jsonrpc":"2.0","id":"next","method":"tools/list","params":{}}`
		toolsNew = `{"jsonrpc":"2.0","id":"next","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	)
	var opening []string
	for _, v := range front.Versions {
		opening = append(opening, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+v+`","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"c","version":"1"}}}`)
	}
	opening = append(opening,
		`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":12345678901234567890,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}}}}}`,
	)
	for _, readOnly := range []bool{false, true} {
		for _, req := range opening {
			e := newEnv(t, envOptions{readOnly: readOnly})
			answer, ok := front.Answer([]byte(req), front.Server{Version: "test", Instructions: frame.Instructions("", readOnly)})
			if !ok {
				t.Fatalf("the front does not answer %s", req)
			}
			// A session of 2026-07-28 has no initialized notification,
			// and every request carries the protocol in _meta.
			rest, next := `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n", tools
			if strings.Contains(req, "discover") {
				rest, next = "", toolsNew
			}
			lines, _ := resumed(t, e, Resumed{Request: []byte(req), Answer: answer, Rest: []byte(rest)}, next)
			if got := nextLine(t, lines); !strings.Contains(got, `"id":"next"`) || !strings.Contains(got, "memload") {
				t.Fatalf("after %s the server wrote %.200s, want the tools", req, got)
			}
			if logs := e.logs.String(); strings.Contains(logs, "differently") {
				t.Fatalf("read-only %v, %s: the server's answer differs from the front's:\n%s", readOnly, req, logs)
			}
		}
	}
}

// An answer that differs from the server's (a front from another build) is
// said on the log; the client, which has an answer, gets no second one.
func TestResumeStdio_ADifferentAnswerIsLogged(t *testing.T) {
	e := newEnv(t, envOptions{})
	req := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	answer, _ := front.Answer([]byte(req), front.Server{Version: "another-build", Instructions: frame.Summary})
	lines, _ := resumed(t, e, Resumed{Request: []byte(req), Answer: answer},
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if got := nextLine(t, lines); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("got %s, want the ping's answer alone", got)
	}
	if logs := e.logs.String(); !strings.Contains(logs, "differently") || !strings.Contains(logs, "another-build") {
		t.Fatalf("no warning logged:\n%s", logs)
	}
}

// Bytes the front read and did not answer are the session's first: the
// server answers them as if it had read them itself.
func TestResumeStdio_WhatWasNotAnsweredIsServed(t *testing.T) {
	e := newEnv(t, envOptions{})
	rest := "not json\n" + `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n"
	lines, _ := resumed(t, e, Resumed{Rest: []byte(rest)})
	if got := nextLine(t, lines); !strings.Contains(got, `"code":-32700`) {
		t.Fatalf("got %s, want a parse error", got)
	}
	if got := nextLine(t, lines); !strings.Contains(got, `"id":7`) || !strings.Contains(got, `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("got %.300s, want initialize negotiated down", got)
	}
}
