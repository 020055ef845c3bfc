package schema

import (
	"reflect"

	"github.com/clumsies/clumsies/events"
)

// about is what a schema says of itself: a short title and a description
// of what its events record and when they are written.
type about struct {
	title, description string
}

// envelopeAbout describes the envelope schema.
var envelopeAbout = about{
	title: "clumsies ledger event",
	description: "One immutable entry of a workspace's ledger. Every MCP tool call, successful or not, " +
		"appends exactly one event before the agent gets its answer; publishing and reviews append " +
		"catalog, draft and review events. The type-specific payload is in data: see <type>.json, " +
		"or failure.json for an event whose outcome is error.",
}

// failureAbout describes failure.json, the data of every failed tool call.
var failureAbout = about{
	title: "failed tool call",
	description: "The data of every event whose outcome is error, whatever its type: the message the " +
		"agent got and the arguments it sent. Nothing else was recorded by the call.",
}

// typeAbout describes the payload of an event type, from the type's own
// title and description (events.Type.Title, Description).
func typeAbout(t events.Type) (about, bool) {
	if t.Title() == "" || t.Description() == "" {
		return about{}, false
	}
	return about{string(t) + ": " + t.Title(), t.Description()}, true
}

// fieldAbout documents, by JSON name, every property of every struct that
// appears in an envelope or a payload.
var fieldAbout = map[reflect.Type]map[string]string{
	reflect.TypeFor[events.Event](): {
		"seq": "Stream sequence of the event, from 1, without gaps. Present only on events read back " +
			"(replay, subscription, the SSE stream); never part of the stored bytes. In NATS it is the " +
			"message's stream sequence.",
		"v":           "Schema version of the envelope and payload encoding. Readers refuse versions newer than they know.",
		"id":          "ULID of the event, unique and increasing within a process. Also the JetStream Nats-Msg-Id, so a retried append is stored once.",
		"type":        "Event type: what happened. Tool calls are attest.*; see the payload schema <type>.json.",
		"time":        "When the event was created: RFC 3339, UTC, always with milliseconds (2006-01-02T15:04:05.000Z).",
		"workspaceId": "Workspace the event belongs to: ws- and 1 to 63 lowercase letters, digits and dashes. Also the second token of the subject.",
		"team":        "Team of an event of the hub's ledger; never set in a workspace's ledger (not part of this schema).",
		"sessionId":   "Host session id the agent bound with memsetup, or that a host hook reported (attest.session_start, attest.user_prompt, attest.stop_blocked, attest.tool_gated, attest.file_edit); empty for events outside a session (publishing, review, calls before memsetup).",
		"tool":        "MCP tool called (memsetup, memdisc, memload, memref, agentreport, agentrejected, artifact), or prompts/get for a workflow got as an MCP prompt (recorded as attest.load); absent for non-tool events.",
		"outcome":     "ok if the call succeeded, error if it failed. Non-tool events are always ok.",
		"errorCode":   "Error code the agent got, from the closed set of the error contract; present exactly when outcome is error.",
		"durationUs":  "How long the tool call took, in microseconds; 0 for non-tool events. A call's wait for the workspace to open is not part of it (see openWaitUs), except in events recorded before openWaitUs existed.",
		"openWaitUs":  "How long the tool call waited for the workspace to open before it began (the first calls after serve starts), in microseconds; absent when it did not wait.",
		"data":        "Type-specific payload: an object matching <type>.json, or failure.json when outcome is error.",
		"client":      "Name of the MCP client that made the tool call, as its initialize gave it (clientInfo.name); absent for non-tool events and in events recorded before it was kept.",
		"conn":        "Id the server gave the connection the tool call came over (one stdio stream, one Streamable HTTP session); absent over HTTP at protocol 2026-07-28, where each request is a connection of its own.",
		"unbound":     "True on a tool call of a session that is not bound to whoever set it up: one set up before sessions were bound, which keeps working unbound. Absent otherwise.",
	},
	reflect.TypeFor[events.SetupData](): {
		"knownHash":  "META_PROMPT hash the agent said it had; empty if it had none.",
		"hash":       "Current META_PROMPT hash (sha256:<hex>).",
		"changed":    "True if the hashes differed and the META_PROMPT text was sent.",
		"bound":      "How the session is bound to whoever set it up: hook (the host's session-start hook handed the agent its secret) or memsetup (no hook ran; memsetup issued the secret, or took the one the agent brought). Absent for an unbound session, one set up before sessions were bound.",
		"secretHash": "sha256:<hex> of the session secret this memsetup issued or took; absent when the session already had one. The secret itself is never recorded.",
		"client":     "The MCP client that set the session up, as its initialize named itself (clientInfo); absent when it gave none.",
	},
	reflect.TypeFor[events.ClientInfo](): {
		"name":    "The client's name (clientInfo.name).",
		"version": "The client's version (clientInfo.version); absent when it gave none.",
	},
	reflect.TypeFor[events.DiscoverData](): {
		"kind":    "Kind filter (rule, workflow or context); absent for all kinds.",
		"group":   "Group filter; absent for all groups.",
		"query":   "Text query; absent when none was given.",
		"count":   "Number of items in the answer (at most the call's limit).",
		"total":   "Number of items that matched, in all pages; absent in events written before memdisc had pages (count was then the number that matched).",
		"paths":   "The files the agent said it is about to work on, workspace-relative; absent when it named none.",
		"inScope": "Number of matching items in scope for paths (their front matter globs match one of them); absent when none is.",
	},
	reflect.TypeFor[events.LoadData](): {
		"items": "One entry per item served, in the order requested.",
	},
	reflect.TypeFor[events.LoadedItem](): {
		"id":      "Id of the item (p-... for rules and workflows, c-... for context, tmp-... for a create draft, META_PROMPT.md).",
		"hash":    "Hash of the content served: the published body, or a create draft's body for a tmp- id (events written before drafts were kept to their ids may hold a draft body's hash).",
		"changed": "True if the content was sent; false if the agent said it already had this hash (then nothing was sent).",
		"draft":   "True if the content served was a draft's, not a published file's (the tmp- id of a create draft); absent otherwise. A draft never counts as loading a rule.",
		"constraintsHash": "For a rule or workflow: the hash (sha256:<hex>) of the constraints served, one line per constraint with its id and textHash. " +
			"A later version with the same constraints hash asks nothing new: the pre-tool gate counts this load for it. Absent for context and in events written before it was recorded.",
	},
	reflect.TypeFor[events.ReferData](): {
		"refs": "Every constraint declared in the call; the call is all or nothing.",
	},
	reflect.TypeFor[events.Ref](): {
		"ruleId":       "Id of the rule or workflow (p-...).",
		"ruleHash":     "Hash of the rule's content the agent applied.",
		"constraintId": "Id of the constraint within the rule, such as Steps/2; unique within one rule only.",
		"name":         "Title of the section the constraint belongs to.",
		"textHash":     "Hash of the constraint's text.",
		"reason":       "Why the agent applied it, in its own words; absent when not given.",
		"revision":     "For a rule of the team's catalog at the hub: the catalog revision of the rule referred to; absent for the repository's rules.",
	},
	reflect.TypeFor[events.AgentReportData](): {
		"summary": "The agent's report.",
	},
	reflect.TypeFor[events.RejectData](): {
		"reason": "Why the agent declined; absent when not given.",
	},
	reflect.TypeFor[events.DraftData](): {
		"resource":    "What the draft is about: rule, context or mpf (the META_PROMPT).",
		"id":          "Id the draft is keyed by: the tmp- id of a create draft, the object id for update, rename and delete, META_PROMPT.md for the mpf.",
		"op":          "Kind of draft the id has after the event: create, update, rename or delete (an update of a new file's draft leaves a create draft). Absent on attest.draft.discard, where the draft is gone, and on events of versions that did not record it.",
		"path":        "Public path of the object (for a create draft, the path it will get).",
		"newPath":     "Path a rename draft moves the object to.",
		"body":        "Whole draft body (create and update).",
		"baseHash":    "Hash of the published content an update, rename or delete draft is based on.",
		"description": "Description the agent gave for the change.",
	},
	reflect.TypeFor[events.FailureData](): {
		"message":       "Message the agent got with the error.",
		"args":          "Arguments of the call as the agent sent them, any JSON value. If they were longer than 64 KiB, a JSON string holding their start, and argsTruncated is true.",
		"argsTruncated": "True if args holds only the start of the arguments.",
	},
	reflect.TypeFor[events.PublishData](): {
		"id":          "Stable id of the object: p-<32 hex> for rules and workflows, c-<32 hex> for context, META_PROMPT.md for the META_PROMPT. The id a path derives (the same in every clone), or the one .clumsies/ids records for a renamed object. A rename keeps the id.",
		"kind":        "rule, workflow, context or mpf.",
		"path":        "Public path, such as workflow/CODING.md.",
		"name":        "Base name without .md.",
		"group":       "First path segment, when the object has one.",
		"hash":        "sha256:<hex> of the body.",
		"body":        "Whole content of the file.",
		"description": "Short description taken from the body.",
	},
	reflect.TypeFor[events.RemoveData](): {
		"id":   "Id of the removed object.",
		"kind": "rule, workflow, context or mpf.",
		"path": "Public path it had.",
	},
	reflect.TypeFor[events.ReidData](): {
		"from": "Id the object had.",
		"to":   "Id the object has from now on: the one its path derives, or the one .clumsies/ids records for it.",
		"kind": "rule, workflow or context.",
		"path": "Public path of the object.",
	},
	reflect.TypeFor[events.SessionStartData](): {
		"host":       "Adapter host that ran the hook: claude-code, codex, cursor, gemini-cli or opencode.",
		"source":     "Why the session started, as the host said: startup, resume, clear or compact; absent when the host does not say.",
		"model":      "Model the host named; absent when it named none.",
		"secretHash": "sha256:<hex> of the session secret the hook handed the agent with its id; a memsetup of the session from a connection not bound to it, and a call over HTTP at protocol 2026-07-28, must present a secret whose hash the session has. Absent in events of hooks that handed none. The secret itself is never recorded.",
	},
	reflect.TypeFor[events.UserPromptData](): {
		"host":          "Adapter host that ran the hook.",
		"sha256":        "sha256:<hex> of the prompt's UTF-8 bytes.",
		"length":        "Length of the prompt in bytes.",
		"text":          "The prompt, only when the workspace config sets record_prompts = true (prompts may hold secrets); cut to 64 KiB.",
		"textTruncated": "True if text holds only the start of the prompt.",
	},
	reflect.TypeFor[events.StopBlockedData](): {
		"host":   "Adapter host that ran the hook.",
		"blocks": "Stops blocked in a row since the session's last prompt, this one included.",
		"limit":  "Blocks in a row after which the hook lets the agent stop.",
		"files": "Files the session changed, by any route, that rules it had not loaded apply to: the stop gate " +
			"([enforce] mode = \"block\") held the agent until it loads them. Absent when the stop was held for a report.",
		"missing": "Ids of the rules and workflows in scope for files that the session had not loaded.",
	},
	reflect.TypeFor[events.CheckData](): {
		"host":      "Adapter host that ran the hook.",
		"via":       "Where the checks ran: post-tool (also when absent) or stop.",
		"rules":     "The rules whose checks ran, each with the content hash of the version whose checks these were, sorted by id.",
		"files":     "The files checked, relative to the workspace root, sorted.",
		"results":   "Each check's outcome on each file: findings (pass false) first, then passes.",
		"dropped":   "Results left out past the bound of one event.",
		"unloaded":  "Ids of the rules the session had not loaded when the checks ran.",
		"rejected":  "At stop: the session closed its turn with agentrejected and a reason; the findings that stand are on record against it.",
		"decision":  "At stop: deny when the stop was refused for the findings, warn when the agent was told; absent when let go.",
		"toolUseId": "The host's own id of the tool call, where it gives one.",
		"worktree":  "The git worktree of the change, relative to the workspace root; absent for the workspace itself.",
	},
	reflect.TypeFor[events.CheckedRule](): {
		"id":   "Id of the rule.",
		"hash": "Content hash of the rule's version whose checks ran.",
	},
	reflect.TypeFor[events.CheckResult](): {
		"rule":       "Id of the rule the check belongs to.",
		"constraint": "Id of the rule's constraint the check stands for.",
		"check":      "Index of the check in the rule's checks, from 0.",
		"kind":       "forbid, require or run.",
		"file":       "The file checked, relative to the workspace root.",
		"pass":       "True when the check passed on the file.",
		"line":       "The finding's line in the file, from 1; absent for a pass or a command.",
		"match":      "sha256 of the text a forbid pattern matched, or of a command's output; never the text.",
	},
	reflect.TypeFor[events.ToolGatedData](): {
		"host":  "Adapter host that ran the hook.",
		"tool":  "The host's name of the tool about to run (Write, Edit, write_file, replace, ...).",
		"paths": "The files the tool was about to change, relative to the workspace root.",
		"decision": "deny: the tool was refused ([enforce] mode = \"block\"); warn: it ran and the agent was told what to load (mode = \"warn\"); " +
			"allow: it ran unchecked because the gate could not check ([enforce] fail = \"open\"; unchecked says why).",
		"missing":   "Ids of the rules and workflows in scope for paths that the session had not loaded: the memload the gate asked for.",
		"protected": "Paths that are the enforcement's own files (.clumsies/config.toml, the content tree, the hooks' wiring); in block mode an agent proposes changes to them with artifact.",
		"shell":     "True when paths are the writes read from a shell command before it ran.",
		"unchecked": "Why the gate could not check (no catalog, the owner did not answer, ...), when it could not.",
		"toolUseId": "The host's own id of the tool call, where the host gives one.",
		"worktree":  "The git worktree the tool ran in, relative to the workspace root where it lies inside it.",
	},
	reflect.TypeFor[events.FileEditData](): {
		"host":  "Adapter host that ran the hook.",
		"tool":  "The host's name of the tool that changed the files (Write, Edit, replace, apply_patch, ...).",
		"paths": "Files the tool touched, relative to the workspace root with forward slashes, sorted, each once; (outside) for every file outside the workspace. Never their contents.",
		"rules": "Ids of the published rules and workflows in scope for paths when the hook ran, sorted; empty when none is.",
		"hashes": "Git blob ids (as git hash-object prints them) of the files' contents after the change, by path; empty " +
			"for a file the change deleted. A commit's blob equal to one of them was written by this change.",
		"before":     "Git blob ids of the files before the change, where the hook knew them; empty for a file that did not exist.",
		"unnamed":    "Paths that changed although no argument of the tool named them: found by the working-tree check.",
		"unloaded":   "Ids of rules the session had not loaded when the change was recorded: an in-scope change made before loading.",
		"protected":  "Paths that are the enforcement's own files (.clumsies/config.toml, the content tree, the hooks' wiring).",
		"via":        "post-tool: seen after the tool ran (also when absent); stop: found by the working-tree check at the end of a turn.",
		"toolUseId":  "The host's own id of the tool call, where the host gives one.",
		"transcript": "The path of the host's transcript of the session, where the host gives one.",
		"manual":     "True when the hook ran outside any host (no host variable in its environment): not a host's word.",
		"candidates": "Other sessions that had a tool call open while the files changed: the change may be theirs.",
		"republished": "True when rules or workflows were published while the tool call ran: the rules in scope may not be " +
			"those the gate judged before the call.",
		"worktree": "The git worktree the change was made in, relative to the workspace root where it lies inside it; paths are relative to the worktree.",
	},
	reflect.TypeFor[events.CheckpointData](): {
		"seq": "Sequence the digest covers: every stored message up to and including it. The checkpoint is " +
			"stored after it, within 65536 messages (at seq+1 when nothing else was appended meanwhile).",
		"digest": "Chain digest through seq, sha256:<hex>. The chain starts at sha256(\"clumsies ledger chain " +
			"v1\\x00\" + workspaceId); each stored message at sequence s with bytes m turns digest d into " +
			"sha256(d || s as 8 bytes big-endian || len(m) as 8 bytes big-endian || m).",
		"node":      "Id of the node whose key signed the checkpoint, when the workspace has a node identity.",
		"signature": "The node key's signature of \"<workspaceId> <seq> <digest>\", when the workspace has a node identity.",
	},
	reflect.TypeFor[events.ReviewData](): {
		"draftId":         "Id of the draft: its object's id, or the tmp- id of a create draft.",
		"reviewer":        "Who applied, declined or accepted it: the user running clumsies drafts, or the hub member who reviewed it.",
		"reason":          "Why: always set on decline and conflict.",
		"baseHash":        "Hash of the repository file the draft was based on.",
		"baseRevision":    "Revision of the team object the draft was based on.",
		"currentHash":     "On conflict, the hash the repository file has now; on a repository apply, the hash of the body written.",
		"currentRevision": "On conflict, the revision the team object has now.",
		"revision":        "Team catalog revision an accepted draft wrote.",
		"diff":            "On a repository conflict, a unified diff of the draft's body against the file as it is now.",
	},
}
