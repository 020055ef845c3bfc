package mcp

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// memdisc lists the rules, workflows and context of the workspace, drafts
// included (create drafts under their tmp- ids, renamed objects at their new
// paths, objects with a delete draft hidden), without their content. An
// answer holds at most limit items (default 200, at most 1000) and always
// says how many matched; the rest come page by page with nextCursor.

// Bounds of memdisc's limit.
const (
	defaultDiscoverLimit = 200
	maxDiscoverLimit     = 1000
)

func (s *Server) discoverTool() *tool {
	return &tool{
		name:   "memdisc",
		title:  "Discover rules, workflows and context",
		access: readOnly,
		typ:    events.TypeDiscover,
		desc: "List the rules, workflows and context files of this workspace without their content, so you can choose what to load with memload. " +
			"All filters are optional and combine. Items with a local draft have hasDraft true; new drafts appear under their tmp- ids; " +
			"draftStatus says where a draft is in its review, and draftReason why a person declined it (a declined new file stays listed under its tmp- id). " +
			"An answer holds at most limit items (200 unless you ask otherwise) and says total and truncated: when truncated, narrow the filters or pass nextCursor as cursor.",
		input: object("",
			optional("kind", enum("Only items of this kind.", string(content.KindRule), string(content.KindWorkflow), string(content.KindContext))),
			optional("group", str(`Only items in this group: the first folder of their path, for example "workflow" or "go". Omit it unless you know the group from an earlier memdisc.`)),
			optional("query", str("Only items whose id, path, name, group or description contain every word of this text (case-insensitive).")),
			optional("limit", integer(fmt.Sprintf("At most this many items in the answer, from 1 to %d; %d when omitted. total says how many matched.", maxDiscoverLimit, defaultDiscoverLimit))),
			optional("cursor", str("To get the next page of a truncated answer: its nextCursor, with the same filters.")),
			optional("paths", array("The files you are about to work on (relative to the workspace root, or absolute inside it). "+
				"The rules and workflows whose paths match one of them come first, each with matched: load those before you edit the files.", str(""), 1)),
		),
		output: output("The inventory.",
			required("items", array("The matching items, ordered by path.", openObject("",
				required("id", str("Stable id: p-... for rules and workflows, c-... for context, tmp-... for a new draft. Pass it to memload.")),
				required("kind", enum("", string(content.KindRule), string(content.KindWorkflow), string(content.KindContext))),
				required("path", str("Path in the workspace.")),
				required("name", str("File name without .md.")),
				optional("group", str("First folder of the path, when it has one.")),
				required("hash", str("Current content hash (of the draft, when there is one).")),
				optional("description", str("What the item is about, when known.")),
				optional("hasDraft", boolean("True when a local draft changes this item; absent means false.")),
				optional("draftStatus", enum("Where the item's draft is: draft (yours to change), in_review (wait for the review), "+
					"or how the last one ended: applied, declined or conflicted (see draftReason; you may stage a new draft). Absent when it never had a draft.",
					string(catalog.StatusDraft), string(catalog.StatusInReview), string(catalog.StatusApplied),
					string(catalog.StatusDeclined), string(catalog.StatusConflicted))),
				optional("draftReason", str("Why the last draft was declined or conflicted.")),
				optional("paths", array("The files this rule or workflow applies to, as globs (** spans folders, * and ? stay within one); absent when it applies to no file in particular.", str(""), 0)),
				optional("matched", array("Which of the paths you passed this item applies to; present only on the items in scope for them, which come first.", str(""), 1)),
				optional("source", enum(`Where the item comes from: "team" for the team's catalog at the hub; absent means "repo", the repository's content tree.`, "repo", "team")),
				optional("revision", integer("A team item's revision.")),
				optional("shadows", str("The id of the repository item at the same path that this team item hides.")),
			), 0)),
			required("total", integer("How many items matched the filters, in all pages.")),
			optional("inScope", integer("When you passed paths: how many of the matching items are in scope for them (they come first).")),
			required("truncated", boolean("True when more items matched than this answer holds: narrow the filters, or ask for the next page with nextCursor.")),
			optional("nextCursor", str("Pass it as cursor, with the same filters, for the next page; present when truncated.")),
			optional("hint", str("When truncated: how to narrow the search.")),
		),
		run: s.discover,
	}
}

type discoverResult struct {
	Items      []discoverItem `json:"items"`
	Total      int            `json:"total"`
	InScope    *int           `json:"inScope,omitempty"` // with paths only
	Truncated  bool           `json:"truncated"`
	NextCursor string         `json:"nextCursor,omitempty"`
	Hint       string         `json:"hint,omitempty"`
}

