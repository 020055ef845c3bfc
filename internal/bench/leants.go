package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// leanTSRounds is how many rounds of blocks the TypeScript client makes
// after its warm-up, as alternate does for the go-sdk client.
const leanTSRounds = 8

// leanTSPlan is the lean comparison through the TypeScript client: serve
// on dir and the echo server, spawns alternating, then the go-sdk
// client's calls with the same arguments in the same alternating blocks:
// memload against the size-matched echo (serve's peak RSS read at its
// end), then memdisc against the echoes.
func leanTSPlan(b *bench, dir string, calls leanCalls, loads, discs, spawns int) tsPlan {
	echo := func(text string) map[string]any { return map[string]any{"text": text} }
	return tsPlan{
		Servers: map[string]tsServer{
			"serve": {
				Command: b.bin,
				Args:    []string{"serve", "--workspace", dir, "--sync", "interval"},
				Setup:   []tsCall{{Tool: "memsetup", Args: memsetupArgs("bench-lean-ts")}},
			},
			"echo": {Command: b.echo},
		},
		Spawns: spawns,
		Rounds: leanTSRounds,
		PeakOf: "serve",
		Phases: [][]tsStep{
			{
				{Name: "memload", Server: "serve", Tool: "memload", Args: calls.hit, PerBlock: loads / leanTSRounds},
				{Name: sizedEcho, Server: "echo", Tool: "echo", Args: echo(calls.loadText), PerBlock: loads / leanTSRounds},
			},
			{
				{Name: discSizedEcho, Server: "echo", Tool: "echo", Args: echo(calls.discText), PerBlock: discs / leanTSRounds},
				{Name: "memdisc", Server: "serve", Tool: "memdisc", Args: map[string]any{"query": leanTag}, PerBlock: discs / leanTSRounds},
				{Name: "echo", Server: "echo", Tool: "echo", Args: echo("hello"), PerBlock: discs / leanTSRounds},
			},
		},
	}
}

// leanTS runs leanTSPlan and prints its rows of the lean table; when
// node, npm or the npm packages cannot be had it prints a row saying so.
func leanTS(ctx context.Context, b *bench, dir string, calls leanCalls, goDiscSize, loads, discs, spawns int) error {
	r, err := runTSClient(ctx, leanTSPlan(b, dir, calls, loads, discs, spawns), os.Stderr)
	if errors.Is(err, errNoTSClient) {
		// The row gets the error's first line (npm's come many), stderr
		// all of it.
		first, _, _ := strings.Cut(err.Error(), "\n")
		fmt.Fprintf(os.Stderr, "the TypeScript client's rows are not measured: %v\n", err)
		b.printf("| TypeScript client | not measured: %s | | | not measured |\n", first)
		return nil
	}
	if err != nil {
		return err
	}
	p50 := func(name string) time.Duration { return percentile(r.lat(name), 50) }
	disc, echo, dsized := p50("memdisc"), p50("echo"), p50(discSizedEcho)
	b.printf("| TypeScript client (@modelcontextprotocol/sdk %s, node %s): memdisc (%d hits, %.1f KiB as it decodes it; go-sdk %.1f KiB) p50 µs vs echo | %.0f | %.0f | %.2fx | ≤ 2.5x: %s |\n",
		tsSDKVersion(), r.Node, leanRules/leanEvery, float64(r.Size["memdisc"])/1024, float64(goDiscSize)/1024, us(disc), us(echo), float64(disc)/float64(echo), verdict(float64(disc) <= 2.5*float64(echo)))
	b.printf("| TypeScript client: memdisc p50 µs vs echo (memdisc-sized answer, %.1f KiB) | %.0f | %.0f | %.2fx | |\n", float64(r.Size[discSizedEcho])/1024, us(disc), us(dsized), float64(disc)/float64(dsized))
	load, sized := p50("memload"), p50(sizedEcho)
	b.printf("| TypeScript client: memload (delta hit, %d B) p50 µs vs echo (memload-sized answer, %d B) | %.0f | %.0f | %.2fx | ≤ 1.1x: %s |\n",
		r.Size["memload"], r.Size[sizedEcho], us(load), us(sized), float64(load)/float64(sized), verdict(float64(load) <= 1.1*float64(sized)))
	b.printf("| TypeScript client: serve peak RSS MiB after the memloads (one server) | %.1f | | | |\n", float64(r.Peak[0])/1024)
	s50, e50 := p50("spawn serve"), p50("spawn echo")
	b.printf("| TypeScript client: spawn to initialize p50 ms vs echo | %.1f | %.1f | %.2fx | ≤ 2.5x: %s |\n",
		ms(s50), ms(e50), float64(s50)/float64(e50), verdict(float64(s50) <= 2.5*float64(e50)))
	return nil
}
