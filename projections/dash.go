package projections

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"strings"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// The dashboard's rows. Counts per day, latency histograms per tool and
// refs per rule and day are kept in memory; so is the newest row of two
// indexes of the ledger (seqIndex): the events of each session and the
// memrefs that named each rule. A page reads the few events it shows from
// the ledger by their sequence; the projector writes no copy of them. The
// publishes of an object are a log written once and read from disk.
const (
	prefixDash         = "x/"
	prefixDay          = "x/d/"   // x/d/<YYYY-MM-DD>: JSON dayRow
	prefixHist         = "x/h/"   // x/h/<tool>: LatencyBuckets×u64
	prefixRuleDay      = "x/r/"   // x/r/<ruleId>\x00<YYYY-MM-DD>: u64 refs
	prefixDashLog      = "x/l/"   // disk only
	prefixSessionIndex = "x/s/"   // x/s/<sessionId>\x00<seq/256 u64>: seqIndex of the session's events
	prefixRuleIndex    = "x/a/"   // x/a/<ruleId>\x00<seq/256 u64>: seqIndex of the memrefs naming the rule
	prefixPublishLog   = "x/l/p/" // x/l/p/<id>\x00<seq u64>: JSON PublishEntry
	dayLen             = len("2006-01-02")
	latencyExactBelow  = 2
	latencyBucketsSize = 8 * LatencyBuckets
)

// LatencyBuckets is the number of buckets of a latency histogram: bucket
// i holds durations from LatencyBound(i) up to LatencyBound(i+1) µs, two
// buckets per power of two, so a quantile read from them is within a
// factor of 1.5 of the true one.
const LatencyBuckets = 128

// latencyBucket returns the bucket of a duration in µs.
func latencyBucket(us uint64) int {
	if us < latencyExactBelow {
		return int(us)
	}
	l := bits.Len64(us)
	half := int(us>>(l-2)) & 1
	return 2*(l-1) + half
}

// LatencyBound returns the smallest duration in µs of bucket i; for
// i = LatencyBuckets, the end of the last bucket (saturated at the top).
func LatencyBound(i int) uint64 {
	if i < latencyExactBelow {
		return uint64(i)
	}
	if i >= LatencyBuckets {
		return ^uint64(0)
	}
	l := i/2 + 1
	return 1<<(l-1) + uint64(i%2)<<(l-2)
}

// Day is what happened on one UTC day.
type Day struct {
	Day    string `json:"day"` // YYYY-MM-DD
	Events uint64 `json:"events"`
	Calls  uint64 `json:"calls"`  // tool calls
	Errors uint64 `json:"errors"` // tool calls with outcome error
	Refs   uint64 `json:"refs"`   // refs of successful memref calls
	Setups uint64 `json:"setups"` // successful memsetup calls
}

type dayRow struct {
	Events uint64 `json:"events"`
	Calls  uint64 `json:"calls"`
	Errors uint64 `json:"errors"`
	Refs   uint64 `json:"refs"`
	Setups uint64 `json:"setups"`
}

// PublishEntry is one publish of an object.
type PublishEntry struct {
	Seq  uint64 `json:"seq"`
	Time string `json:"time"`
	Hash string `json:"hash"`
	Path string `json:"path"`
}

type logRow struct {
	key   []byte
	value []byte
}

// dashModel is the read model of the dashboard.
type dashModel struct {
	days     map[string]*dayRow
	hist     map[string]*[LatencyBuckets]uint64
	ruleDays map[string]map[string]uint64 // rule id -> day -> refs

	touchedDays     map[string]struct{}
	touchedHist     map[string]struct{}
	touchedRuleDays map[[2]string]struct{}
	logs            []logRow // written at the next write, never loaded
	sessions        *seqIndex
	rules           *seqIndex
}

func newDashModel() *dashModel {
	return &dashModel{
		days: make(map[string]*dayRow), hist: make(map[string]*[LatencyBuckets]uint64),
		ruleDays: make(map[string]map[string]uint64), touchedDays: make(map[string]struct{}),
		touchedHist: make(map[string]struct{}), touchedRuleDays: make(map[[2]string]struct{}),
		sessions: newSeqIndex(prefixSessionIndex), rules: newSeqIndex(prefixRuleIndex),
	}
}

func (m *dashModel) Prefixes() []string { return []string{prefixDash} }

// Folds implements folder.
func (m *dashModel) Folds() []events.Type {
	return []events.Type{events.TypeRefer, events.TypeCatalogPublish, events.TypeCatalogReid}
}
func (m *dashModel) DiskOnly() []string { return []string{prefixDashLog} }

