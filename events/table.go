package events

// family says who writes the events of a type.
type family uint8

const (
	familyTool    family = iota + 1 // an MCP tool call, one type per tool (artifact: one per op)
	familyHook                      // clumsies hook: what the host saw (hook.go)
	familyReview                    // what happened to a draft after it was staged (review.go)
	familyCatalog                   // publishing
	familyLedger                    // the ledger about itself (chain.go)
)

// typeInfo is everything the code knows of an event type besides its
// payload's fields. Every property of a type (Valid, Types, IsTool,
// IsHook, IsReview, IsDraft, Aggregate, ChangesCatalog, NewPayload,
// DraftOp, Title, Description) is read from its row, so that adding an
// event type is one row, its payload and the description of the payload's
// fields (events/schema); the per-type work of the read models is pinned
// for each type by a case of projections/testdata/fold. The hub's own
// types (LedgerHub) are rows too: HubTypes, NewHubPayload and HubOutcome
// read them.
type typeInfo struct {
	typ Type
	// ledger is the ledger the type's events are written to; a type is
	// known by its name and its ledger together.
	ledger Ledger
	family family
	// aggregate is the aggregate its events are decided in ("" for none);
	// an event of an aggregate changes the catalog (ChangesCatalog).
	aggregate Aggregate
	// op is the artifact operation that records an event of this type.
	op DraftOp
	// recordedAs is, for a review outcome of the hub, the review type the
	// workspace records it as.
	recordedAs Type
	payload    func() any
	// title and description say what an event of the type records and
	// when it is written; the payload's schema is titled with them.
	title, description string
}

func newPayload[T any]() any { return new(T) }

