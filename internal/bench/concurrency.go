package main

import "context"

// benchConcurrency and benchTakeover belong to the multi-process work; they
// report what they cannot measure yet.
func benchConcurrency(ctx context.Context, b *bench) error {
	b.printf("## Concurrent sessions (issue: many agents on one workspace)\n\nNot measured yet.\n\n")
	return nil
}

func benchTakeover(ctx context.Context, b *bench) error {
	b.printf("## Owner takeover (issue: many agents on one workspace)\n\nNot measured yet.\n\n")
	return nil
}
