package browser

import (
	"context"
	"testing"
	"time"
)

// ForTest starts a browser for tb, with a profile in a temporary folder,
// and opens a tab of it; both close when tb ends. Starting or opening
// fails tb.
func ForTest(tb testing.TB) (*Browser, context.Context) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	tb.Cleanup(cancel)
	b, err := Start(ctx, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(b.Close)
	tab, closeTab, err := b.Tab()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(closeTab)
	return b, tab
}
