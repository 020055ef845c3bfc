package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// leanAnswer is a memdisc answer of n items like the lean benchmark's.
func leanAnswer(n int) *discoverResult {
	r := &discoverResult{Total: n}
	for i := range n {
		r.Items = append(r.Items, discoverItem{ID: fmt.Sprintf("p-%032x", i), Kind: "rule", Path: fmt.Sprintf("g%02d/RULE%04d.md", i%100, i*20),
			Name: fmt.Sprintf("RULE%04d", i*20), Group: fmt.Sprintf("g%02d", i%100), Hash: fmt.Sprintf("sha256:%064x", i),
			Description: fmt.Sprintf("How the team handles concern number %d in group %d (audited).", i*20, i%100)})
	}
	return r
}

// stdioConn is a stdio connection writing to out, with one call in
// flight (its id returned): the way a tool's answer reaches the client.
func stdioConn(out io.Writer) (*lineConn, *encodedAnswers, jsonrpc.ID) {
	a := newEncodedAnswers()
	c := &lineConn{out: out, answers: a, wire: map[int64]json.RawMessage{}, byWire: map[string]int64{}, initID: -1}
	return c, a, c.track(json.RawMessage(`"call-1"`), "tools/call")
}

// writeOverStdio encodes result as a tool's answer over stdio and writes
// it on c as call id's answer, as the SDK hands it to the transport.
func writeOverStdio(tb testing.TB, c *lineConn, a *encodedAnswers, id jsonrpc.ID, result any, version string) {
	tb.Helper()
	ctx := withEncodedAnswers(context.Background(), a)
	ans, err := encodeAnswer(ctx, result, version)
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.Write(ctx, &jsonrpc.Response{ID: id, Result: sdkEncoding(tb, successResult(ctx, ans))}); err != nil {
		tb.Fatal(err)
	}
}

// TestAnswer_PooledSameBytes checks that answers encoded into pooled
// buffers and written over stdio are the lines the SDK would write for
// them, one after another with the buffers reused, at a protocol with a
// listing for the model and at one with the JSON copy.
func TestAnswer_PooledSameBytes(t *testing.T) {
	results := []any{leanAnswer(50), leanAnswer(1), map[string]any{"a": "b <&>"}, leanAnswer(200), leanAnswer(0)}
	for _, s := range []string{"plain", `say "hi" \ <a href='x'>&amp;</a> é 😀 ` + "\u2028\t\n\x01 \xff"} {
		for _, r := range discoverSamples(s) {
			results = append(results, &r)
		}
	}
	for _, version := range []string{"2025-06-18", "2025-03-26"} {
		for round := range 3 {
			for i, r := range results {
				var out bytes.Buffer
				c, a, id := stdioConn(&out)
				writeOverStdio(t, c, a, id, r, version)
				plain, err := encodeAnswer(context.Background(), r, version)
				if err != nil {
					t.Fatal(err)
				}
				if plain.buf != nil {
					t.Fatalf("result %d: an answer outside stdio was put in a pooled buffer", i)
				}
				want := string(appendResult(json.RawMessage(`"call-1"`), sdkEncoding(t, successResult(context.Background(), plain)))) + "\n"
				if got := out.String(); got != want {
					t.Fatalf("protocol %s, round %d, result %d:\n got %s\nwant %s", version, round, i, got, want)
				}
			}
		}
	}
}

// TestAnswer_WrittenWithoutCopies checks that a 50-item memdisc answer
// written over stdio leaves less garbage than half its line: it is
// encoded into a pooled buffer and its line is written from another,
// with no copy of either (they were five copies: the JSON, the listing,
// the listing escaped, the result, the line).
func TestAnswer_WrittenWithoutCopies(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops what it is given at random")
	}
	var out bytes.Buffer
	c, a, id := stdioConn(&out)
	r := leanAnswer(50)
	writeOverStdio(t, c, a, id, r, "2025-06-18")
	line := out.Len()
	c, a, _ = stdioConn(io.Discard)
	const n = 200
	ids := make([]jsonrpc.ID, n)
	for i := range ids {
		ids[i] = c.track(json.RawMessage(fmt.Sprint(i)), "tools/call")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, id := range ids {
		writeOverStdio(t, c, a, id, r, "2025-06-18")
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > uint64(line/2) {
		t.Fatalf("writing a %d-byte answer allocated %d bytes, want at most half", line, per)
	}
}

// TestStdio_ConcurrentAnswers makes memdiscs of different pages at once
// over one stdio connection, so that pooled buffers and answers kept are
// handed between calls in flight, and checks every answer against the same
// call in memory.
func TestStdio_ConcurrentAnswers(t *testing.T) {
	e := newEnv(t, envOptions{})
	for i := range 12 {
		e.publish(fmt.Sprintf("rules/g%d/RULE%02d.md", i%3, i), fmt.Sprintf("# Rule %d\n\nConcern <%d> & \"care\".\n", i, i))
	}
	mem := e.connect()
	setup(t, mem, "mem")
	cs := stdioClient(t, e, "2025-06-18")
	ctx := context.Background()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memsetup", Arguments: map[string]any{"session_id": "concurrent", "knownHashes": map[string]any{"META_PROMPT.md": ""}}}); err != nil {
		t.Fatal(err)
	}
	want := map[int]map[string]any{}
	for limit := 1; limit <= 6; limit++ {
		want[limit] = mustOK(t, mem, "memdisc", map[string]any{"limit": limit})
	}
	errs := make(chan error, 6)
	for limit := 1; limit <= 6; limit++ {
		go func() {
			for range 15 {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memdisc", Arguments: map[string]any{"limit": limit}})
				if err != nil {
					errs <- err
					return
				}
				var got map[string]any
				b, _ := json.Marshal(res.StructuredContent)
				if err := json.Unmarshal(b, &got); err != nil || !reflect.DeepEqual(got, want[limit]) {
					errs <- fmt.Errorf("memdisc limit %d: got %s, want %v (%v)", limit, b, want[limit], err)
					return
				}
				if text := res.Content[0].(*mcp.TextContent).Text; text != listingOf(t, got) {
					errs <- fmt.Errorf("memdisc limit %d: text %q is not the listing of its answer", limit, text)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 6 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
