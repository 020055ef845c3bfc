package adapt

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// TestHosts_HookGolden reads each host's recorded hook input (testdata/<host>/<event>.json,
// in the shapes of the host's docs) and compares what adapt reads of it and
// the answers it renders with testdata/<host>/<event>.golden.
func TestHosts_HookGolden(t *testing.T) {
	for _, h := range Hosts() {
		for _, ev := range h.Events() {
			t.Run(h.Name+"/"+string(ev), func(t *testing.T) {
				raw, err := os.ReadFile(filepath.Join("testdata", h.Name, string(ev)+".json"))
				if err != nil {
					t.Fatal(err)
				}
				in, err := h.Read(ev, raw)
				if err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				inJSON, _ := json.Marshal(in)
				b.WriteString("input: " + string(inJSON) + "\n")
				switch ev {
				case SessionStart:
					b.WriteString("answer: " + show(h.Answer(ev, Answer{Context: SetupContext(in.SessionID, "css-0123456789abcdef0123456789abcdef")})))
				case UserPrompt:
					b.WriteString("answer: " + show(h.Answer(ev, Answer{})))
				case Stop:
					b.WriteString("allow: " + show(h.Answer(ev, Answer{})))
					b.WriteString("block: " + show(h.Answer(ev, Answer{Block: true, Reason: StopReason(in.SessionID)})))
				}
				checkGolden(t, filepath.Join("testdata", h.Name, string(ev)+".golden"), b.String())
				for _, out := range [][]byte{h.Answer(ev, Answer{}), h.Answer(ev, Answer{Block: true, Reason: "r", Context: "c"})} {
					if len(out) > 0 && !json.Valid(out) {
						t.Errorf("answer %q is not JSON", out)
					}
				}
			})
		}
	}
}

// checkGolden compares got with the golden file, which -update rewrites.
func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./agent/adapt -update)", err)
	}
	if got != string(want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func show(b []byte) string {
	if len(b) == 0 {
		return "(nothing)\n"
	}
	return string(b)
}

func TestHost_ReadRefusesInputWithoutSessionID(t *testing.T) {
	for _, h := range Hosts() {
		for _, raw := range []string{`{}`, `not json`, ``} {
			if _, err := h.Read(Stop, []byte(raw)); err == nil {
				t.Errorf("%s: %q read without error", h.Name, raw)
			}
		}
	}
}
