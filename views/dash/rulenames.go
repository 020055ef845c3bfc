package dash

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// RuleName is how a page names a published rule it mentions by id.
type RuleName struct {
	Path string       `json:"path"`
	Kind content.Kind `json:"kind"`
}

// mentioned are the rule ids an event of a timeline names: the rules of
// a ref, the items of a load, the rules in scope of a file edit and those
// not loaded then, the rules a gate asked for.
type mentioned struct {
	Refs []struct {
		RuleID string `json:"ruleId"`
	} `json:"refs"`
	Items []struct {
		ID string `json:"id"`
	} `json:"items"`
	Rules    []string `json:"rules"`
	Unloaded []string `json:"unloaded"`
	Missing  []string `json:"missing"`
}

// namesRules reports whether events of type t name rules (mentioned).
func namesRules(t events.Type) bool {
	switch t {
	case events.TypeRefer, events.TypeLoad, events.TypeFileEdit, events.TypeToolGated, events.TypeStopBlocked:
		return true
	}
	return false
}

// ruleNames names the published rules that timeline and evidence
// mention, by id. An id that is not published (removed since, or the
// meta prompt) has no name: the page shows the id.
func ruleNames(src Source, timeline []TimelineEntry, evidence *projections.SessionEvidence) (map[string]RuleName, error) {
	var ids []string
	for _, e := range timeline {
		if !namesRules(e.Type) || len(e.Data) == 0 {
			continue
		}
		var m mentioned
		if json.Unmarshal(e.Data, &m) != nil {
			continue // a failed call's payload: no ids
		}
		for _, r := range m.Refs {
			ids = append(ids, r.RuleID)
		}
		for _, it := range m.Items {
			ids = append(ids, it.ID)
		}
		ids = append(ids, m.Rules...)
		ids = append(ids, m.Unloaded...)
		ids = append(ids, m.Missing...)
	}
	if evidence != nil {
		for _, r := range evidence.Rules {
			ids = append(ids, r.ID)
		}
	}
	names := make(map[string]RuleName)
	for _, id := range ids {
		if _, ok := names[id]; ok || id == "" {
			continue
		}
		o, err := src.Object(id)
		switch {
		case errors.Is(err, projections.ErrNotFound):
			continue
		case err != nil:
			return nil, fmt.Errorf("name rule %s: %w", id, err)
		}
		names[id] = RuleName{Path: o.Path, Kind: o.Kind}
	}
	return names, nil
}
