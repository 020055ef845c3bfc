package workspace

import (
	"fmt"

	"github.com/BurntSushi/toml"
)

// A TableOff is an optional table of config.toml ([enforce], [otel]) that
// ReadConfig turned off because it is wrong. A mistake in one of them
// must not take the workspace down: every command works with the table
// off, serve says so on stderr and to the agent, stats and doctor name it.
type TableOff struct {
	Table  string // "enforce" or "otel"
	Reason string // what is wrong with it
}

// String says which table is off, why, and what to do.
func (t TableOff) String() string {
	return fmt.Sprintf("[%s] in %s is off: %s; fix it there", t.Table, ConfigName, t.Reason)
}

// configFile is config.toml as decoded: the optional tables are kept
// undecoded, so that each is decoded and checked on its own.
type configFile struct {
	Config
	Enforce toml.Primitive `toml:"enforce"`
	OTel    toml.Primitive `toml:"otel"`
}

// optionalTables decodes and checks the optional tables of f into cfg,
// turning off each one that is wrong (a bad value, a value of the wrong
// type, an unknown setting in it) and saying why in cfg.Off.
func optionalTables(md *toml.MetaData, f configFile, cfg *Config) {
	decodeTable(md, "enforce", f.Enforce, &cfg.Enforce, &cfg.Off)
	decodeTable(md, "otel", f.OTel, &cfg.OTel, &cfg.Off)
}

// decodeTable decodes the table name into dst when it is there and right,
// and otherwise leaves dst unset and appends why to off.
func decodeTable[T interface{ check() error }](md *toml.MetaData, name string, p toml.Primitive, dst *T, off *[]TableOff) {
	if !md.IsDefined(name) {
		return
	}
	var c T
	err := md.PrimitiveDecode(p, &c)
	if err == nil {
		err = c.check()
	}
	if err = tableErr(md, name, err); err != nil {
		*off = append(*off, TableOff{Table: name, Reason: err.Error()})
		return
	}
	*dst = c
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
