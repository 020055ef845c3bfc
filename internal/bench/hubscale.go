package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Sizes of the hubscale section.
const (
	// scaleJoinEvents is what each node appends as it joins.
	scaleJoinEvents = 10
	// scaleJoinRequests bounds the join requests in flight: the hub's API
	// takes at most 64 connections from one address, and every node of
	// the bench dials from loopback.
	scaleJoinRequests = 8
	// scaleStormJoins is the join storm's requests in flight: under the
	// API's 64 connections per client address, which the storm's nodes
	// share with the probe's and the bench's other requests.
	scaleStormJoins = 32
	// scaleStarts bounds the node servers starting at once in the bench
	// process: a thousand at once timed out their own in-process
	// connections on 2 cores.
	scaleStarts = 32
	// scaleRate is each node's steady append rate, events per second.
	scaleRate = 1
)

// benchHubScale measures a hub process, then a cluster of three, with
// b.hubNodes light nodes: the join storm, the hub's memory per node, its
// idle CPU, append-to-visible under a steady load from every node, and
// the catch-up after a hub is killed.
func benchHubScale(ctx context.Context, b *bench) error {
	n := b.hubNodes
	b.printf("## Hub at scale (issue 23)\n\n%d light nodes (an embedded server of the node's domain with its leaf link and the workspace's ledger stream, no read models) in the bench process, each joined through the hub's API with its own node key, as `hub join` does (at most %d join requests in flight: the API takes 64 connections per client address). Hubs are `clumsies hub serve` processes. Load average at the start: %s.\n\n", n, scaleJoinRequests, loadAvg())
	for _, hubs := range b.hubSizes {
		if err := hubScale(ctx, b, hubs, n); err != nil {
			return fmt.Errorf("%d hubs: %w", hubs, err)
		}
	}
	return nil
}

// scaleRun is one run of the section: its hubs and nodes.
type scaleRun struct {
	b     *bench
	hubs  []*hubProc
	nodes []*leafNode
	// events is how many events the nodes appended in all.
	events uint64
	// curves are each hub's samples of the soak, one per minute.
	curves [][]soakPoint
}

