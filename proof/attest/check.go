package attest

import (
	"fmt"
	"maps"
	"slices"
)

// Unattested is what Check says of a file no verified attestation in the
// range names at its blob (a commit made without clumsies attest).
const Unattested = "unattested"

// Enforce modes of the workspace's [enforce] table, as Check reads them.
const (
	EnforceOff   = "off"
	EnforceWarn  = "warn"
	EnforceBlock = "block"
)

// Result is the policy check of a change (a range of commits): per file,
// who wrote it, the sessions, the rules in scope and whether they were
// loaded and referenced, and what fails the policy. Its shape is stable:
// Findings (per file) holds the results of checks of the added lines
// against the rules' patterns, empty until such checks run.
type Result struct {
	Base string `json:"base"`
	Head string `json:"head"`
	// OK is set when no file has a problem or a finding.
	OK bool `json:"ok"`
	// Enforce is the workspace's [enforce] mode.
	Enforce string `json:"enforce"`
	// Source says where the evidence came from: "ledger" (this
	// workspace's) or "attestations" (the commits' signed notes).
	Source string      `json:"source"`
	Files  []CheckFile `json:"files"`
	// Problems counts the files' problems, Findings their findings.
	Problems int `json:"problems"`
	Findings int `json:"findings"`
}

// CheckFile is one changed file in a Result.
type CheckFile struct {
	Path string `json:"path"`
	Blob string `json:"blob"`
	// By is ByAgent, ByMixed, ByHuman or Unattested.
	By       string         `json:"by"`
	Sessions []Session      `json:"sessions"`
	Rules    []CheckRule    `json:"rules"`
	Problems []string       `json:"problems"`
	Findings []Finding      `json:"findings"`
	Note     string         `json:"note,omitempty"`
	Gate     []GateDecision `json:"gate"`
}

// CheckRule is one rule in scope of a file's agent edits.
type CheckRule struct {
	ID string `json:"id"`
	// Hash is the rule's content hash at the last edit.
	Hash string `json:"hash"`
	// Loaded is set when every agent edit of the file with the rule in
	// scope was made after the session loaded it.
	Loaded bool `json:"loaded"`
	// Referenced are the constraint ids the sessions declared applied.
	Referenced []string `json:"referenced"`
}

// Finding is one result of a rule's pattern check on a line the change
// added.
type Finding struct {
	RuleID       string `json:"ruleId"`
	ConstraintID string `json:"constraintId,omitempty"`
	Line         int    `json:"line"`
	Message      string `json:"message"`
}

// Check judges the attributed files of a change against the policy: an
// agent's edit made with a rule in scope not loaded fails; with the
// workspace asking for block, an edit the gate let through (warn, or
// allowed unchecked) or made with rules unloaded (the gate was off) fails
// too. sessions are the predicate's sessions (their refs).
func Check(base, head, enforce, source string, files []File, sessions []Session) Result {
	r := Result{Base: base, Head: head, Enforce: enforce, Source: source, Files: []CheckFile{}}
	bySession := map[string]Session{}
	for _, s := range sessions {
		bySession[s.ID] = s
	}
	for _, f := range files {
		cf := CheckFile{Path: f.Path, Blob: f.Blob, By: f.By, Sessions: []Session{}, Rules: []CheckRule{},
			Problems: []string{}, Findings: []Finding{}, Note: f.Note, Gate: []GateDecision{}}
		if f.By == Unattested {
			cf.Problems, cf.Note = append(cf.Problems, f.Note), ""
		}
		rules := map[string]*CheckRule{}
		seen := map[string]bool{}
		for _, ed := range f.Edits {
			if s, ok := bySession[ed.Session]; ok && !seen[ed.Session] {
				seen[ed.Session] = true
				cf.Sessions = append(cf.Sessions, s)
			}
			for _, rs := range ed.Rules {
				cr := rules[rs.ID]
				if cr == nil {
					cr = &CheckRule{ID: rs.ID, Loaded: true, Referenced: []string{}}
					rules[rs.ID] = cr
				}
				cr.Hash = rs.Hash
				if !rs.Loaded {
					cr.Loaded = false
					cf.Problems = append(cf.Problems, fmt.Sprintf("the edit at seq %d (session %s, %s) was made with rule %s in scope and not loaded", ed.Seq, ed.Session, orWord(ed.Tool, "found at the end of a turn"), rs.ID))
					if enforce == EnforceBlock {
						cf.Problems = append(cf.Problems, fmt.Sprintf("the workspace asks for block, but the edit at seq %d went through with rules unloaded: the gate was off or not wired for %s", ed.Seq, ed.Host))
					}
				}
			}
			for _, g := range ed.Gate {
				cf.Gate = append(cf.Gate, g)
				if enforce == EnforceBlock && (g.Decision == "warn" || g.Decision == "allow") {
					cf.Problems = append(cf.Problems, fmt.Sprintf("the workspace asks for block, but the gate answered %s at seq %d (%s)", g.Decision, g.Seq, orWord(g.Unchecked, "the gate was in warn mode")))
				}
			}
		}
		for _, s := range cf.Sessions {
			for _, ref := range s.Refs {
				if cr := rules[ref.RuleID]; cr != nil && !slices.Contains(cr.Referenced, ref.ConstraintID) {
					cr.Referenced = append(cr.Referenced, ref.ConstraintID)
				}
			}
		}
		for _, id := range slices.Sorted(maps.Keys(rules)) {
			cf.Rules = append(cf.Rules, *rules[id])
		}
		cf.Problems = slices.Compact(cf.Problems)
		r.Problems += len(cf.Problems)
		r.Findings += len(cf.Findings)
		r.Files = append(r.Files, cf)
	}
	r.OK = r.Problems == 0 && r.Findings == 0
	return r
}

func orWord(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// AddFindings adds the findings of the checks of the lines the change
// added to the file at path (a file the change did not touch gets none)
// and updates the counts and the verdict: the one way findings enter a
// Result.
func (r *Result) AddFindings(path string, fs []Finding) {
	for i := range r.Files {
		if r.Files[i].Path == path {
			r.Files[i].Findings = append(r.Files[i].Findings, fs...)
			r.Findings += len(fs)
		}
	}
	r.OK = r.Problems == 0 && r.Findings == 0
}
