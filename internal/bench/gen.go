package main

import (
	"fmt"

	"github.com/clumsies/clumsies/events"
)

// sampleEvent returns the i-th event of a realistic ledger mix: mostly
// refer events, then loads, discovers, setups and reports.
func sampleEvent(ws string, i int) events.Event {
	session := fmt.Sprintf("session-%d", i/50)
	var (
		typ     events.Type
		tool    string
		payload any
	)
	switch r := i % 20; {
	case r < 14:
		typ, tool = events.TypeRefer, "memref"
		payload = events.ReferData{Refs: []events.Ref{{
			RuleID: fmt.Sprintf("p-%032x", i%200), RuleHash: "sha256:" + fmt.Sprintf("%064x", i%200),
			ConstraintID: fmt.Sprintf("Steps/%d", i%7+1), Name: "Steps", TextHash: "sha256:" + fmt.Sprintf("%064x", i%7),
			Reason: "kept the change small",
		}}}
	case r < 16:
		typ, tool = events.TypeLoad, "memload"
		payload = events.LoadData{Items: []events.LoadedItem{{ID: fmt.Sprintf("p-%032x", i%200), Hash: "sha256:" + fmt.Sprintf("%064x", i%200), Changed: true}}}
	case r < 18:
		typ, tool = events.TypeDiscover, "memdisc"
		payload = events.DiscoverData{Query: "errors", Count: 12}
	case r < 19:
		typ, tool = events.TypeSetup, "memsetup"
		payload = events.SetupData{Hash: "sha256:" + fmt.Sprintf("%064x", 1), Changed: true}
	default:
		typ, tool = events.TypeAgentReport, "agentreport"
		payload = events.AgentReportData{Summary: "made the export stream rows and added a regression test"}
	}
	ev, err := events.New(ws, typ, payload)
	if err != nil {
		panic(err)
	}
	ev.SessionID, ev.Tool, ev.DurationUs = session, tool, int64(50+i%100)
	return ev
}
