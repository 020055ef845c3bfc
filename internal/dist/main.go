package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
)

func main() {
	out := flag.String("out", "dist", "the folder that receives the archives (archives and sums of an earlier run are replaced)")
	root := flag.String("root", ".", "the module's root: what is built, and where README.md and LICENSE are")
	version := flag.String("version", "", "the version to stamp (-X main.ldVersion) and to name the archives with; empty: the module's")
	only := flag.String("targets", "", "comma-separated GOOS/GOARCH to build instead of all; \"host\" is this machine's")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	targets := Targets
	if *only != "" {
		targets = nil
		for _, t := range strings.Split(*only, ",") {
			if t == "host" {
				t = runtime.GOOS + "/" + runtime.GOARCH
			}
			targets = append(targets, t)
		}
	}
	files, err := Run(ctx, Options{Root: *root, Out: *out, Version: *version, Targets: targets})
	if err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
	for _, f := range files {
		fmt.Println(f)
	}
}
