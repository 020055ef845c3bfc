package main_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/browser"
)

// browse starts a headless Chromium for the test and returns a tab of it
// on the dashboard at base; both close when the test ends.
func browse(tb testing.TB, base string) *page {
	tb.Helper()
	b, tab := browser.ForTest(tb)
	return &page{tb: tb, ctx: tab, b: b, base: base}
}
