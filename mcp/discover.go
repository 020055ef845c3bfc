package mcp

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// memdisc lists the rules, workflows and context of the workspace, drafts
// included (create drafts under their tmp- ids, renamed objects at their new
// paths, objects with a delete draft hidden), without their content.

func (s *Server) discoverTool() *tool {
	return &tool{
		name: "memdisc",
		typ:  events.TypeDiscover,
		desc: "List the rules, workflows and context files of this workspace without their content, so you can choose what to load with memload. " +
			"All filters are optional and combine. Items with a local draft have hasDraft true; new drafts appear under their tmp- ids.",
		input: object("",
			optional("kind", enum("Only items of this kind.", string(content.KindRule), string(content.KindWorkflow), string(content.KindContext))),
			optional("group", str(`Only items in this group: the first folder of their path, for example "workflow" or "go". Omit it unless you know the group from an earlier memdisc.`)),
			optional("query", str("Only items whose id, path, name, group or description contain every word of this text (case-insensitive).")),
		),
		output: output("The inventory.",
			optional("items", array("The matching items, ordered by path.", openObject("",
				optional("id", str("Stable id: p-... for rules and workflows, c-... for context, tmp-... for a new draft. Pass it to memload.")),
				optional("kind", enum("", string(content.KindRule), string(content.KindWorkflow), string(content.KindContext))),
				optional("path", str("Path in the workspace.")),
				optional("name", str("File name without .md.")),
				optional("group", str("First folder of the path, when it has one.")),
				optional("hash", str("Current content hash (of the draft, when there is one).")),
				optional("description", str("What the item is about, when known.")),
				optional("hasDraft", boolean("Whether a local draft changes this item.")),
			), 0)),
		),
		run: s.discover,
	}
}

type discoverResult struct {
	Items []discoverItem `json:"items"`
}

type discoverItem struct {
	ID          string       `json:"id"`
	Kind        content.Kind `json:"kind"`
	Path        string       `json:"path"`
	Name        string       `json:"name"`
	Group       string       `json:"group,omitempty"`
	Hash        string       `json:"hash"`
	Description string       `json:"description,omitempty"`
	HasDraft    bool         `json:"hasDraft"`
}

func (s *Server) discover(ctx context.Context, c *call) (any, entry, error) {
	e := entry{typ: events.TypeDiscover}
	if err := requireSession(c); err != nil {
		return nil, e, err
	}
	f, err := decodeObject(c.raw, "", "kind", "group", "query")
	if err != nil {
		return nil, e, err
	}
	kind, err := f.str("kind", false, false, 0)
	if err != nil {
		return nil, e, err
	}
	switch content.Kind(kind) {
	case "", content.KindRule, content.KindWorkflow, content.KindContext:
	default:
		return nil, e, invalidParams("kind", "kind must be one of rule, workflow, context (or omitted), got %q", kind)
	}
	group, err := f.str("group", false, false, 0)
	if err != nil {
		return nil, e, err
	}
	query, err := f.str("query", false, false, 0)
	if err != nil {
		return nil, e, err
	}
	items, err := s.cfg.Catalog.List(ctx, projections.Filter{Kind: kind, Group: group, Query: query})
	if err != nil {
		return nil, e, fmt.Errorf("list the catalog: %w", err)
	}
	res := discoverResult{Items: make([]discoverItem, 0, len(items))}
	for _, it := range items {
		if it.Kind == content.KindMPF {
			continue
		}
		res.Items = append(res.Items, discoverItem{
			ID: it.ID, Kind: it.Kind, Path: it.Path, Name: it.Name, Group: it.Group,
			Hash: it.Hash, Description: it.Description, HasDraft: it.HasDraft,
		})
	}
	e.payload = events.DiscoverData{Kind: kind, Group: group, Query: query, Count: len(res.Items)}
	return res, e, nil
}

// requireSession fails session_required before memsetup.
func requireSession(c *call) error {
	if c.session != "" {
		return nil
	}
	return toolErr(events.CodeSessionRequired,
		"no session yet: call memsetup first, with session_id set to the real session or thread id your host gave you (never invent one), then repeat this call")
}
