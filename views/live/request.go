package live

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// request is what a client asked for: where its stream starts and which
// event types it wants.
type request struct {
	start  start
	filter filter
}

// start is where a stream begins, as the client put it.
type start struct {
	// seq is the first sequence to deliver; 0 means after the newest event
	// at the time the stream opens.
	seq uint64
	// source names the header or parameter seq came from, for messages.
	source string
}

// Query parameters a stream request accepts.
const (
	paramType  = "type"
	paramSince = "since"
	paramFrom  = "from"
)

// parseRequest reads the stream position and the type filter of r. The
// Last-Event-ID header wins over the since and from parameters: a browser
// that reconnects sends it together with the URL it first opened, and the
// header is the newer news.
func parseRequest(r *http.Request) (request, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return request{}, fmt.Errorf("malformed query: %v", err)
	}
	for name := range q {
		if name != paramType && name != paramSince && name != paramFrom {
			return request{}, fmt.Errorf("unknown query parameter %q: want type, since or from", name)
		}
	}
	f, err := parseFilter(q[paramType])
	if err != nil {
		return request{}, err
	}
	s, err := parseStart(r.Header.Get("Last-Event-ID"), q)
	if err != nil {
		return request{}, err
	}
	return request{start: s, filter: f}, nil
}

// parseStart turns Last-Event-ID, since or from into the first sequence to
// deliver. since and Last-Event-ID name the last event the client has; from
// names the first one it wants.
func parseStart(lastEventID string, q url.Values) (start, error) {
	since, hasSince, err := single(q, paramSince)
	if err != nil {
		return start{}, err
	}
	from, hasFrom, err := single(q, paramFrom)
	if err != nil {
		return start{}, err
	}
	switch {
	case hasSince && hasFrom:
		return start{}, fmt.Errorf("both since and from given: use one of them")
	case lastEventID != "":
		return after("Last-Event-ID", lastEventID, "Last-Event-ID "+lastEventID)
	case hasSince:
		return after(paramSince, since, "since="+since)
	case hasFrom:
		seq, err := parseSeq(paramFrom, from)
		if err != nil {
			return start{}, err
		}
		if seq == 0 {
			return start{}, fmt.Errorf("from=0: sequences start at 1; use from=1 to replay every event")
		}
		return start{seq: seq, source: "from=" + from}, nil
	}
	return start{}, nil
}

// after returns the start just past the sequence in v.
func after(name, v, source string) (start, error) {
	seq, err := parseSeq(name, v)
	if err != nil {
		return start{}, err
	}
	return start{seq: seq + 1, source: source}, nil
}

// single returns the one value of parameter name, and whether it is there.
func single(q url.Values, name string) (string, bool, error) {
	vs, ok := q[name]
	switch {
	case !ok:
		return "", false, nil
	case len(vs) > 1:
		return "", false, fmt.Errorf("%s given %d times: give it once", name, len(vs))
	}
	return vs[0], true, nil
}

// parseSeq parses a stream sequence: a decimal number, no sign.
func parseSeq(name, v string) (uint64, error) {
	seq, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil || seq == ^uint64(0) {
		return 0, fmt.Errorf("invalid %s %q: want the decimal sequence of an event (the id of an SSE message)", name, v)
	}
	return seq, nil
}

// resolve returns the first sequence to deliver, given the newest one in
// the log. A position past the newest event cannot come from this log: the
// client is resuming a stream of another ledger.
func (s start) resolve(last uint64) (uint64, error) {
	if s.seq == 0 {
		return last + 1, nil
	}
	if s.seq > last+1 {
		return 0, fmt.Errorf("%s is past the newest event (sequence %d): it does not come from this ledger", s.source, last)
	}
	return s.seq, nil
}
