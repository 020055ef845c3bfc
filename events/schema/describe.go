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

// typeAbout describes the payload of each event type, in our own words.
var typeAbout = map[events.Type]about{
	events.TypeSetup: {"attest.setup: session started", "Written for every memsetup call: the agent " +
		"opened or repeated a session. Records the META_PROMPT hash the agent already knew, the current " +
		"one, and whether the META_PROMPT text was sent back."},
	events.TypeDiscover: {"attest.discover: catalog searched", "Written for every memdisc call: the " +
		"filters the agent used and how many items matched."},
	events.TypeLoad: {"attest.load: items loaded", "Written for every memload call: each rule, workflow " +
		"or context item served, with the hash served and whether its content was sent (false when the " +
		"agent already had that hash)."},
	events.TypeRefer: {"attest.refer: constraints applied", "Written for every successful memref call: " +
		"the constraints the agent declares it applied, one ref each, all from one call. This is the " +
		"event usage counts per rule and per constraint are made of."},
	events.TypeAgentReport: {"attest.agent_report: agent report", "Written for every agentreport call: " +
		"the summary the agent reported at the end of its work."},
	events.TypeReject: {"attest.reject: agent declined", "Written for every agentrejected call: the agent " +
		"declared it would not follow the loaded guidance, with its reason."},
	events.TypeDraftCreate: {"attest.draft.create: draft of a new object", "Written when an artifact " +
		"call creates a draft of a new rule, workflow or context file. Carries the whole body, so a replay " +
		"rebuilds the draft; id is the draft's tmp- id."},
	events.TypeDraftUpdate: {"attest.draft.update: draft of a change", "Written when an artifact call " +
		"drafts a new body for a published object (or replaces the body of its update draft). Carries the " +
		"whole body and the hash it was based on."},
	events.TypeDraftRename: {"attest.draft.rename: draft of a move", "Written when an artifact call " +
		"drafts moving a published object to newPath."},
	events.TypeDraftDelete: {"attest.draft.delete: draft of a removal", "Written when an artifact call " +
		"drafts removing a published object (on a create draft it discards that draft instead)."},
	events.TypeDraftDiscard: {"attest.draft.discard: draft dropped", "Written when an artifact call " +
		"discards an unsubmitted draft; the draft is gone after this event."},
	events.TypeArtifactError: {"attest.artifact: failed artifact call", "Written for an artifact call " +
		"that failed before its operation could be read, so no attest.draft.* type applies. Its data is " +
		"always a failure."},
	events.TypeCatalogPublish: {"catalog.publish: object published", "Written by publishing (clumsies " +
		"publish, and serve on start) for each rule, workflow, context file or META_PROMPT that is new or " +
		"changed on disk. Carries the whole body, so a replay rebuilds the catalog."},
	events.TypeCatalogRemove: {"catalog.remove: object removed", "Written by publishing for each " +
		"published object whose file is gone from the content tree (and was not renamed)."},
	events.TypeDraftSubmit: {"attest.draft.submit: draft sent to review", "Written when a team draft " +
		"is handed to the hub for review. The draft is in_review: the agent can no longer change or " +
		"discard it. Not a tool call."},
	events.TypeDraftApply: {"attest.draft.apply: draft applied", "Written when a repository draft was " +
		"written into the content tree (clumsies drafts apply), or a team draft was accepted at the hub. " +
		"The draft is closed; publishing picks the change up. Not a tool call."},
	events.TypeDraftDecline: {"attest.draft.decline: draft declined", "Written when a person declines " +
		"a draft (clumsies drafts decline, or a reviewer at the hub), with the reason. The draft is " +
		"closed; the agent sees the status and the reason in memdisc. Not a tool call."},
	events.TypeDraftConflict: {"attest.draft.conflict: draft conflicted", "Written when a draft cannot " +
		"be applied because its object changed since the draft's base (the file's hash, the team " +
		"object's revision), with the reason and, for a repository draft, a diff. The draft is closed. " +
		"Not a tool call."},
	events.TypeSessionStart: {"attest.session_start: host started a session", "Written by the " +
		"session-start hook (clumsies hook session-start) when the host starts, resumes, clears or compacts " +
		"a session. sessionId is the host's real session id, which the hook handed the agent to pass to " +
		"memsetup. Not a tool call."},
	events.TypeUserPrompt: {"attest.user_prompt: user sent a prompt", "Written by the user-prompt hook " +
		"for each prompt the user submits: its sha256 and length, and its text only when the workspace sets " +
		"record_prompts = true. A prompt is answered when an attest.agent_report or attest.reject of the " +
		"session follows it. Not a tool call."},
	events.TypeStopBlocked: {"attest.stop_blocked: stop refused", "Written by the stop hook each time it " +
		"refuses to let the agent stop because the session's last prompt has no report after it. The hook " +
		"lets the agent go after limit blocks in a row, or when the host says it is already continuing " +
		"because of a stop hook. Not a tool call."},
	events.TypeCheckpoint: {"ledger.checkpoint: hash chain pinned", "Written by the workspace's owner every " +
		"so many events and when it shuts down, after the events it covers: the chain digest over " +
		"every stored message up to seq. clumsies verify and clumsies import recompute the chain and " +
		"name the first sequence where the stored bytes and a checkpoint disagree. Not a tool call."},
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
		"sessionId":   "Host session id the agent bound with memsetup, or that a host hook reported (attest.session_start, attest.user_prompt, attest.stop_blocked); empty for events outside a session (publishing, review, calls before memsetup).",
		"tool":        "MCP tool called (memsetup, memdisc, memload, memref, agentreport, agentrejected, artifact); absent for non-tool events.",
		"outcome":     "ok if the call succeeded, error if it failed. Non-tool events are always ok.",
		"errorCode":   "Error code the agent got, from the closed set of the error contract; present exactly when outcome is error.",
		"durationUs":  "How long the tool call took, in microseconds; 0 for non-tool events.",
		"data":        "Type-specific payload: an object matching <type>.json, or failure.json when outcome is error.",
	},
	reflect.TypeFor[events.SetupData](): {
		"knownHash": "META_PROMPT hash the agent said it had; empty if it had none.",
		"hash":      "Current META_PROMPT hash (sha256:<hex>).",
		"changed":   "True if the hashes differed and the META_PROMPT text was sent.",
	},
	reflect.TypeFor[events.DiscoverData](): {
		"kind":  "Kind filter (rule, workflow or context); absent for all kinds.",
		"group": "Group filter; absent for all groups.",
		"query": "Text query; absent when none was given.",
		"count": "Number of items in the answer (at most the call's limit).",
		"total": "Number of items that matched, in all pages; absent in events written before memdisc had pages (count was then the number that matched).",
	},
	reflect.TypeFor[events.LoadData](): {
		"items": "One entry per item served, in the order requested.",
	},
	reflect.TypeFor[events.LoadedItem](): {
		"id":      "Id of the item (p-... for rules and workflows, c-... for context, tmp-... for a create draft, META_PROMPT.md).",
		"hash":    "Hash of the content served (of the draft body if the item has a draft).",
		"changed": "True if the content was sent; false if the agent already had this hash.",
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
		"id":          "Stable id of the object: p-<32 hex> for rules and workflows, c-<32 hex> for context, META_PROMPT.md for the META_PROMPT. A rename keeps the id.",
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
	reflect.TypeFor[events.SessionStartData](): {
		"host":   "Adapter host that ran the hook: claude-code, codex, cursor, gemini-cli or opencode.",
		"source": "Why the session started, as the host said: startup, resume, clear or compact; absent when the host does not say.",
		"model":  "Model the host named; absent when it named none.",
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
