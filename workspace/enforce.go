package workspace

import (
	"fmt"

	"github.com/BurntSushi/toml"
)

// EnforceMode is what the pre-tool gate does when an agent is about to
// change a file that rules it has not loaded apply to (docs/rules.md).
type EnforceMode string

// The enforce modes.
const (
	EnforceOff   EnforceMode = "off"   // the gate answers neutrally (the default)
	EnforceWarn  EnforceMode = "warn"  // the gate lets the tool run and tells the agent what to load
	EnforceBlock EnforceMode = "block" // the gate denies the tool until the rules are loaded
)

// FailMode is what the gate does when it cannot check (no catalog, an
// owner that does not answer): let the tool run and record that it was
// unchecked (open), or deny it saying why (closed).
type FailMode string

// The fail modes.
const (
	FailOpen   FailMode = "open"   // an unchecked tool runs, recorded as unchecked (the default)
	FailClosed FailMode = "closed" // an unchecked tool is denied in block mode
)

// ChecksRun is the value of [enforce] checks that lets the command checks
// (run:) of the repository's own rules run; unset, only pattern checks run.
const ChecksRun = "run"

// EnforceConfig is the [enforce] table of config.toml.
type EnforceConfig struct {
	Mode EnforceMode `toml:"mode"`
	// Fail is what the gate does when it cannot check; FailOpen when unset.
	Fail FailMode `toml:"fail"`
	// Checks is ChecksRun to run the command checks of the repository's
	// own rules at the end of a turn; "" (the default) runs none.
	Checks string `toml:"checks"`
}

// RunsCommands reports whether command checks run: checks = "run".
func (c EnforceConfig) RunsCommands() bool { return c.Checks == ChecksRun }

// Effective returns the mode, off when unset.
func (c EnforceConfig) Effective() EnforceMode {
	if c.Mode == "" {
		return EnforceOff
	}
	return c.Mode
}

// FailClosed reports whether a check that cannot be made denies the tool:
// fail = "closed" in block mode.
func (c EnforceConfig) FailClosed() bool {
	return c.Effective() == EnforceBlock && c.Fail == FailClosed
}

// check says what is wrong with the table, or nil.
func (c EnforceConfig) check() error {
	switch c.Effective() {
	case EnforceOff, EnforceWarn, EnforceBlock:
	default:
		return fmt.Errorf("enforce mode %q: want \"off\", \"warn\" or \"block\"", c.Mode)
	}
	switch c.Checks {
	case "", ChecksRun:
	default:
		return fmt.Errorf("enforce checks %q: want \"run\" to run the rules' command checks, or leave it out", c.Checks)
	}
	switch c.Fail {
	case "", FailOpen, FailClosed:
		return nil
	}
	return fmt.Errorf("enforce fail %q: want \"open\" or \"closed\"", c.Fail)
}

// heldEnforce is the gate of a wrong [enforce] table (p), which fails
// closed: each of its settings written correctly is kept, and the others
// take the strictest value the table could have meant: mode block (a
// missing mode too, since the wrong setting may be a misspelt one), fail
// closed, and command checks only where checks = "run" is written. So a
// table whose mode = "off" is written correctly stays off, and neither a
// typo nor a corruption of the table turns off a gate it does not say is
// off.
func heldEnforce(md *toml.MetaData, p toml.Primitive) EnforceConfig {
	held := EnforceConfig{Mode: EnforceBlock, Fail: FailClosed}
	var raw map[string]any
	if md.PrimitiveDecode(p, &raw) != nil {
		return held // not a table at all
	}
	if s, ok := raw["mode"].(string); ok && s != "" && (EnforceConfig{Mode: EnforceMode(s)}).check() == nil {
		held.Mode = EnforceMode(s)
	}
	if s, ok := raw["fail"].(string); ok && s != "" && (EnforceConfig{Fail: FailMode(s)}).check() == nil {
		held.Fail = FailMode(s)
	}
	if s, ok := raw["checks"].(string); ok && s == ChecksRun {
		held.Checks = ChecksRun
	}
	return held
}
