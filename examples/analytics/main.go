// Command analytics is an example analytics consumer of a clumsies ledger.
// It reads a workspace's tool events from its JetStream stream through a
// durable pull consumer and keeps live counts: refs per rule and per
// constraint, calls and errors per tool, and sessions. It prints them every
// --every and when stopped (Ctrl-C).
//
// Each event is acknowledged after it is counted, so a restart continues
// with the first event not yet acknowledged. With --state the counts are
// saved before the acks and loaded on start, so the totals survive a
// restart and no event is counted twice.
//
//	go run ./examples/analytics --nats nats://127.0.0.1:4333 --token T --workspace ws-1234
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/clumsies/clumsies/events"
)

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "analytics:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "analytics:", err)
		os.Exit(1)
	}
}

// parseFlags reads the command line.
func parseFlags(args []string, errOut io.Writer) (config, error) {
	fs := flag.NewFlagSet("analytics", flag.ContinueOnError)
	fs.SetOutput(errOut)
	var cfg config
	fs.StringVar(&cfg.url, "nats", "nats://127.0.0.1:4333", "NATS server URL (clumsies serve --nats-listen)")
	fs.StringVar(&cfg.token, "token", os.Getenv("CLUMSIES_NATS_TOKEN"), "client token (clumsies serve --nats-token); default $CLUMSIES_NATS_TOKEN")
	fs.StringVar(&cfg.ws, "workspace", "", "workspace id (ws-...); its stream is CLUMSIES_<id>")
	fs.StringVar(&cfg.stream, "stream", "", "stream name, instead of the workspace's (without --workspace: count every workspace in it)")
	fs.StringVar(&cfg.durable, "durable", "analytics", "durable consumer name: the server remembers its position")
	fs.DurationVar(&cfg.every, "every", 10*time.Second, "how often to print the counts")
	fs.StringVar(&cfg.state, "state", "", "file to keep the counts in across restarts (optional)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	switch {
	case fs.NArg() > 0:
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case cfg.ws == "" && cfg.stream == "":
		return config{}, errors.New("give --workspace ws-... or --stream NAME")
	case cfg.ws != "" && !events.ValidWorkspaceID(cfg.ws):
		return config{}, fmt.Errorf("--workspace %q is not a workspace id (ws-...)", cfg.ws)
	case cfg.durable == "":
		return config{}, errors.New("--durable must not be empty")
	case cfg.every <= 0:
		return config{}, errors.New("--every must be positive")
	}
	return cfg, nil
}

// run counts events until ctx ends, printing the counts every cfg.every
// and once more at the end.
func run(ctx context.Context, cfg config, out io.Writer) error {
	c, err := openConsumer(ctx, cfg)
	if err != nil {
		return err
	}
	defer c.close()
	next := time.Now().Add(cfg.every)
	for ctx.Err() == nil {
		if _, err := c.pull(ctx); err != nil {
			if ctx.Err() != nil {
				break // stopping: a pull cut short is not a failure
			}
			return err
		}
		if time.Now().After(next) {
			if err := c.tally.print(out); err != nil {
				return fmt.Errorf("print counts: %w", err)
			}
			next = time.Now().Add(cfg.every)
		}
	}
	if err := c.tally.print(out); err != nil {
		return fmt.Errorf("print counts: %w", err)
	}
	return nil
}
