package makefile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVetArch_EveryArch runs `make vet-arch` with a go command that
// records how it was run: it vets the content package for linux/arm,
// linux/386 and linux/arm64, lint runs it, and a vet that fails fails
// make at once.
func TestVetArch_EveryArch(t *testing.T) {
	needMake(t)
	dir := t.TempDir()
	log, fakeGo := filepath.Join(dir, "log"), filepath.Join(dir, "go")
	script := "#!/bin/sh\necho \"$GOOS/$GOARCH $*\" >> " + log + "\n[ \"$GOARCH\" != \"$FAIL_ON\" ]\n"
	if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	vet := func(failOn string) (string, error) {
		os.Remove(log)
		cmd := exec.Command("make", "-s", "-C", root, "vet-arch", "GO="+fakeGo)
		cmd.Env = append(os.Environ(), "FAIL_ON="+failOn)
		out, err := cmd.CombinedOutput()
		b, _ := os.ReadFile(log)
		if err != nil {
			err = fmt.Errorf("%w: %s", err, out)
		}
		return string(b), err
	}
	got, err := vet("")
	if err != nil {
		t.Fatalf("make vet-arch: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	for i, arch := range []string{"linux/arm", "linux/386", "linux/arm64"} {
		if i >= len(lines) || !strings.HasPrefix(lines[i], arch+" vet ") || !strings.Contains(lines[i], "./content") {
			t.Fatalf("make vet-arch ran go as\n%s\nwant go vet ./content for %s", got, arch)
		}
	}
	if got, err := vet("386"); err == nil || strings.Contains(got, "arm64") {
		t.Fatalf("make vet-arch with vet failing on 386: %v, ran\n%s\nwant a failure before arm64", err, got)
	}
	out, err := exec.Command("make", "-n", "-C", root, "lint").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "for a in linux/arm linux/386 linux/arm64") {
		t.Fatalf("make -n lint: %v\n%s\nwant it to run vet-arch", err, out)
	}
}
