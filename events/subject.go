package events

// SubjectPrefix is the first token of every clumsies subject.
const SubjectPrefix = "clumsies"

// Subject returns the subject an event is stored under:
// clumsies.<workspaceId>.<type>, for example
// clumsies.ws-1a2b.attest.refer. The workspace id is part of every subject so
// that streams of many workspaces can be aggregated without rewriting.
func (e Event) Subject() string { return Subject(e.WorkspaceID, e.Type) }

// Subject returns the subject of events of type t in a workspace.
func Subject(workspaceID string, t Type) string {
	return SubjectPrefix + "." + workspaceID + "." + string(t)
}

// StreamSubjects returns the subject filter that covers a workspace's events.
func StreamSubjects(workspaceID string) string {
	return SubjectPrefix + "." + workspaceID + ".>"
}