func hubScale(ctx context.Context, b *bench, hubs, n int) error {
	hps, err := newHubProcs(b, hubs)
	if err != nil {
		return err
	}
	r := &scaleRun{b: b, hubs: hps}
	defer r.close()
	what := "One hub"
	if hubs > 1 {
		what = fmt.Sprintf("A cluster of %d hubs (R3 aggregate), node i linked to hub i mod %d; memory and CPU summed over the %d processes", hubs, hubs, hubs)
	}
	// Each row is printed as soon as it is measured: a later phase that
	// fails leaves the earlier figures.
	b.printf("### %s, %d nodes\n\nLoad average at the start: %s.\n\n| measure | figure |\n|---|---|\n", what, n, loadAvg())
	if err := r.startHubs(); err != nil {
		return err
	}
	time.Sleep(2 * time.Second) // let the hubs settle before reading their memory
	freshEach := r.rssEach()
	fresh := freshEach.total()
	regWrites := r.sourceWritesEach(ctx)
	regStart := time.Now()
	joins, err := r.register(ctx, n)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	registered := time.Since(regStart)
	k := min(100, max(1, n/10))
	early, late := joins[:k], joins[n-k:]
	joinedEach := r.rssEach()
	joined := joinedEach.total()
	if k := b.unknownInvites.Swap(0); k > 0 {
		b.printf("| joins answered \"join token unknown\" right after their invite, asked again a second later | %d |\n", k)
	}
	b.printf("| joins: %d nodes invited and joined through the API, offline, %d requests in flight | all in %.1f s (%.1f joins/s); a join of the first %d p50 %.0f ms, p99 %.0f ms; of the last %d p50 %.0f ms, p99 %.0f ms (last/first %.2fx at p50, %.2fx at p99); hub RSS %s at the end |\n", n, scaleJoinRequests, registered.Seconds(), float64(n)/registered.Seconds(), k, ms(percentile(early, 50)), ms(percentile(early, 99)), k, ms(percentile(late, 50)), ms(percentile(late, 99)), ratio(percentile(late, 50), percentile(early, 50)), ratio(percentile(late, 99), percentile(early, 99)), joinedEach)
	b.printf("| join cost by tenth of the joins, in the order sent: p50 / p99 ms | %s |\n", joinCurve(joins))
	b.printf("| writes of the aggregate's sources during the joins, in all: by hub (their time) | %s |\n", r.sourceWritesEach(ctx).since(regWrites))
	if err := r.restartHubs(); err != nil {
		return err
	}
	time.Sleep(2 * time.Second)
	beforeEach := r.rssEach()
	before := beforeEach.total()
	b.printf("| hub RSS after the joins; the hubs restarted with the same %d nodes registered, none linked | %s; %s (%.2fx) |\n", n, joinedEach, beforeEach, float64(before)/float64(joined))
	stormWrites := r.sourceWritesEach(ctx)
	storm, linked, err := r.linkStorm(ctx)
	if err != nil {
		return fmt.Errorf("link storm: %w", err)
	}
	b.printf("| writes of the aggregate's sources during the link storm, in all: by hub (their time) | %s |\n", r.sourceWritesEach(ctx).since(stormWrites))
	if k := b.nodeRetries.Swap(0); k > 0 {
		b.printf("| light nodes' requests to their own servers asked again after 5 s without an answer (the bench process's load) | %d |\n", k)
	}
	afterEach := r.rssEach()
	after := afterEach.total()
	b.printf("| link storm: the hubs restarted, then every node starts (%d at once in the bench process), dials and appends %d events | all linked %.1f s, all %d events in the hubs' read models %.1f s (%.1f s after the last link) |\n", scaleStarts, scaleJoinEvents, linked.Seconds(), n*scaleJoinEvents, storm.Seconds(), (storm - linked).Seconds())
	b.printf("| hub RSS: fresh; restarted with %d nodes registered, none linked; all linked | %s; %s; %s |\n", n, freshEach, beforeEach, afterEach)
	b.printf("| hub RSS per node over the fresh hub, all linked; of the links alone | %.2f MiB; %.2f MiB |\n", mib(after-fresh)/float64(n), mib(after-before)/float64(n))
	if err := r.joinStorm(ctx, max(10, n/10), scaleStormJoins); err != nil {
		return fmt.Errorf("join storm: %w", err)
	}
	idle := 60 * time.Second
	if b.quick {
		idle = 10 * time.Second
	}
	b.printf("| hub CPU while idle (%s, every node linked) | %.1f%% of one core |\n", idle, r.idleCPU(idle))
	steadyFor := 60 * time.Second
	if b.quick {
		steadyFor = 10 * time.Second
	}
	lat, err := r.steady(ctx, steadyFor)
	if err != nil {
		return fmt.Errorf("steady load: %w", err)
	}
	b.printf("| append to visible in the hub's read models (node status), %d ev/s from every node (%d ev/s), %s, %d probes (one every %s at most, each at the next node) | p50 %.1f ms, p99 %.1f ms; hub RSS after it %s |\n", scaleRate, len(r.nodes)*scaleRate, steadyFor, len(lat), scaleProbeEvery, ms(percentile(lat, 50)), ms(percentile(lat, 99)), r.rssEach())
	per := 100
	if b.quick {
		per = 20
	}
	cu, err := r.catchUp(ctx, per)
	if err != nil {
		return fmt.Errorf("catch-up: %w", err)
	}
	b.printf("| catch-up: hub 1 killed (SIGKILL), %d events appended per node (%d), hub started again | API up %.1f s, every link up %.1f s, all in every hub's read models %.1f s |\n\nLoad average at the end: %s.\n\n", per, n*per, cu.api.Seconds(), cu.links.Seconds(), cu.all.Seconds(), loadAvg())
	for _, hp := range r.hubs {
		if err := hp.countExact(ctx, r.events); err != nil {
			return fmt.Errorf("after the catch-up: %w", err)
		}
	}
	if b.hubSoak > 0 {
		return r.soak(ctx, b.hubSoak)
	}
	return nil
}

// ratio is a / b, 0 if b is 0.
func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// joinCurve gives the p50 and p99 of each tenth of joins, in order.
func joinCurve(joins []time.Duration) string {
	var parts []string
	for i := range 10 {
		part := joins[i*len(joins)/10 : (i+1)*len(joins)/10]
		if len(part) == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%.0f / %.0f", ms(percentile(part, 50)), ms(percentile(part, 99))))
	}
	return strings.Join(parts, "; ")
}

// loadAvg is the machine's load average (1, 5, 15 minutes).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func (r *scaleRun) startHubs() error {
	for _, hp := range r.hubs {
		if err := hp.start(); err != nil {
			return err
		}
	}
	for _, hp := range r.hubs {
		if err := hp.ready(); err != nil {
			return err
		}
	}
	return nil
}

func (r *scaleRun) close() {
	var wg sync.WaitGroup
	for _, ln := range r.nodes {
		wg.Add(1)
		go func() { defer wg.Done(); ln.close() }()
	}
	wg.Wait()
	for _, hp := range r.hubs {
		hp.stop()
	}
}

