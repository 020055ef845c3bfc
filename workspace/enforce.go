package workspace

import "fmt"

// EnforceMode is what the pre-tool gate does when an agent is about to
// change a file that rules it has not loaded apply to (docs/rules.md).
type EnforceMode string

// The enforce modes.
const (
	EnforceOff   EnforceMode = "off"   // the gate answers neutrally (the default)
	EnforceWarn  EnforceMode = "warn"  // the gate lets the tool run and tells the agent what to load
	EnforceBlock EnforceMode = "block" // the gate denies the tool until the rules are loaded
)

// EnforceConfig is the [enforce] table of config.toml.
type EnforceConfig struct {
	Mode EnforceMode `toml:"mode"`
}

// Effective returns the mode, off when unset.
func (c EnforceConfig) Effective() EnforceMode {
	if c.Mode == "" {
		return EnforceOff
	}
	return c.Mode
}

// check says what is wrong with the table, or nil.
func (c EnforceConfig) check() error {
	switch c.Effective() {
	case EnforceOff, EnforceWarn, EnforceBlock:
		return nil
	}
	return fmt.Errorf("enforce mode %q: want \"off\", \"warn\" or \"block\"", c.Mode)
}
