package projections

import (
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// ChainHead is the ledger's hash chain as far as the projector has
// applied the log: the digest over every stored message through Seq (see
// events.ChainDigest), and where the newest ledger.checkpoint is.
type ChainHead struct {
	// Seq is the sequence of the last message hashed, 0 before the first.
	Seq uint64 `json:"seq"`
	// Digest is the chain digest through Seq, "sha256:<hex>"; empty
	// before the first message.
	Digest string `json:"digest"`
	// LastCheckpoint is the sequence of the newest ledger.checkpoint, 0
	// if there is none.
	LastCheckpoint uint64 `json:"lastCheckpoint"`
	// Checkpoints counts the ledger.checkpoint events.
	Checkpoints uint64 `json:"checkpoints"`
}

// prefixChain is the chain's key prefix: its head is keyChain, and
// under prefixChainAt (on disk only) the digest of each message, in
// blocks (chainat.go).
const (
	prefixChain   = "l/"
	prefixChainAt = "l/e/"
)

var keyChain = []byte(prefixChain + "chain")

// chainRow is the chain as the model writes it.
type chainRow struct {
	Seq            uint64 `json:"seq"`
	Digest         string `json:"digest"`
	LastCheckpoint uint64 `json:"lastCheckpoint"`
	Checkpoints    uint64 `json:"checkpoints"`
}

// chainModel is the read model of the ledger's hash chain: the running
// digest over the stored bytes of every event (events.Event.Raw) in
// sequence order. The chain of a workspace starts from its id, which the
// first event carries.
//
// It also keeps the digest of each message it applied, so that verify can
// tell which stored message changed after the read models applied it
// (chainat.go).
type chainModel struct {
	row     chainRow // Digest is rendered when written
	digest  events.ChainDigest
	touched bool
	off     bool // Options.NoChain
	// cur is the block of the last sequence applied; done the blocks
	// filled before it since the last write, and spare their buffers
	// once written.
	cur   chainBlock
	done  []chainBlock
	spare [][]byte
	md    events.MessageDigester
}

func newChainModel() *chainModel { return &chainModel{} }

func (m *chainModel) Prefixes() []string { return []string{prefixChain} }

func (m *chainModel) DiskOnly() []string { return []string{prefixChainAt} }

func (m *chainModel) Apply(d decoded) {
	if m.off {
		return
	}
	ev := d.ev
	if m.row.Seq == 0 {
		m.digest = events.ChainStart(ev.WorkspaceID)
	}
	m.digest = m.digest.Next(ev.Seq, ev.Raw)
	m.row.Seq = ev.Seq
	m.record(ev.Seq, m.md.Digest(ev.Seq, ev.Raw))
	if ev.Type == events.TypeCheckpoint {
		m.row.LastCheckpoint = ev.Seq
		m.row.Checkpoints++
	}
	m.touched = true
}

func (m *chainModel) Write(w *engine.RowWriter) {
	if !m.touched {
		return
	}
	m.touched = false
	row := m.row
	row.Digest = m.digest.String()
	w.JSON(keyChain, row)
	for _, b := range m.done {
		w.Set(chainBlockKey(b.index), b.at)
		m.spare = append(m.spare, b.at[:0])
	}
	m.done = m.done[:0]
	if len(m.cur.at) > 0 {
		w.Set(chainBlockKey(m.cur.index), m.cur.at)
	}
}

// record keeps d, the digest of the message at seq, in its block.
func (m *chainModel) record(seq uint64, d events.MessageDigest) {
	block, i := chainBlockOf(seq)
	if block != m.cur.index {
		if len(m.cur.at) > 0 {
			m.done = append(m.done, m.cur)
		}
		m.cur = chainBlock{index: block}
		if n := len(m.spare); n > 0 {
			m.cur.at, m.spare = m.spare[n-1], m.spare[:n-1]
		}
	}
	m.cur.put(i, d)
}

func (m *chainModel) Load(key string, v []byte) error {
	if key != string(keyChain) {
		return engine.ErrUnknownRow
	}
	if err := json.Unmarshal(v, &m.row); err != nil {
		return err
	}
	d, err := events.ParseChainDigest(m.row.Digest)
	if err != nil {
		return fmt.Errorf("chain digest: %w", err)
	}
	m.digest = d
	return nil
}

// head returns the chain as the API shows it.
func (m *chainModel) head() ChainHead {
	h := ChainHead{Seq: m.row.Seq, LastCheckpoint: m.row.LastCheckpoint, Checkpoints: m.row.Checkpoints}
	if h.Seq > 0 {
		h.Digest = m.digest.String()
	}
	return h
}

// Chain returns the hash chain as far as the projector has applied the
// log.
func (s *Store) Chain() ChainHead {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.st.chain.head()
}
