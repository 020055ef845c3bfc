package hub

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/projections/engine"
)

// dayMarks is what a model's batch changed of what the stats read day by
// day: the days whose rows it changed (the counters of a day, the
// sessions last seen on a day), and whether it changed what every day's
// answer reads (everyDay: a reid, a catalog's rules, a node's hosts),
// each with the aggregate sequence of the last message that changed it.
// The model writes them with its rows (write), one version row per day
// under its prefix (keys.go): a day's part of a stats answer computed
// when the versions of its day were what they are now is the day's part
// now, whichever snapshots the part and the read came from, since each
// change writes a newer sequence. A version is the message's, not the
// batch's, so that the rows do not depend on how the messages were
// batched.
type dayMarks struct {
	prefix string
	days   map[string]uint64
}

func newDayMarks(prefix string) dayMarks { return dayMarks{prefix: prefix, days: map[string]uint64{}} }

// day marks day d changed by the message of sequence seq.
func (m dayMarks) day(d string, seq uint64) {
	if d != "" {
		m.days[d] = max(m.days[d], seq)
	}
}

// every marks what every day reads changed by the message of sequence
// seq.
func (m dayMarks) every(seq uint64) { m.day(everyDay, seq) }

// write sets the version rows of the marked days into rows and forgets
// them.
func (m dayMarks) write(rows *engine.DiskRows) {
	for d, seq := range m.days {
		rows.Set(keyVersion(m.prefix, d), putUint(seq))
	}
	clear(m.days)
}

// addTo adds the marked days to s: the days' parts they make stale.
func (m dayMarks) addTo(s stale) {
	if s[m.prefix] == nil {
		s[m.prefix] = map[string]bool{}
	}
	for d := range m.days {
		s[m.prefix][d] = true
	}
}

// dayVersion is what a day's part of an answer was computed from: its
// kind's versions of the day and of every day, and the catalog's.
type dayVersion struct{ day, all, catalog uint64 }

// versionOf reads day d's version of the kind of prefix in r.
func versionOf(r pebble.Reader, prefix, d string) (dayVersion, error) {
	var v dayVersion
	var err error
	if v.day, err = readUint(r, keyVersion(prefix, d)); err != nil {
		return v, err
	}
	if v.all, err = readUint(r, keyVersion(prefix, everyDay)); err != nil {
		return v, err
	}
	v.catalog, err = readUint(r, keyVersion(prefixCatalogVersion, everyDay))
	return v, err
}

// newer reports whether v is newer than w in any of its parts.
func (v dayVersion) newer(w dayVersion) bool {
	return v.day > w.day || v.all > w.all || v.catalog > w.catalog
}

// readUint reads the uint64 row k of r, 0 if there is none.
func readUint(r pebble.Reader, k []byte) (uint64, error) {
	v, closer, err := r.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the stats' version %q: %w", k, err)
	}
	defer closer.Close()
	return getUint(v), nil
}
