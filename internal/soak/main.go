package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clumsies/clumsies/node/nodetest"
)

func main() {
	bin := flag.String("bin", "bin/clumsies", "the clumsies binary")
	rounds := flag.Int("rounds", 50, "how many processes to kill")
	procs := flag.Int("procs", 3, "how many serve processes run at once")
	seed := flag.Uint64("seed", uint64(time.Now().UnixNano()), "random seed (printed, to replay a run)")
	flag.Parse()
	if flag.NArg() > 0 || *rounds < 1 || *procs < 2 {
		fmt.Fprintln(os.Stderr, "usage: soak [-bin FILE] [-rounds N] [-procs P>=2] [-seed S]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	abs, err := filepath.Abs(*bin)
	if err != nil {
		fail(err)
	}
	r, err := run(ctx, abs, *rounds, *procs, *seed)
	if err != nil {
		fail(err)
	}
	r.print(os.Stdout)
	if !r.ok() {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "soak:", err)
	os.Exit(1)
}

// result is what a run found.
type result struct {
	rounds, procs       int
	seed                uint64
	ownerKills, others  int
	acked, notAcked     int
	refused             int // answered with an error that says: not stored
	refusedStored       int // ... and stored all the same
	unknown             int // answered outcome_unknown (stored at most once)
	unknownStored       int // ... and stored by the end
	stored, lost, twice int
	verify              string // "ok" or what verify said
	took                time.Duration
}

func (r result) ok() bool {
	return r.lost == 0 && r.twice == 0 && r.refusedStored == 0 && r.verify == "ok"
}

func (r result) print(w *os.File) {
	fmt.Fprintf(w, "soak: %d rounds, %d serve processes, seed %d, %s\n", r.rounds, r.procs, r.seed, r.took.Round(time.Second))
	fmt.Fprintf(w, "kills: %d (SIGKILL): %d owners, %d others\n", r.ownerKills+r.others, r.ownerKills, r.others)
	fmt.Fprintf(w, "calls: %d acked, %d not acked (cut by a kill or answered with an error)\n", r.acked, r.notAcked)
	fmt.Fprintf(w, "ledger: %d calls stored; acked %d / lost %d / doubled %d\n", r.stored, r.acked, r.lost, r.twice)
	fmt.Fprintf(w, "errors: %d calls answered with an error, %d of them stored all the same\n", r.refused, r.refusedStored)
	fmt.Fprintf(w, "outcome_unknown: %d calls, %d of them stored by the end (once: see doubled)\n", r.unknown, r.unknownStored)
	fmt.Fprintf(w, "verify: %s\n", r.verify)
}

// load keeps every process calling agentreport and remembers which calls
// were acknowledged.
type load struct {
	ctx      context.Context
	wg       sync.WaitGroup
	mu       sync.Mutex
	acked    map[string]bool
	refused  map[string]bool // answered with an error (the call says: not stored)
	unknown  map[string]bool // answered outcome_unknown (stored at most once)
	notAcked atomic.Int64
}

// drive calls agentreport on p until ctx ends or p dies; summaries are
// "<session> <n>", unique in the run.
func (l *load) drive(p *nodetest.Proc, dead context.Context) {
	l.wg.Go(func() {
		for n := 0; l.ctx.Err() == nil && dead.Err() == nil; n++ {
			summary := fmt.Sprintf("%s %d", p.Session, n)
			cctx, cancel := context.WithTimeout(l.ctx, time.Minute)
			res, isErr, err := p.Client.Call(cctx, "agentreport", map[string]any{"summary": summary})
			cancel()
			if err != nil || isErr {
				l.notAcked.Add(1)
				if err != nil {
					return // the process is gone (or the run is over)
				}
				l.mu.Lock()
				if res["code"] == "outcome_unknown" {
					l.unknown[summary] = true
				} else {
					l.refused[summary] = true
				}
				l.mu.Unlock()
				continue
			}
			l.mu.Lock()
			l.acked[summary] = true
			l.mu.Unlock()
		}
	})
}

func run(ctx context.Context, bin string, rounds, procs int, seed uint64) (result, error) {
	start := time.Now()
	rnd := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	res := result{rounds: rounds, procs: procs, seed: seed}
	dir, err := os.MkdirTemp("", "clumsies-soak-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	if out, err := exec.Command(bin, "init", dir).CombinedOutput(); err != nil {
		return res, fmt.Errorf("init: %v: %s", err, out)
	}
	c, err := nodetest.Start(ctx, bin, dir, procs)
	if err != nil {
		return res, err
	}
	lctx, stopLoad := context.WithCancel(ctx)
	l := &load{ctx: lctx, acked: map[string]bool{}, refused: map[string]bool{}, unknown: map[string]bool{}}
	deaths := map[*nodetest.Proc]context.CancelFunc{}
	drive := func(p *nodetest.Proc) {
		dead, die := context.WithCancel(lctx)
		deaths[p] = die
		l.drive(p, dead)
	}
	for _, p := range c.Procs {
		drive(p)
	}
	for i := range rounds {
		if ctx.Err() != nil {
			break
		}
		time.Sleep(time.Duration(50+rnd.IntN(250)) * time.Millisecond) // load in between
		owner, err := c.Owner()
		if err != nil {
			stopLoad()
			return res, fmt.Errorf("round %d: %w", i+1, err)
		}
		victim := owner
		if rnd.IntN(2) == 0 {
			others := make([]*nodetest.Proc, 0, len(c.Procs))
			for _, p := range c.Procs {
				if p != owner {
					others = append(others, p)
				}
			}
			victim = others[rnd.IntN(len(others))]
			res.others++
		} else {
			res.ownerKills++
		}
		if err := c.Kill(victim); err != nil {
			stopLoad()
			return res, fmt.Errorf("round %d: kill: %w", i+1, err)
		}
		deaths[victim]()
		p, err := c.Add(ctx)
		if err != nil {
			stopLoad()
			return res, fmt.Errorf("round %d: start a replacement: %w", i+1, err)
		}
		drive(p)
		fmt.Fprintf(os.Stderr, "\rround %d/%d", i+1, rounds)
	}
	fmt.Fprintln(os.Stderr)
	stopLoad()
	l.wg.Wait()
	if err := c.Close(); err != nil {
		return res, fmt.Errorf("close: %w", err)
	}
	res.acked, res.notAcked = len(l.acked), int(l.notAcked.Load())

	counts, err := ledger(bin, dir)
	if err != nil {
		return res, err
	}
	for _, n := range counts {
		res.stored++
		if n > 1 {
			res.twice++
		}
	}
	for summary := range l.acked {
		if counts[summary] == 0 {
			res.lost++
		}
	}
	res.refused = len(l.refused)
	for summary := range l.refused {
		if counts[summary] > 0 {
			res.refusedStored++
		}
	}
	res.unknown = len(l.unknown)
	for summary := range l.unknown {
		if counts[summary] > 0 {
			res.unknownStored++
		}
	}
	res.verify = "ok"
	if out, err := exec.Command(bin, "verify", "--workspace", dir).CombinedOutput(); err != nil {
		res.verify = fmt.Sprintf("FAILED: %v: %s", err, bytes.TrimSpace(out))
	}
	res.took = time.Since(start)
	return res, nil
}

// ledger counts the stored agentreport calls by summary.
func ledger(bin, dir string) (map[string]int, error) {
	out, err := exec.Command(bin, "events", "--workspace", dir, "--json", "--type", "attest.agent_report").Output()
	if err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	counts := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev struct {
			Outcome string `json:"outcome"`
			Data    struct {
				Summary string `json:"summary"`
			} `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return nil, fmt.Errorf("events: %q: %w", sc.Text(), err)
		}
		if ev.Outcome == "ok" {
			counts[ev.Data.Summary]++
		}
	}
	return counts, sc.Err()
}