// table lists every event type, in the order Types and HubTypes return
// them.
var table = []typeInfo{
	{typ: TypeSetup, family: familyTool, payload: newPayload[SetupData],
		title: "session started", description: "Written for every memsetup call: the agent " +
			"opened or repeated a session. Records the META_PROMPT hash the agent already knew, the current " +
			"one, and whether the META_PROMPT text was sent back."},
	{typ: TypeDiscover, family: familyTool, payload: newPayload[DiscoverData],
		title: "catalog searched", description: "Written for every memdisc call: the " +
			"filters the agent used and how many items matched."},
	{typ: TypeLoad, family: familyTool, payload: newPayload[LoadData],
		title: "items loaded", description: "Written for every memload call: each rule, workflow " +
			"or context item served, with the hash served, whether its content was sent (false when the " +
			"agent said it already had that hash), whether it was a draft's, and the hash of a rule's constraints. " +
			"A load counts for the pre-tool gate only when it sent the rule in force (docs/rules.md)."},
	{typ: TypeRefer, family: familyTool, payload: newPayload[ReferData],
		title: "constraints applied", description: "Written for every successful memref call: " +
			"the constraints the agent declares it applied, one ref each, all from one call. This is the " +
			"event usage counts per rule and per constraint are made of."},
	{typ: TypeAgentReport, family: familyTool, payload: newPayload[AgentReportData],
		title: "agent report", description: "Written for every agentreport call: " +
			"the summary the agent reported at the end of its work."},
	{typ: TypeReject, family: familyTool, payload: newPayload[RejectData],
		title: "agent declined", description: "Written for every agentrejected call: the agent " +
			"declared it would not follow the loaded guidance, with its reason."},
	{typ: TypeDraftCreate, family: familyTool, aggregate: AggregateDrafts, op: DraftOpCreate, payload: newPayload[DraftData],
		title: "draft of a new object", description: "Written when an artifact " +
			"call creates a draft of a new rule, workflow or context file. Carries the whole body, so a replay " +
			"rebuilds the draft; id is the draft's tmp- id."},
	{typ: TypeDraftUpdate, family: familyTool, aggregate: AggregateDrafts, op: DraftOpUpdate, payload: newPayload[DraftData],
		title: "draft of a change", description: "Written when an artifact call " +
			"drafts a new body for a published object (or replaces the body of its update draft). Carries the " +
			"whole body and the hash it was based on."},
	{typ: TypeDraftRename, family: familyTool, aggregate: AggregateDrafts, op: DraftOpRename, payload: newPayload[DraftData],
		title: "draft of a move", description: "Written when an artifact call " +
			"drafts moving a published object to newPath."},
	{typ: TypeDraftDelete, family: familyTool, aggregate: AggregateDrafts, op: DraftOpDelete, payload: newPayload[DraftData],
		title: "draft of a removal", description: "Written when an artifact call " +
			"drafts removing a published object (on a create draft it discards that draft instead)."},
	{typ: TypeDraftDiscard, family: familyTool, aggregate: AggregateDrafts, op: DraftOpDiscard, payload: newPayload[DraftData],
		title: "draft dropped", description: "Written when an artifact call " +
			"discards an unsubmitted draft; the draft is gone after this event."},
	{typ: TypeArtifactError, family: familyTool, payload: newPayload[FailureData],
		title: "failed artifact call", description: "Written for an artifact call " +
			"that failed before its operation could be read, so no attest.draft.* type applies. Its data is " +
			"always a failure."},
	{typ: TypeDraftSubmit, family: familyReview, aggregate: AggregateDrafts, payload: newPayload[ReviewData],
		title: "draft sent to review", description: "Written when a team draft " +
			"is handed to the hub for review. The draft is in_review: the agent can no longer change or " +
			"discard it. Not a tool call."},
	{typ: TypeDraftApply, family: familyReview, aggregate: AggregateDrafts, payload: newPayload[ReviewData],
		title: "draft applied", description: "Written when a repository draft was " +
			"written into the content tree (clumsies drafts apply), or a team draft was accepted at the hub. " +
			"The draft is closed; publishing picks the change up. Not a tool call."},
	{typ: TypeDraftDecline, family: familyReview, aggregate: AggregateDrafts, payload: newPayload[ReviewData],
		title: "draft declined", description: "Written when a person declines " +
			"a draft (clumsies drafts decline, or a reviewer at the hub), with the reason. The draft is " +
			"closed; the agent sees the status and the reason in memdisc. Not a tool call."},
	{typ: TypeDraftConflict, family: familyReview, aggregate: AggregateDrafts, payload: newPayload[ReviewData],
		title: "draft conflicted", description: "Written when a draft cannot " +
			"be applied because its object changed since the draft's base (the file's hash, the team " +
			"object's revision), with the reason and, for a repository draft, a diff. The draft is closed. " +
			"Not a tool call."},
	{typ: TypeCatalogPublish, family: familyCatalog, aggregate: AggregateCatalog, payload: newPayload[PublishData],
		title: "object published", description: "Written by publishing (clumsies " +
			"publish, and serve on start) for each rule, workflow, context file or META_PROMPT that is new or " +
			"changed on disk. Carries the whole body, so a replay rebuilds the catalog."},
	{typ: TypeCatalogRemove, family: familyCatalog, aggregate: AggregateCatalog, payload: newPayload[RemoveData],
		title: "object removed", description: "Written by publishing for each " +
			"published object whose file is gone from the content tree (and was not renamed)."},
	{typ: TypeCatalogReid, family: familyCatalog, aggregate: AggregateCatalog, payload: newPayload[ReidData],
		title: "object id changed", description: "Written by publishing for each published object " +
			"whose id is not the one its path derives or the ids file (.clumsies/ids) records, such as " +
			"the random ids of older versions, right after the catalog.publish of the object under its " +
			"new id. The object under the old id is gone; usage counted under the old id counts under " +
			"the new one."},
	{typ: TypeSessionStart, family: familyHook, payload: newPayload[SessionStartData],
		title: "host started a session", description: "Written by the " +
			"session-start hook (clumsies hook session-start) when the host starts, resumes, clears or compacts " +
			"a session. sessionId is the host's real session id, which the hook handed the agent to pass to " +
			"memsetup. Not a tool call."},
	{typ: TypeUserPrompt, family: familyHook, payload: newPayload[UserPromptData],
		title: "user sent a prompt", description: "Written by the user-prompt hook " +
			"for each prompt the user submits: its sha256 and length, and its text only when the workspace sets " +
			"record_prompts = true. A prompt is answered when an attest.agent_report or attest.reject of the " +
			"session follows it. Not a tool call."},
	{typ: TypeStopBlocked, family: familyHook, payload: newPayload[StopBlockedData],
		title: "stop refused", description: "Written by the stop hook each time it " +
			"refuses to let the agent stop because the session's last prompt has no report after it. The hook " +
			"lets the agent go after limit blocks in a row, or when the host says it is already continuing " +
			"because of a stop hook. Not a tool call."},
	{typ: TypeToolGated, family: familyHook, payload: newPayload[ToolGatedData],
		title: "edit gated", description: "Written by the pre-tool hook (clumsies hook pre-tool) " +
			"when the workspace's gate ([enforce] mode = \"warn\" or \"block\" in config.toml) met a tool about to " +
			"change files that rules or workflows apply to (their front matter paths) which the session had not " +
			"loaded with memload: decision deny when the tool was refused, warn when it ran and the agent was told " +
			"what to load. missing names the ids to load. Not a tool call."},
	{typ: TypeFileEdit, family: familyHook, payload: newPayload[FileEditData],
		title: "agent changed files", description: "Written by the post-tool hook (clumsies hook " +
			"post-tool) for each tool use of the host that changed files: the tool, the files it touched, " +
			"relative to the workspace (never their contents; a file outside the workspace is recorded as " +
			"(outside)), and the rules in scope for them at that moment. The host saw the edit; the agent " +
			"did not report it. Not a tool call."},
	{typ: TypeCheck, family: familyHook, payload: newPayload[CheckData],
		title: "rule checks ran", description: "Written by the post-tool hook (clumsies hook post-tool) when the " +
			"pattern checks of rules in scope (the checks of their front matter) ran on the lines a tool call added, " +
			"and by the stop hook when every check of the rules in scope of the files the session changed ran on the " +
			"session's whole change: per rule, constraint and file a pass, or a finding with its line and the hash " +
			"of the matched text (never the text). At stop, rejected says the turn was closed with agentrejected and a " +
			"reason, decision what the stop made of the findings. Not a tool call."},
	{typ: TypeCheckpoint, family: familyLedger, payload: newPayload[CheckpointData],
		title: "hash chain pinned", description: "Written by the workspace's owner every " +
			"so many events and when it shuts down, after the events it covers: the chain digest over " +
			"every stored message up to seq. clumsies verify and clumsies import recompute the chain and " +
			"name the first sequence where the stored bytes and a checkpoint disagree. Not a tool call."},
	{typ: TypeHubCatalogPublish, ledger: LedgerHub, aggregate: AggregateTeam, family: familyCatalog, payload: newPayload[HubCatalogData],
		title: "team object written", description: "Written by the hub for each object of a team's " +
			"catalog that a push or an accepted draft wrote, with the catalog revision it got and who wrote it."},
	{typ: TypeHubCatalogRemove, ledger: LedgerHub, aggregate: AggregateTeam, family: familyCatalog, payload: newPayload[HubCatalogData],
		title: "team object removed", description: "Written by the hub for each object a push or an " +
			"accepted draft removed from a team's catalog, with the catalog revision of the removal."},
	{typ: TypeReviewAccept, ledger: LedgerHub, aggregate: AggregateTeam, family: familyReview, recordedAs: TypeDraftApply, payload: newPayload[ReviewOutcomeData],
		title: "draft accepted", description: "Written by the hub when a reviewer accepts a submitted " +
			"team draft and the catalog is written. The node that submitted it records attest.draft.apply."},
	{typ: TypeReviewDecline, ledger: LedgerHub, aggregate: AggregateTeam, family: familyReview, recordedAs: TypeDraftDecline, payload: newPayload[ReviewOutcomeData],
		title: "draft declined", description: "Written by the hub when a reviewer declines a submitted " +
			"team draft, with the reason. The node that submitted it records attest.draft.decline."},
	{typ: TypeReviewConflict, ledger: LedgerHub, aggregate: AggregateTeam, family: familyReview, recordedAs: TypeDraftConflict, payload: newPayload[ReviewOutcomeData],
		title: "draft conflicted", description: "Written by the hub when a submitted team draft cannot " +
			"be accepted because its object's revision is no longer the draft's base. The node that " +
			"submitted it records attest.draft.conflict."},
}

// byType and hubByType index the rows of each ledger. A type listed twice
// in one ledger is a programming error.
var byType, hubByType = index(LedgerWorkspace), index(LedgerHub)

func index(l Ledger) map[Type]*typeInfo {
	m := make(map[Type]*typeInfo, len(table))
	for i := range table {
		r := &table[i]
		if r.ledger != l {
			continue
		}
		if _, dup := m[r.typ]; dup {
			panic("events: type " + string(r.typ) + " is listed twice")
		}
		m[r.typ] = r
	}
	return m
}

// typesOf returns the types of ledger l in the table's order.
func typesOf(l Ledger) []Type {
	var ts []Type
	for _, r := range table {
		if r.ledger == l {
			ts = append(ts, r.typ)
		}
	}
	return ts
}

// unknown is the row of every type not in table.
var unknown typeInfo

// info returns the row of t; an empty row for an unknown type.
func (t Type) info() *typeInfo {
	if r, ok := byType[t]; ok {
		return r
	}
	return &unknown
}
