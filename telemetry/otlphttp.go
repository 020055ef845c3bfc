package telemetry

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// The OTLP/HTTP client's settings: the SDK's exporters' defaults.
const (
	exportTimeout = 10 * time.Second // one request
	firstBackoff  = 500 * time.Millisecond
	maxAttempts   = 4
	maxRetryAfter = 30 * time.Second
)

// poster sends OTLP/HTTP requests with protobuf bodies to one URL.
type poster struct {
	url     string
	headers map[string]string
	client  *http.Client
}

// newPoster returns the poster of one signal ("traces" or "metrics"):
// o's headers, or when o has none the environment's
// OTEL_EXPORTER_OTLP_<SIGNAL>_HEADERS or OTEL_EXPORTER_OTLP_HEADERS.
func newPoster(o Options, signal string) *poster {
	scheme := "https"
	if o.Insecure {
		scheme = "http"
	}
	headers := o.Headers
	if len(headers) == 0 {
		headers = envHeaders(os.Getenv("OTEL_EXPORTER_OTLP_" + strings.ToUpper(signal) + "_HEADERS"))
		if len(headers) == 0 {
			headers = envHeaders(os.Getenv("OTEL_EXPORTER_OTLP_HEADERS"))
		}
	}
	return &poster{
		url:     scheme + "://" + o.Host + o.Path + "/v1/" + signal,
		headers: headers,
		client:  &http.Client{Timeout: exportTimeout},
	}
}

// envHeaders reads the OTLP exporters' headers variable:
// key=value,key=value with percent-encoded values. An entry without a key
// or whose value does not decode is skipped, as the SDK does.
func envHeaders(s string) map[string]string {
	var out map[string]string
	for _, entry := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(entry, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			continue
		}
		v, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = v
	}
	return out
}

// send posts body, again after a pause when the collector says it is busy
// (429, 502, 503, 504) or cannot be reached, at most maxAttempts times
// and within ctx.
func (p *poster) send(ctx context.Context, body []byte) error {
	wait := firstBackoff
	var err error
	for attempt := 1; ; attempt++ {
		var retry time.Duration
		retry, err = p.post(ctx, body)
		if err == nil {
			return nil
		}
		if retry < 0 || attempt == maxAttempts {
			return err
		}
		if retry == 0 {
			retry = wait
			wait *= 2
		}
		t := time.NewTimer(retry)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// post makes one request. On failure it returns how long to wait before
// the next (0: the usual backoff; -1: do not retry).
func (p *poster) post(ctx context.Context, body []byte) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		return -1, fmt.Errorf("export to %s: %w", p.url, err)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	for k, v := range p.headers {
		req.Header.Set(k, v)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("export to %s: %w", p.url, err)
	}
	defer resp.Body.Close()
	// The answer (a partial success, a Status) is read only for an error.
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode/100 == 2 {
		return 0, nil
	}
	err = fmt.Errorf("export to %s: the collector answered %s: %q", p.url, resp.Status, msg)
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return retryAfter(resp.Header.Get("Retry-After")), err
	default:
		return -1, err
	}
}

// retryAfter reads a Retry-After of seconds; 0 when there is none.
func retryAfter(h string) time.Duration {
	s, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil || s <= 0 {
		return 0
	}
	return min(time.Duration(s)*time.Second, maxRetryAfter)
}
