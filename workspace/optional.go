package workspace

import (
	"fmt"

	"github.com/BurntSushi/toml"
)

// A TableWrong is an optional table of config.toml ([enforce], [otel])
// that is wrong (a bad value, a value of the wrong type, an unknown
// setting in it). A mistake in one of them must not take the workspace
// down: every command works, serve says so on stderr and to the agent,
// stats and doctor name it. [otel] is turned off; [enforce], a security
// control, fails closed: the gate holds edits in the strictest mode the
// table could have meant (heldEnforce).
type TableWrong struct {
	Table  string // "enforce" or "otel"
	Reason string // what is wrong with it
	// Held is, for [enforce], the gate's mode until the table is fixed;
	// "" for a table that is off.
	Held EnforceMode
}

// String says which table is wrong, why, what to do and what happens
// until then.
func (t TableWrong) String() string {
	if t.Held == "" {
		return fmt.Sprintf("[%s] in %s is off: %s; fix it there", t.Table, ConfigName, t.Reason)
	}
	s := fmt.Sprintf("[%s] in %s/%s is wrong: %s; fix it there", t.Table, DirName, ConfigName, t.Reason)
	switch t.Held {
	case EnforceBlock:
		return s + " yourself, in an editor (the gate keeps agents from changing that file); " +
			"until then edits are held as in block mode, and what the gate cannot check is denied"
	case EnforceOff:
		return s + "; until then the gate is off, as its mode says"
	default:
		return s + fmt.Sprintf("; until then the gate runs in %s mode, as its mode says", t.Held)
	}
}

// configFile is config.toml as decoded: the optional tables are kept
// undecoded, so that each is decoded and checked on its own.
type configFile struct {
	Config
	Enforce toml.Primitive `toml:"enforce"`
	OTel    toml.Primitive `toml:"otel"`
}

// optionalTables decodes and checks the optional tables of f into cfg,
// saying in cfg.Wrong which are wrong and why: a wrong [otel] is off, a
// wrong [enforce] holds (heldEnforce).
func optionalTables(md *toml.MetaData, f configFile, cfg *Config) {
	if reason := decodeTable(md, "enforce", f.Enforce, &cfg.Enforce); reason != "" {
		cfg.Enforce = heldEnforce(md, f.Enforce)
		cfg.Wrong = append(cfg.Wrong, TableWrong{Table: "enforce", Reason: reason, Held: cfg.Enforce.Effective()})
	}
	if reason := decodeTable(md, "otel", f.OTel, &cfg.OTel); reason != "" {
		cfg.Wrong = append(cfg.Wrong, TableWrong{Table: "otel", Reason: reason})
	}
}

// decodeTable decodes the table name into dst when it is there and right,
// and otherwise leaves dst unset and says what is wrong.
func decodeTable[T interface{ check() error }](md *toml.MetaData, name string, p toml.Primitive, dst *T) string {
	if !md.IsDefined(name) {
		return ""
	}
	var c T
	err := md.PrimitiveDecode(p, &c)
	if err == nil {
		err = c.check()
	}
	if err = tableErr(md, name, err); err != nil {
		return err.Error()
	}
	*dst = c
	return ""
}

// tableErr is err, or else the first unknown setting under table.
func tableErr(md *toml.MetaData, table string, err error) error {
	if err != nil {
		return err
	}
	for _, k := range md.Undecoded() {
		if len(k) > 0 && k[0] == table {
			return fmt.Errorf("unknown setting %q", k.String())
		}
	}
	return nil
}

// undecodedOutside returns the first unknown setting that is not under
// one of the optional tables, or "".
func undecodedOutside(md *toml.MetaData) string {
	for _, k := range md.Undecoded() {
		if len(k) > 0 && (k[0] == "enforce" || k[0] == "otel") {
			continue
		}
		return k.String()
	}
	return ""
}

// EnforceWrong returns what is wrong with the [enforce] table, if it is.
func (cfg Config) EnforceWrong() (TableWrong, bool) {
	for _, t := range cfg.Wrong {
		if t.Table == "enforce" {
			return t, true
		}
	}
	return TableWrong{}, false
}
