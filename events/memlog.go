package events

import (
	"context"
	"fmt"
	"sync"
)

// MemoryLog is a Log held in memory. It keeps the encoded bytes, so it
// exercises the codec exactly as a durable log does. The zero value is not
// usable; call NewMemoryLog.
type MemoryLog struct {
	mu      sync.Mutex
	records [][]byte
	byID    map[string]uint64
	last    map[Aggregate]uint64 // newest sequence of each aggregate
	grew    chan struct{}        // closed and replaced on every append
}

var _ Log = (*MemoryLog)(nil)

// NewMemoryLog returns an empty in-memory log. It dedupes ids forever.
func NewMemoryLog() *MemoryLog {
	return &MemoryLog{byID: make(map[string]uint64), last: make(map[Aggregate]uint64), grew: make(chan struct{})}
}

// Append implements Log.
func (l *MemoryLog) Append(ctx context.Context, ev Event) (uint64, error) {
	return l.append(ctx, ev, nil)
}

// AppendExpecting implements Log.
func (l *MemoryLog) AppendExpecting(ctx context.Context, ev Event, exp Expectation) (uint64, error) {
	if err := CheckExpectation(ev, exp); err != nil {
		return 0, err
	}
	return l.append(ctx, ev, &exp)
}

func (l *MemoryLog) append(ctx context.Context, ev Event, exp *Expectation) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	b, err := Encode(ev)
	if err != nil {
		return 0, fmt.Errorf("append %s: %w", ev.Type, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if seq, ok := l.byID[ev.ID]; ok {
		return seq, nil
	}
	if exp != nil && l.last[exp.Aggregate] != exp.LastSeq {
		return 0, fmt.Errorf("append %s %s: %w", ev.Type, ev.ID,
			&ConflictError{Aggregate: exp.Aggregate, Expected: exp.LastSeq, Actual: l.last[exp.Aggregate]})
	}
	l.records = append(l.records, b)
	seq := uint64(len(l.records))
	l.byID[ev.ID] = seq
	if a := ev.Type.Aggregate(); a != "" {
		l.last[a] = seq
	}
	close(l.grew)
	l.grew = make(chan struct{})
	return seq, nil
}

// LastSeq implements Log.
func (l *MemoryLog) LastSeq(context.Context) (uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return uint64(len(l.records)), nil
}

// Replay implements Log.
func (l *MemoryLog) Replay(ctx context.Context, from uint64, fn func(Event) error) error {
	last, _ := l.LastSeq(ctx)
	_, err := l.deliver(ctx, from, last, fn)
	return err
}

// Subscribe implements Log.
func (l *MemoryLog) Subscribe(ctx context.Context, from uint64, fn func(Event) error) error {
	next := max(from, 1)
	for {
		l.mu.Lock()
		last, grew := uint64(len(l.records)), l.grew
		l.mu.Unlock()
		var err error
		if next, err = l.deliver(ctx, next, last, fn); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-grew:
		}
	}
}

// deliver calls fn for sequences from..last and returns the next sequence.
func (l *MemoryLog) deliver(ctx context.Context, from, last uint64, fn func(Event) error) (uint64, error) {
	seq := max(from, 1)
	for ; seq <= last; seq++ {
		if err := ctx.Err(); err != nil {
			return seq, err
		}
		l.mu.Lock()
		b := l.records[seq-1]
		l.mu.Unlock()
		ev, err := Decode(b)
		if err != nil {
			return seq, &StoredError{Seq: seq, Err: err}
		}
		ev.Seq, ev.Raw = seq, b
		if err := fn(ev); err != nil {
			return seq, err
		}
	}
	return seq, nil
}
