package ledger_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/proof/ledger"
)

// TestExportImport exports a ledger of 100k events and imports it into a
// fresh workspace: the same bytes at the same sequences, the same chain
// digest, the same read models. An export of what came since then
// carries the copy forward.
func TestExportImport(t *testing.T) {
	n := 100_000
	if raceEnabled {
		n = 10_000
	}
	src := openLog(t)
	grow(t, src, n, 1000)
	var file bytes.Buffer
	s, err := ledger.Export(ctx(t), src, ws, 1, 0, &file, nil)
	if err != nil {
		t.Fatal(err)
	}
	through := uint64(n + n/1000)
	if s.Problem != nil || s.Events != through || s.Through != through || s.Checkpoints != n/1000 {
		t.Fatalf("export: got %+v, want %d events, %d checkpoints, no problem", s, through, n/1000)
	}
	t.Logf("export of %d events: %d bytes", s.Events, file.Len())

	dst := openLog(t)
	got, err := ledger.Import(ctx(t), opener(file.Bytes()), ws, dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Digest != s.Digest || got.Events != s.Events || got.Through != through {
		t.Fatalf("import: got %+v, want %+v", got, s)
	}
	have, err := ledger.Check(ctx(t), dst, ws, nil)
	if err != nil || have.Digest != s.Digest || have.Through != through || have.Problem != nil || have.Verified != through-1 {
		t.Fatalf("chain of the copy: got %+v (%v), want digest %s through %d", have, err, s.Digest, through)
	}
	if a, b := modelsDigest(t, src), modelsDigest(t, dst); a != b {
		t.Fatalf("read models: the copy's digest is %s, the original's %s", b, a)
	}
}

// TestImport_Incremental imports an export of what came since a copy was
// made on top of that copy, and an import cut short again.
func TestImport_Incremental(t *testing.T) {
	src := openLog(t)
	grow(t, src, 2000, 1000)
	var file bytes.Buffer
	if _, err := ledger.Export(ctx(t), src, ws, 1, 0, &file, nil); err != nil {
		t.Fatal(err)
	}
	dst := openLog(t)
	if _, err := ledger.Import(ctx(t), opener(file.Bytes()), ws, dst, nil); err != nil {
		t.Fatal(err)
	}
	through, _ := src.LastSeq(ctx(t))
	grow(t, src, 500, 1000)
	var more bytes.Buffer
	inc, err := ledger.Export(ctx(t), src, ws, through+1, 0, &more, nil)
	if err != nil || inc.Events != 500 || inc.From != through+1 {
		t.Fatalf("export --since %d: got %+v, %v", through+1, inc, err)
	}
	// The increment does not go onto an empty ledger.
	if _, err := ledger.Import(ctx(t), opener(more.Bytes()), ws, openLog(t), nil); err == nil {
		t.Fatal("an increment imported into an empty ledger: got nil error")
	}
	if _, err := ledger.Import(ctx(t), opener(more.Bytes()), ws, dst, nil); err != nil {
		t.Fatal(err)
	}
	want, _ := ledger.Check(ctx(t), src, ws, nil)
	if have, _ := ledger.Check(ctx(t), dst, ws, nil); !reflect.DeepEqual(have, want) || have.Problem != nil {
		t.Fatalf("after the incremental import: got %+v, want %+v", have, want)
	}
	// Imported twice, it has nothing left to do and changes nothing.
	if _, err := ledger.Import(ctx(t), opener(more.Bytes()), ws, dst, nil); err == nil {
		t.Fatal("a second import of the same export: got nil error, want nothing to import")
	}

	// A copy that holds the first part of the ledger (an import cut
	// short) takes the whole export and goes on where it stopped.
	var all bytes.Buffer
	if _, err := ledger.Export(ctx(t), src, ws, 1, 0, &all, nil); err != nil {
		t.Fatal(err)
	}
	part := openLog(t)
	if _, err := ledger.Import(ctx(t), opener(file.Bytes()), ws, part, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.Import(ctx(t), opener(all.Bytes()), ws, part, nil); err != nil {
		t.Fatal(err)
	}
	if have, _ := ledger.Check(ctx(t), part, ws, nil); !reflect.DeepEqual(have, want) {
		t.Fatalf("after the resumed import: got %+v, want %+v", have, want)
	}
	// A copy that went its own way is refused.
	other := openLog(t)
	grow(t, other, 10, 0)
	if _, err := ledger.Import(ctx(t), opener(all.Bytes()), ws, other, nil); err == nil {
		t.Fatal("an export imported over another ledger: got nil error")
	}
}

// TestImport_Refused checks that an export that was changed, cut or is of
// another ledger is refused before anything is stored, with the first bad
// sequence named.
func TestImport_Refused(t *testing.T) {
	src := openLog(t)
	grow(t, src, 3000, 1000) // checkpoints at 1001, 2002, 3003
	export := exportAll(t, src)
	// Line i+1 of the file holds seq i (line 0 is the header).
	cases := []struct {
		name  string
		file  []byte
		seq   uint64 // the sequence the refusal names; 0: a format error
		after uint64
	}{
		{"ChangedMessage", rewrite(t, export, func(ls [][]byte) [][]byte {
			ls[1500] = bytes.Replace(ls[1500], []byte(`"sessionId":"s`), []byte(`"sessionId":"x`), 1)
			return ls
		}), 1500, 1000},
		{"ChangedMessageOfVersion1", rewrite(t, version1(t, export), func(ls [][]byte) [][]byte {
			// Its lines carry no chain: the checkpoint after tells.
			ls[1500] = bytes.Replace(ls[1500], []byte(`"sessionId":"s`), []byte(`"sessionId":"x`), 1)
			return ls
		}), 2002, 1000},
		{"ChangedCheckpoint", rewrite(t, export, func(ls [][]byte) [][]byte {
			ls[2002] = bytes.Replace(ls[2002], []byte(`"digest":"sha256:`), []byte(`"digest":"sha256:0`), 1)
			ls[2002] = bytes.Replace(ls[2002], []byte(`"}`), []byte(`"}`), 1)
			return ls
		}), 2002, 1000},
		{"RemovedMessage", rewrite(t, export, func(ls [][]byte) [][]byte {
			return append(ls[:1500:1500], ls[1501:]...)
		}), 1500, 1000},
		{"RemovedTail", rewrite(t, export, func(ls [][]byte) [][]byte {
			return append(ls[:2500:2500], ls[len(ls)-2:]...) // the trailer stays
		}), 2500, 2001},
		{"CutShort", export[:len(export)/2], 0, 0},
		{"NoTrailer", rewrite(t, export, func(ls [][]byte) [][]byte { return ls[:len(ls)-2] }), 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dst := openLog(t)
			_, err := ledger.Import(ctx(t), opener(tc.file), ws, dst, nil)
			var be *ledger.BrokenError
			switch {
			case tc.seq == 0:
				if !errors.Is(err, ledger.ErrFormat) {
					t.Fatalf("got %v, want an error wrapping ErrFormat", err)
				}
			case !errors.As(err, &be):
				t.Fatalf("got %v, want a *BrokenError", err)
			case be.Problem.Seq != tc.seq || be.Problem.After != tc.after:
				t.Fatalf("got the chain broken at seq %d (good through %d): %s; want seq %d (good through %d)",
					be.Problem.Seq, be.Problem.After, be.Problem.Reason, tc.seq, tc.after)
			}
			if last, _ := dst.LastSeq(ctx(t)); last != 0 {
				t.Fatalf("a refused import stored %d events", last)
			}
			t.Log(err)
		})
	}

	t.Run("Version1", func(t *testing.T) {
		// An export of an older build, whose lines carry no chain.
		dst := openLog(t)
		if _, err := ledger.Import(ctx(t), opener(version1(t, export)), ws, dst, nil); err != nil {
			t.Fatal(err)
		}
		want, _ := ledger.Check(ctx(t), src, ws, nil)
		if have, _ := ledger.Check(ctx(t), dst, ws, nil); !reflect.DeepEqual(have, want) {
			t.Fatalf("after importing a version 1 export: got %+v, want %+v", have, want)
		}
	})
	t.Run("AnotherWorkspace", func(t *testing.T) {
		dst := openLog(t)
		_, err := ledger.Import(ctx(t), opener(export), "ws-someone-else", dst, nil)
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(ws)) {
			t.Fatalf("got %v, want a refusal naming the export's workspace", err)
		}
	})
	t.Run("NotAnExport", func(t *testing.T) {
		_, err := ledger.Import(ctx(t), opener([]byte("hello")), ws, openLog(t), nil)
		if !errors.Is(err, ledger.ErrFormat) {
			t.Fatalf("got %v, want ErrFormat", err)
		}
	})
	var _ = events.TypeCheckpoint
}

// TestImport_LineTooLong puts a line over MaxLine after an export's
// header: the import names the line and the limit, and says neither that
// the file is cut short nor anything of its content. A line of MaxLine
// bytes is read, and refused for what it holds.
func TestImport_LineTooLong(t *testing.T) {
	src := openLog(t)
	grow(t, src, 10, 1000)
	export := exportAll(t, src)
	for _, tc := range []struct {
		name string
		n    int
		want string
	}{
		{"OverTheLimit", ledger.MaxLine + 1, fmt.Sprintf("line 2 too long: over %d bytes (16 MiB)", ledger.MaxLine)},
		{"AtTheLimit", ledger.MaxLine, "line 2: not a message line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			long := rewrite(t, export, func(ls [][]byte) [][]byte {
				return append([][]byte{ls[0], append(bytes.Repeat([]byte("x"), tc.n), '\n')}, ls[1:]...)
			})
			_, err := ledger.Import(ctx(t), opener(long), ws, openLog(t), nil)
			if !errors.Is(err, ledger.ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrFormat saying %q", err, tc.want)
			}
		})
	}
}