// rssEach is each hub's resident memory in KiB, read at once.
func (r *scaleRun) rssEach() rssSample {
	out := make(rssSample, len(r.hubs))
	for i, hp := range r.hubs {
		out[i] = hp.rss()
	}
	return out
}

// rssSample is the resident memory of each hub of a run, in KiB.
type rssSample []int64

func (s rssSample) total() (sum int64) {
	for _, k := range s {
		sum += k
	}
	return sum
}

// String is the sum in MiB, and with several hubs each hub's in brackets.
func (s rssSample) String() string {
	out := fmt.Sprintf("%.0f MiB", mib(s.total()))
	if len(s) > 1 {
		each := make([]string, len(s))
		for i, k := range s {
			each[i] = fmt.Sprintf("%.0f", mib(k))
		}
		out += " (" + strings.Join(each, ", ") + ")"
	}
	return out
}

// register joins n nodes through the hubs' API, at most
// scaleJoinRequests at once, none of them linked yet; it returns the time
// of each join, in the order the joins were sent.
func (r *scaleRun) register(ctx context.Context, n int) ([]time.Duration, error) {
	nodes, took, err := r.join(ctx, n, scaleJoinRequests, nil)
	if err != nil {
		return nil, err
	}
	r.nodes = nodes
	return took, nil
}

// join joins n new nodes through the hubs' API, at most inFlight at
// once, and returns them with the time of each join, in the order the
// joins were sent. New node i joins at the hub of the run's node it will
// be (hub (len(r.nodes)+i) mod the hubs), and then, if not nil, runs
// then (outside the time of its join).
func (r *scaleRun) join(ctx context.Context, n, inFlight int, then func(*leafNode) error) ([]*leafNode, []time.Duration, error) {
	offset := len(r.nodes)
	sem := make(chan struct{}, inFlight)
	nodes := make([]*leafNode, n)
	took := make([]time.Duration, n)
	errs := make([]error, n)
	var sent atomic.Int64
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			k := sent.Add(1) - 1
			jctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
			defer cancel()
			start := time.Now()
			nodes[i], errs[i] = joinLeaf(jctx, r.b, r.hubs[(offset+i)%len(r.hubs)], "bench")
			took[k] = time.Since(start)
			if errs[i] == nil && then != nil {
				errs[i] = then(nodes[i])
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	return nodes, took, nil
}

// restartHubs stops the hubs and starts them again: their servers then
// start with every node's account in their configuration.
func (r *scaleRun) restartHubs() error {
	for _, hp := range r.hubs {
		hp.stop()
	}
	return r.startHubs()
}

// linkStorm starts every node, scaleStarts at once, each appending
// scaleJoinEvents as
// it starts; it returns the time until every hub's read models hold every
// event, and until every node was linked.
func (r *scaleRun) linkStorm(ctx context.Context) (all, linked time.Duration, err error) {
	start := time.Now()
	errs := make([]error, len(r.nodes))
	sem := make(chan struct{}, scaleStarts)
	var wg sync.WaitGroup
	for i, ln := range r.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if errs[i] = ln.start(ctx); errs[i] != nil {
				return
			}
			_, errs[i] = ln.appendN(ctx, scaleJoinEvents)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, 0, err
	}
	if err := r.waitLinked(3 * time.Minute); err != nil {
		return 0, 0, err
	}
	linked = time.Since(start)
	r.events = uint64(len(r.nodes) * scaleJoinEvents)
	if err := r.waitAll(ctx, 15*time.Minute); err != nil {
		return 0, 0, err
	}
	return time.Since(start), linked, nil
}

// waitLinked waits until every node's leaf link is up.
func (r *scaleRun) waitLinked(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		down := 0
		for _, ln := range r.nodes {
			if !ln.srv.Linked() {
				down++
			}
		}
		if down == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d nodes not linked within %s", down, len(r.nodes), limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitAll waits until every hub's read models applied every event the
// nodes appended, then checks that each hub's stats count them exactly.
func (r *scaleRun) waitAll(ctx context.Context, limit time.Duration) error {
	for _, hp := range r.hubs {
		if _, err := hp.waitApplied(ctx, r.events, limit); err != nil {
			return err
		}
	}
	for _, hp := range r.hubs {
		if err := hp.countExact(ctx, r.events); err != nil {
			return err
		}
	}
	return nil
}

// idleCPU returns the hubs' CPU over d with every node linked and none
// appending, in percent of one core.
func (r *scaleRun) idleCPU(d time.Duration) float64 {
	sum := func() (t int64) {
		for _, hp := range r.hubs {
			t += hp.cpuTicks()
		}
		return t
	}
	before := sum()
	time.Sleep(d)
	return float64(sum()-before) / clockTicks / d.Seconds() * 100
}
