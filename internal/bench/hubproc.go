package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// hubProc is a `clumsies hub serve` process of the bench, so that its
// memory and CPU are its own.
type hubProc struct {
	b     *bench
	cfg   *hub.Config
	token string
	cmd   *exec.Cmd
	// pprof is the address of its profiles (hub serve --pprof).
	pprof string
}

// newHubProcs writes the folders of n hubs on free loopback ports: one
// hub alone, or n > 1 hubs routed to each other as one cluster sharing
// the first one's admin token.
func newHubProcs(b *bench, n int) ([]*hubProc, error) {
	// Each hub's leaf, API and profile addresses, and its route's in a
	// cluster: all distinct.
	per := 3
	if n > 1 {
		per = 4
	}
	all, err := freeLoopbacks(n * per)
	if err != nil {
		return nil, err
	}
	var routes []string
	if n > 1 {
		for i := range n {
			routes = append(routes, all[i*per+3])
		}
	}
	var hps []*hubProc
	for i := range n {
		addrs := all[i*per : i*per+3]
		c := hub.Config{Name: fmt.Sprintf("bench-%d", i+1), Data: "data", Leaf: addrs[0], HTTP: addrs[1]}
		if n > 1 {
			c.Cluster = hub.ClusterConfig{Name: "bench", Listen: routes[i]}
			for j, r := range routes {
				if j != i {
					c.Cluster.Routes = append(c.Cluster.Routes, "nats-route://"+r)
				}
			}
		}
		dir := b.tempDir("hub")
		if _, err := hub.Init(dir, c); err != nil {
			return nil, err
		}
		if i > 0 {
			if err := copyAdminToken(hps[0].cfg, dir); err != nil {
				return nil, err
			}
		}
		cfg, err := hub.ReadConfig(dir)
		if err != nil {
			return nil, err
		}
		token, err := cfg.AdminToken()
		if err != nil {
			return nil, err
		}
		hps = append(hps, &hubProc{b: b, cfg: cfg, token: token, pprof: addrs[2]})
	}
	return hps, nil
}

// copyAdminToken gives the hub in dir the admin token of from.
func copyAdminToken(from *hub.Config, dir string) error {
	tok, err := os.ReadFile(filepath.Join(from.DataDir(), "admin.token"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "data", "admin.token"), tok, 0o600)
}

// start starts the process; it does not wait for it.
func (hp *hubProc) start() error {
	hp.cmd = exec.Command(hp.b.bin, "hub", "serve", "--hub", hp.cfg.Dir(), "--log-level", "error", "--pprof", hp.pprof)
	hp.cmd.Stderr = os.Stderr
	return hp.cmd.Start()
}

// ready waits until the hub's API answers.
func (hp *hubProc) ready() error { return waitHTTP(hp.cfg.APIURL()+"/api/health", 3*time.Minute) }

// kill ends the process with SIGKILL.
func (hp *hubProc) kill() {
	if hp.cmd == nil {
		return
	}
	_ = hp.cmd.Process.Signal(syscall.SIGKILL)
	_ = hp.cmd.Wait()
	hp.cmd = nil
}

// stop ends the process with SIGINT.
func (hp *hubProc) stop() {
	if hp.cmd == nil {
		return
	}
	_ = hp.cmd.Process.Signal(os.Interrupt)
	_ = hp.cmd.Wait()
	hp.cmd = nil
}

func (hp *hubProc) admin() *hubwire.Client { return hubwire.NewClient(hp.cfg.APIURL(), hp.token) }

// rss is the process's resident memory in KiB.
func (hp *hubProc) rss() int64 { return rssKiB(hp.cmd.Process.Pid) }

// cpuTicks is the process's user and system CPU time in clock ticks.
func (hp *hubProc) cpuTicks() int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(hp.cmd.Process.Pid), "stat"))
	if err != nil {
		return 0
	}
	// The fields after the command's name, which is in parentheses:
	// utime and stime are the 14th and 15th fields of the line.
	_, rest, ok := strings.Cut(string(b), ") ")
	if !ok {
		return 0
	}
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/<pid>/stat's CPU
// times (100 on Linux).
const clockTicks = 100

// applied asks the hub for the last aggregate sequence its read models
// applied.
func (hp *hubProc) applied(ctx context.Context) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	h, err := hp.admin().Health(ctx)
	if err != nil {
		return 0, err
	}
	return h.Applied, nil
}

// waitApplied waits until the hub's read models applied want aggregate
// messages, and returns when they did.
func (hp *hubProc) waitApplied(ctx context.Context, want uint64, limit time.Duration) (time.Time, error) {
	deadline := time.Now().Add(limit)
	var have uint64
	for {
		got, err := hp.applied(ctx)
		if err == nil {
			have = got
			if have >= want {
				return time.Now(), nil
			}
		}
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("hub %s applied %d of %d events within %s (last error: %v)", hp.cfg.Name, have, want, limit, err)
		}
		if ctx.Err() != nil {
			return time.Time{}, ctx.Err()
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// countExact checks that the hub's stats count want events: their
// summary's totals, which stay bounded whatever the sessions (the lists
// are not walked). A busy hub may cut its answer short: the request is
// made again, a few times.
func (hp *hubProc) countExact(ctx context.Context, want uint64) error {
	var err error
	for range 5 {
		var st hubwire.Stats
		actx, cancel := context.WithTimeout(ctx, time.Minute)
		st, err = hp.admin().StatsSummary(actx, hubwire.StatsQuery{Days: 2})
		cancel()
		if err == nil {
			if st.Totals.Events != want {
				return fmt.Errorf("hub %s counts %d events, want %d", hp.cfg.Name, st.Totals.Events, want)
			}
			return nil
		}
		time.Sleep(time.Second)
	}
	return fmt.Errorf("read the stats of hub %s: %w", hp.cfg.Name, err)
}
