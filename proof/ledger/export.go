package ledger

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/clumsies/clumsies/events"
)

// The export format: gzip-compressed JSON lines.
//
//	{"format":"clumsies-ledger","v":2,"workspaceId":"ws-...","from":F,"prev":"sha256:..."}
//	{"seq":F,"chain":"<16 hex>","event":<the stored bytes, verbatim>}
//	{"seq":F+1,"chain":"<16 hex>","raw":"<base64 of stored bytes that are not one line of JSON>"}
//	...
//	{"end":true,"through":L,"events":N,"digest":"sha256:..."}
//
// prev is the chain digest through F-1 (the chain's start when F is 1),
// digest the chain digest through L. Each message line carries the first
// 8 bytes of the chain digest through it (since version 2; version 1
// lines have none), so that an import names the first line changed at its
// sequence. Checkpoints travel as the events they are. The trailer shows
// that the file is whole.
const (
	formatName    = "clumsies-ledger"
	formatVersion = 2
	// lineChainLen is how many bytes of the chain digest a line carries.
	lineChainLen = 8
)

// header is the first line of an export.
type header struct {
	Format      string `json:"format"`
	V           int    `json:"v"`
	WorkspaceID string `json:"workspaceId"`
	From        uint64 `json:"from"`
	Prev        string `json:"prev"`
}

// trailer is the last line of an export.
type trailer struct {
	End     bool   `json:"end"`
	Through uint64 `json:"through"`
	Events  uint64 `json:"events"`
	Digest  string `json:"digest"`
}

// Summary describes an export or an import.
type Summary struct {
	WorkspaceID string `json:"workspaceId"`
	From        uint64 `json:"from"`
	Through     uint64 `json:"through"`
	Events      uint64 `json:"events"`
	Checkpoints int    `json:"checkpoints"`
	Digest      string `json:"digest"`
	// Problem is the first disagreement of the chain, nil if it holds.
	Problem *Problem `json:"problem,omitempty"`
}

// Export writes the ledger of workspaceID, from sequence since on (1 and
// 0: all of it), to w in the export format. The whole ledger is read, so
// that the chain digest before since is known. The chain is checked on
// the way; a broken chain does not stop the export (the stored messages
// are written as they are) but its problem is in the Summary, and an
// import of the file will refuse it. progress, if not nil, is called now
// and then with the messages read and the sequence the ledger had
// reached when Export started.
func Export(ctx context.Context, src Source, workspaceID string, since uint64, total uint64, w io.Writer, progress func(done, total uint64)) (Summary, error) {
	since = max(since, 1)
	s := Summary{WorkspaceID: workspaceID, From: since}
	zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return s, err
	}
	bw := bufio.NewWriterSize(zw, 1<<16)
	c := NewChecker(workspaceID)
	started := false
	start := func() error {
		started = true
		return writeJSON(bw, header{Format: formatName, V: formatVersion, WorkspaceID: workspaceID, From: since, Prev: c.Digest().String()})
	}
	var line []byte
	err = src.Replay(ctx, 1, func(ev events.Event) error {
		if ev.Seq >= since && !started {
			if err := start(); err != nil {
				return err
			}
		}
		c.Add(ev)
		if ev.Seq >= since {
			line = appendLine(line[:0], ev.Seq, c.Digest(), ev.Raw)
			if _, err := bw.Write(line); err != nil {
				return err
			}
			s.Events++
		}
		if progress != nil && ev.Seq%4096 == 0 {
			progress(ev.Seq, max(total, ev.Seq))
		}
		return nil
	})
	if err != nil {
		return s, fmt.Errorf("export the ledger of %s: %w", workspaceID, err)
	}
	if !started {
		if c.Through()+1 < since {
			return s, fmt.Errorf("export the ledger of %s: --since %d is past its end (seq %d)", workspaceID, since, c.Through())
		}
		if err := start(); err != nil {
			return s, err
		}
	}
	s.Problem = c.Finish()
	s.Through, s.Checkpoints, s.Digest = c.Through(), c.Checkpoints(), c.Digest().String()
	if err := writeJSON(bw, trailer{End: true, Through: s.Through, Events: s.Events, Digest: s.Digest}); err != nil {
		return s, err
	}
	if err := bw.Flush(); err != nil {
		return s, fmt.Errorf("write the export: %w", err)
	}
	if err := zw.Close(); err != nil {
		return s, fmt.Errorf("write the export: %w", err)
	}
	if progress != nil {
		progress(s.Through, max(total, s.Through))
	}
	return s, nil
}

// appendLine appends the export line of the message raw at seq, through
// which the chain is chain: the bytes verbatim when they are one line
// (they decoded, so they are JSON), else base64.
func appendLine(b []byte, seq uint64, chain events.ChainDigest, raw []byte) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendUint(b, seq, 10)
	b = append(b, `,"chain":"`...)
	b = hex.AppendEncode(b, chain[:lineChainLen])
	b = append(b, '"')
	if bytes.IndexByte(raw, '\n') < 0 {
		b = append(b, `,"event":`...)
		b = append(b, raw...)
	} else {
		b = append(b, `,"raw":"`...)
		b = base64.StdEncoding.AppendEncode(b, raw)
		b = append(b, '"')
	}
	return append(b, '}', '\n')
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
