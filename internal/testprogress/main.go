package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

func main() {
	tick := time.NewTicker(quietFor / 2)
	defer tick.Stop()
	os.Exit(runTicking(os.Stdin, os.Stdout, time.Now, tick.C))
}

// quietFor is how long the output may stay silent before a tick says what
// is going on: compiling the test binaries, on a first run, or the
// packages still running.
const quietFor = 30 * time.Second

// event is one line of `go test -json` (cmd/test2json), and the build
// events the go command interleaves with them.
type event struct {
	Action     string
	Package    string
	Test       string
	Elapsed    float64
	Output     string
	ImportPath string // build-output, build-fail
}

// progress is what is known of the run so far.
type progress struct {
	w       io.Writer
	output  map[string]*strings.Builder // each package's output and its failed tests', kept until it ends
	tests   map[string]*strings.Builder // each running test's output ("package test")
	builds  map[string]*strings.Builder // each package's build output
	running map[string]bool
	passed  int
	failed  []string
}

// run reads go test -json from r, reports on w as packages finish, and
// returns the exit status.
func run(r io.Reader, w io.Writer, now func() time.Time) int {
	return runTicking(r, w, now, nil)
}

// runTicking is run with ticks: at each, when nothing was printed for
// quietFor before the tick's time, it says what the run is doing (quiet).
func runTicking(r io.Reader, w io.Writer, now func() time.Time, ticks <-chan time.Time) int {
	start := now()
	p := &progress{w: &stamped{w: w, now: now, last: start}, output: map[string]*strings.Builder{}, tests: map[string]*strings.Builder{}, builds: map[string]*strings.Builder{}, running: map[string]bool{}}
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			lines <- bytes.Clone(sc.Bytes())
		}
		readErr <- sc.Err()
		close(lines)
	}()
	for {
		select {
		case t := <-ticks:
			p.quiet(t)
			continue
		case line, ok := <-lines:
			if !ok {
				if err := <-readErr; err != nil {
					fmt.Fprintf(p.w, "testprogress: read go test's output: %v\n", err)
					return 1
				}
				return p.end(now().Sub(start))
			}
			var ev event
			if err := json.Unmarshal(line, &ev); err != nil || ev.Action == "" {
				fmt.Fprintln(p.w, string(line)) // the go command's own words (a build error)
				continue
			}
			p.add(ev)
		}
	}
}

// stamped is the output: it keeps when it was last written to.
type stamped struct {
	w    io.Writer
	now  func() time.Time
	last time.Time
}

func (s *stamped) Write(b []byte) (int, error) {
	s.last = s.now()
	return s.w.Write(b)
}

// quiet says, after quietFor without a line, what the run is doing: the
// packages still running, or, before any runs, that the test binaries are
// being compiled (minutes on a cold build cache, when a first run
// compiles every dependency and every test binary).
func (p *progress) quiet(now time.Time) {
	out := p.w.(*stamped)
	if now.Sub(out.last) < quietFor {
		return
	}
	switch {
	case len(p.running) > 0:
		fmt.Fprintf(p.w, "...  still testing%s\n", strings.TrimPrefix(p.still(), "  "))
	case p.passed+len(p.failed) == 0:
		fmt.Fprintln(p.w, "...  compiling the test binaries (a first run, on a cold build cache, compiles every dependency and test binary: minutes without a package line)")
	default:
		fmt.Fprintln(p.w, "...  compiling the next test binaries")
	}
}

// add takes one event.
func (p *progress) add(ev event) {
	switch ev.Action {
	case "build-output":
		pkg, _, _ := strings.Cut(ev.ImportPath, " ") // "m/b [m/b.test]"
		buf(p.builds, pkg).WriteString(ev.Output)
		return
	case "build-fail":
		return // the package's own fail event follows
	}
	if ev.Package == "" {
		return
	}
	if ev.Test != "" {
		p.addTest(ev)
		return
	}
	if ev.Action == "output" {
		buf(p.output, ev.Package).WriteString(ev.Output)
		return
	}
	switch ev.Action {
	case "start":
		p.running[ev.Package] = true
	case "pass", "skip":
		delete(p.running, ev.Package)
		p.passed++
		status := "ok  "
		if ev.Action == "skip" || strings.Contains(buf(p.output, ev.Package).String(), "[no test files]") {
			status = "--  "
		}
		fmt.Fprintf(p.w, "%s %-50s %6.1fs%s\n", status, ev.Package, ev.Elapsed, p.still())
		delete(p.output, ev.Package)
	case "fail":
		delete(p.running, ev.Package)
		p.failed = append(p.failed, ev.Package)
		fmt.Fprintf(p.w, "FAIL %-50s %6.1fs%s\n", ev.Package, ev.Elapsed, p.still())
		for _, m := range []map[string]*strings.Builder{p.builds, p.output} {
			if b := m[ev.Package]; b != nil {
				fmt.Fprint(p.w, indent(b.String()))
			}
		}
		delete(p.output, ev.Package)
	}
}

// addTest takes an event of one test: its output is kept until it ends,
// and joins its package's output only if it failed.
func (p *progress) addTest(ev event) {
	key := ev.Package + " " + ev.Test
	switch ev.Action {
	case "output":
		buf(p.tests, key).WriteString(ev.Output)
	case "fail":
		buf(p.output, ev.Package).WriteString(buf(p.tests, key).String())
		delete(p.tests, key)
	case "pass", "skip":
		delete(p.tests, key)
	}
}

// still says which packages are still running, so that a long wait has a
// name.
func (p *progress) still() string {
	if len(p.running) == 0 {
		return ""
	}
	names := make([]string, 0, len(p.running))
	for n := range p.running {
		names = append(names, n[strings.LastIndex(n, "/")+1:])
	}
	sort.Strings(names)
	if len(names) > 4 {
		names = append(names[:4], "...")
	}
	return "   (running: " + strings.Join(names, ", ") + ")"
}

// end prints the summary and returns the exit status.
func (p *progress) end(took time.Duration) int {
	took = took.Round(time.Second)
	if len(p.failed) > 0 {
		fmt.Fprintf(p.w, "\n%d packages ok, %d FAILED in %s: %s\n", p.passed, len(p.failed), took, strings.Join(p.failed, " "))
		return 1
	}
	if p.passed == 0 {
		fmt.Fprintf(p.w, "\nno package reported a result in %s\n", took)
		return 1
	}
	fmt.Fprintf(p.w, "\n%d packages ok in %s\n", p.passed, took)
	return 0
}

func buf(m map[string]*strings.Builder, key string) *strings.Builder {
	b := m[key]
	if b == nil {
		b = &strings.Builder{}
		m[key] = b
	}
	return b
}

// indent indents every line of s by four spaces.
func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ") + "\n"
}
