package hub

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// journalPrefix names the registry's journals in the data folder:
// registry.journal.<n>, n from 1.
const journalPrefix = "registry.journal."

// registryJournal appends each change of the registry's copy to a file
// the moment the copy takes it, where the local copy (registry.json) is
// written up to copyDelay later. A hub reads both when it starts, and
// adds every node's account before its server starts: a hub killed
// within copyDelay of a join (its own or another hub's) used to start
// without that node's account, and its server then dropped, for good,
// the interest its peers sent for that account as the routes came up
// (nats-server#8560: a remote subscription for an account the server
// does not know is not kept), so that the node's events no longer
// reached a shard led elsewhere. A line costs one write, whatever the
// registry holds; the journal is not synced to disk: it survives the
// hub's process, not the machine's crash.
//
// Each write of the local copy starts a new journal (rotate) and, once
// the copy is written, removes the journals the copy holds. The caller
// holds the registry's lock.
type registryJournal struct {
	dir string
	n   int      // the journal being appended to
	f   *os.File // opened at its first line
}

// journalLine is one change: a bucket entry as the copy took it.
type journalLine struct {
	Key   string          `json:"k"`
	Value json.RawMessage `json:"v"`
}

// record appends the change of entry key to value.
func (j *registryJournal) record(key string, value []byte) error {
	if j.f == nil {
		f, err := os.OpenFile(journalName(j.dir, j.n), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("open the registry's journal: %w", err)
		}
		j.f = f
	}
	line, err := json.Marshal(journalLine{Key: key, Value: value})
	if err != nil {
		return fmt.Errorf("journal the registry's %s: %w", key, err)
	}
	if _, err := j.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("journal the registry's %s: %w", key, err)
	}
	return nil
}

// rotate ends the journal being appended to, the changes from now on
// going to the next one, and returns what removes the journals ended so
// far: to be called once a copy holding them is written.
func (j *registryJournal) rotate() (written func()) {
	if j.f != nil {
		_ = j.f.Close()
		j.f = nil
	}
	upTo := j.n
	j.n++
	return func() { removeJournals(j.dir, upTo) }
}

// close ends the journal being appended to.
func (j *registryJournal) close() {
	if j.f != nil {
		_ = j.f.Close()
		j.f = nil
	}
}

func journalName(dir string, n int) string {
	return filepath.Join(dir, journalPrefix+strconv.Itoa(n))
}

// journals returns the numbers of the journals in dir, in order.
func journals(dir string) ([]int, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the registry's journals: %w", err)
	}
	var out []int
	for _, e := range entries {
		if rest, ok := strings.CutPrefix(e.Name(), journalPrefix); ok {
			if n, err := strconv.Atoi(rest); err == nil && n > 0 {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// removeJournals removes the journals of dir numbered up to n.
func removeJournals(dir string, n int) {
	found, _ := journals(dir)
	for _, k := range found {
		if k <= n {
			_ = os.Remove(journalName(dir, k))
		}
	}
}

// replayJournals applies, in order, every change the journals of dir
// hold, and returns the highest journal number found (0 for none). A
// last line cut short (the hub killed in the middle of its write) is
// left out; a line that does not read elsewhere is an error.
func replayJournals(dir string, apply func(key string, value []byte) error) (int, error) {
	found, err := journals(dir)
	if err != nil {
		return 0, err
	}
	for _, n := range found {
		b, err := os.ReadFile(journalName(dir, n))
		if err != nil {
			return 0, fmt.Errorf("read the registry's journal: %w", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, len(b)+1)
		for sc.Scan() {
			var l journalLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				if !bytes.HasSuffix(b, []byte("\n")) && bytes.HasSuffix(b, sc.Bytes()) {
					break // the last line, cut short
				}
				return 0, fmt.Errorf("read the registry's journal %s: %w", journalName(dir, n), err)
			}
			if err := apply(l.Key, l.Value); err != nil {
				return 0, err
			}
		}
	}
	if len(found) == 0 {
		return 0, nil
	}
	return found[len(found)-1], nil
}
