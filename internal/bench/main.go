package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// section is one group of measurements.
type section struct {
	name string
	run  func(ctx context.Context, b *bench) error
}

// bench carries the settings and the report of one run.
type bench struct {
	bin string // the built clumsies binary
	// vs, when set, is another clumsies build whose serve the lean
	// section times beside bin's, alternating in the same run.
	vs    string
	echo  string // the built echo baseline server
	quick bool
	tmp   string
	// leanPairs is how many pairs of fresh servers (telemetry off and on)
	// the lean section reads the peak RSS of.
	leanPairs int
	// profile, when set, is the file that receives a CPU profile of the
	// measured part of the sections that support it (rebuild).
	profile string
	// hubNodes is the node count of the hubscale section, hubSizes its
	// topologies (hub processes per run).
	hubNodes int
	hubSizes []int
	// longRun is how long the longrun section serves, longEvery how
	// often it samples the memory.
	longRun, longEvery time.Duration
	// hubSoak, when set, is how long the hubscale section's soak runs,
	// hubSoakRate each node's appends per second through it.
	hubSoak     time.Duration
	hubSoakRate float64
	// hubSoakStats, when set, is how often the soak reads every hub's
	// stats summary, as a dashboard left open redraws (soakReads).
	hubSoakStats time.Duration
	// unknownInvites counts the joins of light nodes asked again because
	// the hub did not know their invite yet (joinLeaf).
	unknownInvites atomic.Int64
	// nodeRetries counts the light nodes' requests to their own servers
	// asked again after a timeout (leafNode.again).
	nodeRetries atomic.Int64
	out         *strings.Builder
}

func (b *bench) printf(format string, args ...any) {
	fmt.Fprintf(b.out, format, args...)
	fmt.Fprintf(os.Stderr, format, args...)
}

// sections are the sections of make bench, in the order they run.
var sections = []section{
	// coldstart runs first: a child's peak RSS (getrusage) counts the
	// memory of the parent it was forked from, so it is measured while
	// this process is still small.
	{"coldstart", benchColdStart},
	{"startup", benchStartup},
	{"append", benchAppend},
	{"rebuild", benchRebuild},
	{"latency", benchLatency},
	{"otel", benchOTel},
	{"lean", benchLean},
	{"longrun", benchLongRun},
	{"lastblock", benchLastBlock},
	{"catalog", benchCatalog},
	{"growth", benchGrowth},
	{"concurrency", benchConcurrency},
	{"takeover", benchTakeover},
	{"hook", benchHook},
	{"pretool", benchPreTool},
	{"posttool", benchPostTool},
	{"enforce", benchEnforce},
	{"checks", benchChecks},
	{"liveedit", benchLiveEdit},
	{"hub", benchHub},
	{"hubscale", benchHubScale},
	{"hubjoins", benchHubJoins},
	{"hubsources", benchHubSources},
	{"hubfill", benchHubFill},
	{"hubstart", benchHubStart},
	{"hubstats", benchHubStats},
	{"hubstatschange", benchHubStatsChange},
	{"teamcatalog", benchTeamCatalog},
	{"chain", benchChain},
	{"export", benchExport},
	{"dashboard", benchDashboard},
	{"attest", benchAttest},
}

// sectionNames returns the names of the sections, in order.
func sectionNames() []string {
	names := make([]string, len(sections))
	for i, s := range sections {
		names[i] = s.name
	}
	return names
}

