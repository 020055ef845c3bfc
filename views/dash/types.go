package dash

import "github.com/clumsies/clumsies/events"

// EventType is a type of the workspace's ledger with the few words that
// say what its events record.
type EventType struct {
	Type  string `json:"type"`
	Title string `json:"title"`
}

// EventTypes is the API's list of the ledger's event types, in the order
// of the events package's table: GET /api/types. The Live page lists and
// follows these.
type EventTypes struct {
	Items []EventType `json:"items"`
}

// Types lists every type of a workspace's ledger (events.Types).
func Types() EventTypes {
	out := EventTypes{Items: []EventType{}}
	for _, t := range events.Types() {
		out.Items = append(out.Items, EventType{Type: string(t), Title: t.Title()})
	}
	return out
}
