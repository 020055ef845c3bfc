package main

import (
	"bytes"
	"flag"
	"io"
	"log/slog"
	"os"

	"github.com/clumsies/clumsies/internal/buildinfo"
	"github.com/clumsies/clumsies/internal/front"
	"github.com/clumsies/clumsies/mcp/frame"
	"github.com/clumsies/clumsies/workspace"
)

// stdioSession is a `serve` over stdio the front can begin: its
// instructions are known before the core starts.
type stdioSession struct {
	srv front.Server
}

// stdioServe returns the session args start when they are `serve` over
// stdio with only flags the front can check as the core does (--workspace,
// --read-only, --sync, --log-level, --checkpoint-every) on a workspace it
// can read. Anything else (another command, --http, a mistake in the
// flags, a workspace that cannot be opened) is left to the core, which
// says what is wrong.
func stdioServe(args []string) (stdioSession, bool) {
	if !canExec || len(args) == 0 || args[0] != "serve" {
		return stdioSession{}, false
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("workspace", "", "")
	logLevel := fs.String("log-level", "warn", "")
	syncMode := fs.String("sync", "always", "")
	readOnly := fs.Bool("read-only", false, "")
	every := fs.Int("checkpoint-every", 0, "")
	if fs.Parse(args[1:]) != nil || fs.NArg() > 0 || *every < 0 {
		return stdioSession{}, false
	}
	var level slog.Level
	if level.UnmarshalText([]byte(*logLevel)) != nil {
		return stdioSession{}, false
	}
	switch *syncMode {
	case "always", "interval", "":
	default:
		return stdioSession{}, false
	}
	if *dir != "" {
		if fi, err := os.Stat(*dir); err != nil || !fi.IsDir() {
			return stdioSession{}, false
		}
	}
	root, err := workspace.Resolve(*dir)
	if err != nil {
		return stdioSession{}, false
	}
	ws, err := workspace.Open(root)
	if err != nil {
		return stdioSession{}, false
	}
	body, err := frame.Read(ws.ContentRoot())
	if err != nil {
		return stdioSession{}, false
	}
	return stdioSession{srv: front.Server{
		Version:      buildinfo.Read(ldVersion).Version,
		Instructions: frame.Instructions(body, *readOnly || ws.Config.ReadOnly),
	}}, true
}

// maxState bounds the handover in the environment (one variable may hold
// 128 KiB on Linux).
const maxState = 120 << 10

// begin reads the client's first line and answers it when it is an
// opening the core would answer the same way (front.Answer). It returns
// the handover for the core: what it read and answered, "" when it read
// nothing. A terminal on stdin is left alone (the core greets the person
// there), and so is a client that sends nothing at once (see firstWait).
func (s stdioSession) begin(in, out *os.File) string {
	if fi, err := in.Stat(); err != nil || fi.Mode()&os.ModeCharDevice != 0 {
		return ""
	}
	read, line, _ := front.ReadFirst(input(in))
	if len(read) == 0 {
		return "" // nothing came in time (or the input ended): the core starts fresh
	}
	if v, ok := s.answer(line, read, out); ok {
		return v
	}
	return front.State{Rest: read}.Encode()
}

// answer writes the answer to line, the first line of read, when the front
// may give it and the handover that says so fits the environment.
func (s stdioSession) answer(line, read []byte, out *os.File) (string, bool) {
	if line == nil {
		return "", false
	}
	answer, ok := front.Answer(line, s.srv)
	if !ok {
		return "", false
	}
	v := front.State{Request: line, Answer: answer, Rest: read[bytes.IndexByte(read, '\n')+1:]}.Encode()
	if len(v) > maxState {
		return "", false
	}
	if _, err := out.Write(append(answer, '\n')); err != nil {
		return "", false
	}
	return v, true
}