type discoverItem struct {
	ID          string       `json:"id"`
	Kind        content.Kind `json:"kind"`
	Path        string       `json:"path"`
	Name        string       `json:"name"`
	Group       string       `json:"group,omitempty"`
	Hash        string       `json:"hash"`
	Description string       `json:"description,omitempty"`
	HasDraft    bool         `json:"hasDraft,omitempty"` // absent means false
	DraftStatus string       `json:"draftStatus,omitempty"`
	DraftReason string       `json:"draftReason,omitempty"`
	Paths       []string     `json:"paths,omitempty"`   // the item's globs
	Matched     []string     `json:"matched,omitempty"` // the call's paths they match
	// Source is "team" for the team's catalog at the hub, absent for the
	// repository's content tree ("repo", which memload says in full);
	// Revision is a team object's revision.
	Source   string `json:"source,omitempty"`
	Revision uint64 `json:"revision,omitempty"`
	// Shadows is the repository object a team object at the same path
	// hides: the team object wins.
	Shadows string `json:"shadows,omitempty"`
}

// sourceOf is where an item comes from, as memdisc and memload say it.
func sourceOf(it projections.Item) string {
	if it.Source == "" {
		return "repo"
	}
	return it.Source
}

// discoverSource is an item's source as memdisc says it: "" for the
// repository's, which the output schema names as the default.
func discoverSource(it projections.Item) string {
	if src := sourceOf(it); src != "repo" {
		return src
	}
	return ""
}

func (s *Server) discover(ctx context.Context, c *call) (any, entry, error) {
	e := entry{typ: events.TypeDiscover}
	if err := requireSession(c); err != nil {
		return nil, e, err
	}
	f, err := decodeObject(c.raw, "", "kind", "group", "query", "limit", "cursor", "paths")
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
	limit, err := f.limit("limit", defaultDiscoverLimit, maxDiscoverLimit)
	if err != nil {
		return nil, e, err
	}
	cursorText, err := f.str("cursor", false, false, 0)
	if err != nil {
		return nil, e, err
	}
	after, err := decodeCursor(cursorText)
	if err != nil {
		return nil, e, err
	}
	scope, err := s.readScopePaths(f)
	if err != nil {
		return nil, e, err
	}
	items, err := s.cfg.Catalog.List(ctx, projections.Filter{Kind: kind, Group: group, Query: query})
	if err != nil {
		return nil, e, fmt.Errorf("list the catalog: %w", err)
	}
	res := discoverResult{Items: newDiscItems(min(len(items), limit))}
	items, matched := scopeFirst(items, scope)
	for i, it := range items {
		if it.Kind == content.KindMPF {
			continue
		}
		res.Total++
		key := cursorOf(it)
		if scope != nil && matched[i] == nil {
			key.Scope = 1 // after the items in scope
		}
		if after != nil && !after.before(key) {
			continue
		}
		if len(res.Items) == limit {
			res.Truncated = true
			continue
		}
		res.Items = append(res.Items, discoverItem{
			ID: it.ID, Kind: it.Kind, Path: it.Path, Name: it.Name, Group: it.Group,
			Hash: it.Hash, Description: it.Description, HasDraft: it.HasDraft,
			DraftStatus: string(it.DraftStatus), DraftReason: it.DraftReason,
			Source: discoverSource(it), Revision: it.Revision, Shadows: it.Shadows,
			Paths: it.Paths, Matched: matched[i],
		})
	}
	if res.Truncated {
		last := res.Items[len(res.Items)-1]
		next := cursor{Rank: content.NamespaceOf(last.Kind).Rank(), Path: last.Path, ID: last.ID}
		if scope != nil && last.Matched == nil {
			next.Scope = 1
		}
		res.NextCursor = next.encode()
		res.Hint = fmt.Sprintf("%d items matched and this answer holds %d: narrow it with kind, group or query words (from the paths and descriptions you see), or pass nextCursor as cursor for the next page.", res.Total, len(res.Items))
	}
	data := events.DiscoverData{Kind: kind, Group: group, Query: query, Count: len(res.Items), Total: res.Total}
	if scope != nil {
		n := 0
		for i, it := range items {
			if matched[i] != nil && it.Kind != content.KindMPF {
				n++
			}
		}
		res.InScope, data.Paths, data.InScope = &n, scope.rel, n
	}
	e.payload = data
	return s.discCache.answer(&res), e, nil
}