func logKey(prefix, id string, seq uint64) []byte {
	k := make([]byte, 0, len(prefix)+len(id)+9)
	k = append(k, prefix...)
	k = append(k, id...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint64(k, seq)
}

func (m *dashModel) Apply(d decoded) {
	ev := d.ev
	day := ""
	if len(ev.Time) >= dayLen {
		day = ev.Time[:dayLen]
	}
	row := m.days[day]
	if row == nil {
		row = new(dayRow)
		m.days[day] = row
	}
	m.touchedDays[day] = struct{}{}
	row.Events++
	if ev.Tool != "" {
		row.Calls++
		if ev.Outcome == events.OutcomeError {
			row.Errors++
		}
		h := m.hist[ev.Tool]
		if h == nil {
			h = new([LatencyBuckets]uint64)
			m.hist[ev.Tool] = h
		}
		h[latencyBucket(uint64(max(ev.DurationUs, 0)))]++
		m.touchedHist[ev.Tool] = struct{}{}
	}
	if ev.Outcome == events.OutcomeOK && ev.Type == events.TypeSetup {
		row.Setups++
	}
	switch p := d.payload.(type) {
	case refs:
		row.Refs += uint64(len(p))
		var last string
		for _, r := range p {
			byDay := m.ruleDays[r.rule]
			if byDay == nil {
				byDay = make(map[string]uint64)
				m.ruleDays[r.rule] = byDay
			}
			byDay[day]++
			m.touchedRuleDays[[2]string{r.rule, day}] = struct{}{}
			if r.rule != last {
				m.rules.add(r.rule, ev.Seq)
			}
			last = r.rule
		}
	case *events.PublishData:
		v, _ := json.Marshal(PublishEntry{Seq: ev.Seq, Time: ev.Time, Hash: p.Hash, Path: p.Path})
		m.logs = append(m.logs, logRow{logKey(prefixPublishLog, p.ID, ev.Seq), v})
	case *events.ReidData:
		m.moveRuleDays(p.From, p.To)
	}
	if ev.SessionID != "" {
		m.sessions.add(ev.SessionID, ev.Seq)
	}
}

// moveRuleDays adds the refs per day of rule from to those of rule to (a
// catalog.reid), and forgets from. The rule's applications stay listed
// under the id they were made with.
func (m *dashModel) moveRuleDays(from, to string) {
	moveCounts(m.ruleDays, from, to, func(rule, day string) { m.touchedRuleDays[[2]string{rule, day}] = struct{}{} })
}

func (m *dashModel) Write(w *engine.RowWriter) {
	for day := range m.touchedDays {
		w.JSON([]byte(prefixDay+day), m.days[day])
	}
	for tool := range m.touchedHist {
		b := make([]byte, 0, latencyBucketsSize)
		for _, n := range m.hist[tool] {
			b = binary.BigEndian.AppendUint64(b, n)
		}
		w.Set([]byte(prefixHist+tool), b)
	}
	for k := range m.touchedRuleDays {
		key := []byte(prefixRuleDay + k[0] + "\x00" + k[1])
		if n, ok := m.ruleDays[k[0]][k[1]]; ok {
			w.Set(key, encodeU64(n))
		} else {
			w.Del(key)
		}
	}
	for _, l := range m.logs {
		w.Set(l.key, l.value)
	}
	m.sessions.write(w)
	m.rules.write(w)
	clear(m.touchedDays)
	clear(m.touchedHist)
	clear(m.touchedRuleDays)
	m.logs = m.logs[:0]
}

func (m *dashModel) Load(k string, v []byte) error {
	switch {
	case strings.HasPrefix(k, prefixDay):
		r := new(dayRow)
		if err := json.Unmarshal(v, r); err != nil {
			return err
		}
		m.days[k[len(prefixDay):]] = r
	case strings.HasPrefix(k, prefixHist):
		if len(v) != latencyBucketsSize {
			return fmt.Errorf("histogram: want %d bytes, got %d", latencyBucketsSize, len(v))
		}
		h := new([LatencyBuckets]uint64)
		for i := range h {
			h[i] = binary.BigEndian.Uint64(v[8*i:])
		}
		m.hist[k[len(prefixHist):]] = h
	case strings.HasPrefix(k, prefixSessionIndex):
		return m.sessions.load(k, v)
	case strings.HasPrefix(k, prefixRuleIndex):
		return m.rules.load(k, v)
	case strings.HasPrefix(k, prefixRuleDay):
		rule, day, ok := strings.Cut(k[len(prefixRuleDay):], "\x00")
		if !ok {
			return fmt.Errorf("rule day key has no separator")
		}
		n, err := decodeU64(v)
		if err != nil {
			return err
		}
		if m.ruleDays[rule] == nil {
			m.ruleDays[rule] = make(map[string]uint64)
		}
		m.ruleDays[rule][day] = n
	default:
		return engine.ErrUnknownRow
	}
	return nil
}
