package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Path is where Debian installs Chromium; $CHROMIUM overrides it.
const Path = "/usr/bin/chromium"

// ErrMissing means there is no Chromium to run.
var ErrMissing = errors.New("browser: chromium is not installed")

// Browser is one headless Chromium; Tabs share it.
type Browser struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	errors []string
}

// Start starts Chromium with a fresh profile in profileDir. Close ends it.
func Start(ctx context.Context, profileDir string) (*Browser, error) {
	path := os.Getenv("CHROMIUM")
	if path == "" {
		path = Path
	}
	if _, err := exec.LookPath(path); err != nil {
		return nil, fmt.Errorf("%w at %s: install it with `apt-get update && apt-get install -y chromium` (sudo if not root), or set CHROMIUM to a Chromium binary", ErrMissing, path)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profileDir),
		chromedp.WindowSize(1366, 768),
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	b := &Browser{ctx: bctx, cancel: func() { bcancel(); acancel() }}
	if err := chromedp.Do(bctx); err != nil {
		b.cancel()
		return nil, fmt.Errorf("browser: start %s: %w", path, err)
	}
	return b, nil
}

// Tab opens a new tab whose console errors and uncaught exceptions are
// collected (see Errors). Cancel the context to close it.
func (b *Browser) Tab() (context.Context, context.CancelFunc, error) {
	ctx, cancel := chromedp.NewContext(b.ctx)
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
				}
				b.addError("console.error: " + strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			msg := ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				msg += " " + ev.ExceptionDetails.Exception.Description
			}
			b.addError("exception: " + msg)
		}
	})
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("browser: open a tab: %w", err)
	}
	return ctx, cancel, nil
}

func (b *Browser) addError(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errors = append(b.errors, msg)
}

// Errors returns the console errors and exceptions seen so far and forgets
// them.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.errors
	b.errors = nil
	return out
}

// Close ends the browser.
func (b *Browser) Close() { b.cancel() }
