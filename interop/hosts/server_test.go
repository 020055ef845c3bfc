package hosts

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// modelServer is a stand-in model on 127.0.0.1: api answers one request of
// a host's model API from the script. Every request is appended to a log
// in the test's folder, named on failure.
type modelServer struct {
	script
	URL  string
	logf string
	mu   sync.Mutex
}

// startModel serves api on a loopback port until the test ends.
func startModel(t *testing.T, api func(s *modelServer, w http.ResponseWriter, r *http.Request, body []byte)) *modelServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen for the stand-in model: %v", err)
	}
	// $CLUMSIES_HOSTS_LOGS keeps the logs after the run.
	dir, keep := os.Getenv("CLUMSIES_HOSTS_LOGS"), " (kept)"
	if dir == "" {
		dir, keep = t.TempDir(), " (removed with the test's folder; set CLUMSIES_HOSTS_LOGS=DIR to keep it)"
	}
	logf := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "-")+"-model-requests.log")
	s := &modelServer{URL: "http://" + ln.Addr().String(), logf: logf}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.log(fmt.Sprintf("%s %s\n%s\n\n", r.Method, r.URL, body))
		api(s, w, r, body)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the stand-in model's requests: %s%s", s.logf, keep)
		}
	})
	return s
}

func (s *modelServer) log(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := os.OpenFile(s.logf, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.WriteString(line)
}

// sse writes one server-sent event (event may be empty) and flushes it.
func sse(w http.ResponseWriter, event string, data any) {
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", mustJSON(data))
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
