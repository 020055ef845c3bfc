package live

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/clumsies/clumsies/events"
)

// sseWriter writes Server-Sent Events messages and flushes each one, so a
// client sees an event as soon as it is written.
type sseWriter struct {
	w       io.Writer
	rc      *http.ResponseController
	buf     []byte
	timeout time.Duration // per message; 0: none
}

// event writes ev as one message: its sequence as id, its type as event
// name and its JSON envelope, seq included, as data. encoding/json writes
// no newlines (it compacts the raw payload too), so data is one line.
func (s *sseWriter) event(ev events.Event) error {
	data, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("encode event %d: %w", ev.Seq, err)
	}
	b := s.buf[:0]
	b = append(b, "id: "...)
	b = strconv.AppendUint(b, ev.Seq, 10)
	b = append(b, "\nevent: "...)
	b = append(b, ev.Type...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	b = append(b, "\n\n"...)
	s.buf = b
	return s.write(b)
}

// comment writes a comment line, which clients ignore.
func (s *sseWriter) comment(text string) error {
	return s.write([]byte(": " + text + "\n\n"))
}

func (s *sseWriter) write(b []byte) error {
	if s.timeout > 0 {
		if err := s.rc.SetWriteDeadline(time.Now().Add(s.timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return fmt.Errorf("set write deadline: %w", err)
		}
	}
	if _, err := s.w.Write(b); err != nil {
		return fmt.Errorf("write stream: %w", err)
	}
	return s.flush()
}

func (s *sseWriter) flush() error {
	if err := s.rc.Flush(); err != nil {
		return fmt.Errorf("flush stream: %w", err)
	}
	return nil
}
