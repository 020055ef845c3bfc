package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// scaleProbeEvery paces the probe of steady, so that it adds little to
// the nodes' load.
const scaleProbeEvery = 20 * time.Millisecond

// steady has every node append scaleRate events per second for d while
// a probe appends at one node after another and times each event until
// the hub the node is linked to shows it in its read models (the node's
// status: the last sequence of the node's ledger the hub applied).
func (r *scaleRun) steady(ctx context.Context, d time.Duration) ([]time.Duration, error) {
	lctx, stop := context.WithTimeout(ctx, d)
	defer stop()
	load := r.startLoad(ctx, lctx, time.Second/scaleRate)
	lat, err := r.probe(ctx, lctx, 0)
	if err != nil {
		return nil, err
	}
	if err := load(); err != nil {
		return nil, err
	}
	if err := r.waitAll(ctx, 5*time.Minute); err != nil {
		return nil, err
	}
	return lat, nil
}

// startLoad has every node append an event every period, the nodes
// spread over the period, until lctx ends; the function it returns waits
// for the nodes to stop and counts what they appended in r.events.
func (r *scaleRun) startLoad(ctx, lctx context.Context, every time.Duration) func() error {
	var appended atomic.Uint64
	var wg sync.WaitGroup
	errs := make(chan error, len(r.nodes))
	for _, ln := range r.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Spread the nodes over the period.
			select {
			case <-lctx.Done():
				return
			case <-time.After(rand.N(every)):
			}
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				if _, err := ln.appendN(ctx, 1); err != nil {
					errs <- err
					return
				}
				appended.Add(1)
				select {
				case <-lctx.Done():
					return
				case <-t.C:
				}
			}
		}()
	}
	return func() error {
		wg.Wait()
		close(errs)
		r.events += appended.Load()
		return errors.Join(collect(errs)...)
	}
}

// probe appends at one node after another, one every scaleProbeEvery at
// most, from node first on, until lctx ends, and returns the time from
// each append until the hub the node is linked to shows it in its read
// models; the events it appended are counted in r.events.
func (r *scaleRun) probe(ctx, lctx context.Context, first int) ([]time.Duration, error) {
	var lat []time.Duration
	t := time.NewTicker(scaleProbeEvery)
	defer t.Stop()
	for i := first; lctx.Err() == nil; i++ {
		select {
		case <-lctx.Done():
			continue
		case <-t.C:
		}
		k := i % len(r.nodes)
		ln, hp := r.nodes[k], r.hubs[k%len(r.hubs)]
		start := time.Now()
		seq, err := ln.appendN(ctx, 1)
		if err != nil {
			return nil, err
		}
		r.events++
		if err := r.waitVisible(ctx, hp, ln, seq); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(start))
	}
	return lat, nil
}

// waitVisible polls hp until its read models applied node ln's ledger
// through seq.
func (r *scaleRun) waitVisible(ctx context.Context, hp *hubProc, ln *leafNode, seq uint64) error {
	deadline := time.Now().Add(time.Minute)
	cl := hp.admin()
	for {
		st, err := cl.NodeStatus(ctx, ln.id.NodeID)
		if err == nil && st.HubSeq >= seq {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("node %s's event %d not visible at hub %s within a minute (last error: %v)", ln.id.NodeID, seq, hp.cfg.Name, err)
		}
		time.Sleep(500 * time.Microsecond)
	}
}

func collect(errs <-chan error) []error {
	var out []error
	for err := range errs {
		out = append(out, err)
	}
	return out
}

// catchUpTimes are the times of a catch-up from the hub's start.
type catchUpTimes struct{ api, links, all time.Duration }

// catchUp kills the first hub, has every node append per events while it
// is down, starts it again and times its API, every node's link and
// every event in every hub's read models.
func (r *scaleRun) catchUp(ctx context.Context, per int) (catchUpTimes, error) {
	var out catchUpTimes
	hp := r.hubs[0]
	hp.kill()
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	errs := make(chan error, len(r.nodes))
	for _, ln := range r.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if _, err := ln.appendN(ctx, per); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := errors.Join(collect(errs)...); err != nil {
		return out, err
	}
	r.events += uint64(per * len(r.nodes))
	start := time.Now()
	if err := hp.start(); err != nil {
		return out, err
	}
	if err := hp.ready(); err != nil {
		return out, err
	}
	out.api = time.Since(start)
	if err := r.waitLinked(5 * time.Minute); err != nil {
		return out, err
	}
	out.links = time.Since(start)
	for _, hp := range r.hubs {
		if _, err := hp.waitApplied(ctx, r.events, 15*time.Minute); err != nil {
			return out, err
		}
	}
	out.all = time.Since(start)
	return out, nil
}
