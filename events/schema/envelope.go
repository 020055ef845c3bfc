package schema

import (
	"fmt"
	"reflect"

	"github.com/clumsies/clumsies/events"
	"github.com/google/jsonschema-go/jsonschema"
)

// Patterns of envelope fields whose format is fixed.
const (
	ulidPattern      = `^[0-9A-HJKMNP-TV-Z]{26}$`
	timePattern      = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$`
	workspacePattern = `^ws-[a-z0-9][a-z0-9-]{0,62}$`
)

// Envelope returns the JSON Schema of an event envelope, pretty-printed.
func Envelope() ([]byte, error) {
	s, err := envelope()
	if err != nil {
		return nil, err
	}
	return render(s)
}

// envelope infers the envelope's schema and adds what the Go type cannot
// say: formats, enums, bounds, and that errorCode comes with errors only.
func envelope() (*jsonschema.Schema, error) {
	s, err := infer(reflect.TypeFor[events.Event](), envelopeAbout)
	if err != nil {
		return nil, err
	}
	p := s.Properties
	// Team is the hub ledger's, whose events this schema does not
	// describe.
	delete(p, "team")
	for _, name := range []string{"seq", "v", "id", "type", "time", "workspaceId", "outcome", "errorCode", "durationUs", "openWaitUs", "data"} {
		if p[name] == nil {
			return nil, fmt.Errorf("build envelope schema: no property %s in events.Event", name)
		}
	}
	p["seq"].Minimum = jsonschema.Ptr(1.0)
	p["seq"].ReadOnly = true
	p["v"].Minimum = jsonschema.Ptr(1.0)
	p["id"].Pattern = ulidPattern
	p["type"].Enum = typeEnum()
	p["time"].Format = "date-time"
	p["time"].Pattern = timePattern
	p["workspaceId"].Pattern = workspacePattern
	p["outcome"].Enum = []any{string(events.OutcomeOK), string(events.OutcomeError)}
	p["errorCode"].Enum = stringsAsAny(errorCodes())
	p["durationUs"].Minimum = jsonschema.Ptr(0.0)
	p["openWaitUs"].Minimum = jsonschema.Ptr(1.0)
	p["data"].Type = "object"
	s.If = &jsonschema.Schema{
		Properties: map[string]*jsonschema.Schema{"outcome": {Const: jsonschema.Ptr[any](string(events.OutcomeError))}},
		Required:   []string{"outcome"},
	}
	s.Then = &jsonschema.Schema{Required: []string{"errorCode"}}
	s.Else = &jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"errorCode"}}}
	return s, nil
}

func typeEnum() []any {
	out := make([]any, 0, len(events.Types()))
	for _, t := range events.Types() {
		out = append(out, string(t))
	}
	return out
}

func stringsAsAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