func main() {
	bin := flag.String("bin", "bin/clumsies", "the clumsies binary to measure")
	vs := flag.String("vs", "", "another clumsies build (main's, say): the lean section times its memloads and memdiscs too, alternating with -bin's in the same run")
	quick := flag.Bool("quick", false, "smaller sizes, for a smoke run")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the measured part of the rebuild section to this file (hubstats: the hub process's, during redraws after a change)")
	only := flag.String("only", "", "comma-separated sections to run: "+strings.Join(sectionNames(), ", "))
	hubSizes := flag.String("hub-sizes", "1,3", "the hubscale section's topologies: 1 (one hub), 3 (a cluster of three), or both")
	longRun := flag.Duration("longrun", 3*time.Minute, "how long the longrun section serves (30m for the long run; 1m with -quick unless set)")
	longEvery := flag.Duration("longrun-every", 30*time.Second, "how often the longrun section samples serve's memory")
	leanPairs := flag.Int("lean-pairs", leanPeakRounds, "how many pairs of fresh servers, telemetry off and on, the lean section reads the peak RSS of (the figures are their medians)")
	hubNodes := flag.Int("hub-nodes", 100, "how many nodes the hubscale section links to a hub (20 with -quick unless set)")
	hubSoak := flag.Duration("hub-soak", 0, "after the hubscale section's runs, every node appends for this long while the hubs' memory is sampled every minute (e.g. 30m; off by default)")
	hubSoakRate := flag.Float64("hub-soak-rate", scaleRate, "each node's appends per second during the -hub-soak (e.g. 0.5)")
	hubSoakStats := flag.Duration("hub-soak-stats", 0, "during the -hub-soak, read every hub's stats summary this often, as a dashboard left open does (e.g. 10s; off by default)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	tmp, err := os.MkdirTemp("", "clumsies-bench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	abs, err := filepath.Abs(*bin)
	if err != nil {
		fail(err)
	}
	if *vs != "" {
		if *vs, err = filepath.Abs(*vs); err != nil {
			fail(err)
		}
	}
	b := &bench{bin: abs, vs: *vs, quick: *quick, leanPairs: *leanPairs, tmp: tmp, out: &strings.Builder{}, profile: *profile, hubNodes: *hubNodes, longRun: *longRun, longEvery: *longEvery, hubSoak: *hubSoak, hubSoakRate: *hubSoakRate, hubSoakStats: *hubSoakStats}
	for _, f := range strings.Split(*hubSizes, ",") {
		switch strings.TrimSpace(f) {
		case "1":
			b.hubSizes = append(b.hubSizes, 1)
		case "3":
			b.hubSizes = append(b.hubSizes, 3)
		default:
			fail(fmt.Errorf("-hub-sizes %q: want 1, 3 or 1,3", *hubSizes))
		}
	}
	if *leanPairs < 1 {
		fail(fmt.Errorf("-lean-pairs %d: want at least 1 pair of servers", *leanPairs))
	}
	if *hubSoakStats < 0 || *hubSoakStats > 0 && *hubSoakStats < time.Second {
		fail(fmt.Errorf("-hub-soak-stats %v: want 0 (off) or at least 1s", *hubSoakStats))
	}
	if *hubSoakRate <= 0 || *hubSoakRate > 100 {
		fail(fmt.Errorf("-hub-soak-rate %v: want more than 0 and at most 100 events per second per node", *hubSoakRate))
	}
	if *quick && !flagSet("hub-nodes") {
		b.hubNodes = 20
	}
	if *quick && !flagSet("longrun") {
		b.longRun = time.Minute
	}
	if b.echo, err = buildEcho(tmp); err != nil {
		fail(err)
	}
	want := strings.Split(*only, ",")
	for _, w := range want {
		if *only != "" && !slices.Contains(sectionNames(), w) {
			fail(fmt.Errorf("-only: no section %q; the sections are %s", w, strings.Join(sectionNames(), ", ")))
		}
	}
	b.printf("# make bench: %s, %s/%s, %d CPUs, %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	for _, s := range sections {
		if *only != "" && !slices.Contains(want, s.name) {
			continue
		}
		start := time.Now()
		if err := s.run(ctx, b); err != nil {
			fail(fmt.Errorf("%s: %w", s.name, err))
		}
		fmt.Fprintf(os.Stderr, "(%s took %s)\n\n", s.name, time.Since(start).Round(time.Millisecond))
	}
	fmt.Print(b.out.String())
}

// flagSet reports whether the flag name was given.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}
