package hub

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// killCopy stops r's local copy as a killed hub would: the write its
// timer would make is never made.
func killCopy(r *registry) {
	r.copy.mu.Lock()
	defer r.copy.mu.Unlock()
	if r.copy.pending != nil {
		r.copy.pending.Stop()
		r.copy.pending = nil
	}
	r.copy.closed = true
}

func applyNode(t *testing.T, r *registry, id string) {
	t.Helper()
	b, _ := json.Marshal(hubwire.Node{ID: id, Team: "red", Workspace: "ws-" + id, Shard: 1})
	if err := r.apply(keyNodePrefix+id, b); err != nil {
		t.Fatal(err)
	}
}

func nodeIDs(r *registry) string {
	var ids []string
	for _, n := range r.nodes() {
		ids = append(ids, n.ID)
	}
	return strings.Join(ids, ",")
}

// TestRegistryJournal_KilledBeforeTheCopy: a hub killed after a change
// and before its local copy was written again finds the change when it
// starts, from the journal, and the copy then holds it with the journals
// gone; a last line cut short by the kill is left out.
func TestRegistryJournal_KilledBeforeTheCopy(t *testing.T) {
	dir := t.TempDir()
	r, err := openRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	applyNode(t, r, "n-a")
	if err := r.close(); err != nil { // written: the copy holds n-a
		t.Fatal(err)
	}
	r, err = openRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	applyNode(t, r, "n-b")
	applyNode(t, r, "n-c")
	killCopy(r)
	r.journal.close()
	f, err := os.OpenFile(journalName(dir, r.journal.n), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, `{"k":"node.n-d","v":{"id":"n-`)
	f.Close()

	again, err := openRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := nodeIDs(again); got != "n-a,n-b,n-c" {
		t.Fatalf("the restarted hub holds nodes %s, want n-a,n-b,n-c", got)
	}
	if left, _ := journals(dir); len(left) != 0 {
		t.Fatalf("journals %v left after they went into the copy", left)
	}
	var d registryData
	b, _ := os.ReadFile(filepath.Join(dir, registryName))
	if err := json.Unmarshal(b, &d); err != nil || len(d.Nodes) != 3 {
		t.Fatalf("the copy holds %d nodes (%v), want 3", len(d.Nodes), err)
	}
	applyNode(t, again, "n-e")
	killCopy(again)
	if got, _ := journals(dir); len(got) != 1 || got[0] <= r.journal.n {
		t.Fatalf("the next change went to journals %v, want one after %d", got, r.journal.n)
	}
	last, err := openRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := nodeIDs(last); got != "n-a,n-b,n-c,n-e" {
		t.Fatalf("after a second kill the hub holds %s", got)
	}
}

// TestRegistryJournal_WrittenCopyEndsIt: once the local copy is written
// the journals it holds are removed, and a change after goes to a new
// one; a copy whose write failed keeps them.
func TestRegistryJournal_WrittenCopyEndsIt(t *testing.T) {
	dir := t.TempDir()
	r, err := openRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	applyNode(t, r, "n-a")
	fail := true
	write := r.copy.write
	r.copy.write = func(b []byte) error {
		if fail {
			return os.ErrPermission
		}
		return write(b)
	}
	if err := r.copy.flush(); err == nil {
		t.Fatal("a failed write of the copy was not reported")
	}
	applyNode(t, r, "n-b")
	if got, _ := journals(dir); len(got) != 2 {
		t.Fatalf("journals %v after a failed write, want the first kept and a second", got)
	}
	fail = false
	if err := r.copy.flush(); err != nil {
		t.Fatal(err)
	}
	if got, _ := journals(dir); len(got) != 0 {
		t.Fatalf("journals %v left after the copy was written", got)
	}
	killCopy(r)
	again, err := openRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := nodeIDs(again); got != "n-a,n-b" {
		t.Fatalf("the copy holds %s, want n-a,n-b", got)
	}
}

// TestRegistryJournal_DamagedLine: a line that does not read and is not
// the last one cut short stops the start with the journal's name.
func TestRegistryJournal_DamagedLine(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(journalName(dir, 1), []byte("{not json}\n{\"k\":\"node.n-a\",\"v\":{\"id\":\"n-a\"}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := openRegistry(dir); err == nil || !strings.Contains(err.Error(), journalPrefix+"1") {
		t.Fatalf("a damaged journal opened: %v", err)
	}
}
