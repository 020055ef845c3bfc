package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// AxeScript is where `make interop-deps` (npm ci in interop/) puts
// axe-core's script, relative to the module's root.
const AxeScript = "interop/node_modules/axe-core/axe.min.js"

// Violation is one rule of axe-core that the page breaks: its id, impact
// (minor, moderate, serious, critical), what it checks and the elements
// that break it (their CSS selectors and axe's summary of the failure).
type Violation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target         []any  `json:"target"`
		FailureSummary string `json:"failureSummary"`
	} `json:"nodes"`
}

// String names the violation and its first elements.
func (v Violation) String() string {
	s := fmt.Sprintf("%s (%s): %s", v.ID, v.Impact, v.Help)
	for i, n := range v.Nodes {
		if i == 3 {
			s += fmt.Sprintf(" ... and %d more", len(v.Nodes)-3)
			break
		}
		s += fmt.Sprintf("; %v", n.Target)
	}
	return s
}

// Serious reports whether axe-core rates v serious or critical.
func (v Violation) Serious() bool { return v.Impact == "serious" || v.Impact == "critical" }

// Axe runs axe-core on the page of the tab ctx and returns the rules it
// breaks. The script is read from AxeScript under the module's root,
// found from the working folder up; without it the error says to run
// `make interop-deps`.
func Axe(ctx context.Context) ([]Violation, error) {
	script, err := readAxe()
	if err != nil {
		return nil, err
	}
	// The pages' Content-Security-Policy takes scripts of the server only.
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true})
		return err
	})); err != nil {
		return nil, fmt.Errorf("browser: let axe-core past the page's policy: %w", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](string(script)+";\ntrue")); err != nil {
		return nil, fmt.Errorf("browser: load axe-core: %w", err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`axe.run(document, {resultTypes: ["violations"]}).then((r) => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, fmt.Errorf("browser: run axe-core: %w", err)
	}
	var out []Violation
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, fmt.Errorf("browser: read axe-core's answer: %w", err)
	}
	return out, nil
}

// Scheme makes the tab ctx prefer the color scheme "light" or "dark"
// (the media feature prefers-color-scheme).
func Scheme(ctx context.Context, scheme string) error {
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		if err != nil {
			return fmt.Errorf("browser: prefer the %s scheme: %w", scheme, err)
		}
		return nil
	}))
}

func readAxe() ([]byte, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("browser: find axe-core: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			b, err := os.ReadFile(filepath.Join(dir, AxeScript))
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("browser: axe-core is not installed at %s: run `make interop-deps` (npm ci in interop/)", filepath.Join(dir, AxeScript))
			}
			if err != nil {
				return nil, fmt.Errorf("browser: read axe-core: %w", err)
			}
			return b, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return nil, fmt.Errorf("browser: find axe-core: no go.mod above the working folder")
		}
		dir = up
	}
}
