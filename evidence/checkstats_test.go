package evidence

import (
	"math"
	"testing"
)

func TestShareOf(t *testing.T) {
	tests := []struct {
		name      string
		k, n      int
		low, high float64 // -1: no share, a note
	}{
		{"TooFew", 3, 9, -1, -1},
		{"Half", 5, 10, 0.2366, 0.7634},
		{"None", 0, 20, 0, 0.1611},
		{"All", 40, 40, 0.9124, 1},
		{"Some", 12, 100, 0.0700, 0.1981},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ShareOf(tt.k, tt.n)
			if s.Of != tt.n || s.Count != tt.k {
				t.Fatalf("counts %d of %d", s.Count, s.Of)
			}
			if tt.low < 0 {
				if s.Rate != nil || s.Note == "" {
					t.Fatalf("a sample of %d got a rate %v and note %q", tt.n, s.Rate, s.Note)
				}
				return
			}
			if s.Rate == nil || math.Abs(*s.Rate-float64(tt.k)/float64(tt.n)) > 1e-9 ||
				math.Abs(*s.Low-tt.low) > 5e-4 || math.Abs(*s.High-tt.high) > 5e-4 {
				t.Fatalf("got %v [%v, %v], want [%v, %v]", deref(s.Rate), deref(s.Low), deref(s.High), tt.low, tt.high)
			}
		})
	}
}

func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// SumChecks sums the sessions per rule: loaded against unloaded sessions
// with a finding, findings per constraint by state, and per version.
func TestChecksOf(t *testing.T) {
	session := func(id, hash string, loaded bool, fs ...ConstraintFindings) Session {
		return Session{ID: id, Checks: []RuleChecks{{ID: "p-api", Hash: hash, Loaded: loaded, Runs: 1, Findings: fs}}}
	}
	var ss []Session
	for i := range 12 {
		var fs []ConstraintFindings
		if i < 3 {
			fs = append(fs, ConstraintFindings{Constraint: "Errors/2", Found: 1, Fixed: 1})
		}
		ss = append(ss, session(string(rune('a'+i)), "sha256:v2", true, fs...))
	}
	ss = append(ss,
		session("u1", "sha256:v1", false, ConstraintFindings{Constraint: "Errors/2", Found: 2, Rejected: 1, Open: 1}),
		session("u2", "sha256:v1", false, ConstraintFindings{Constraint: "Errors/1", Found: 1, Open: 1}),
		session("u3", "sha256:v1", false))
	got := SumChecks(ss)
	if len(got) != 1 {
		t.Fatalf("got %d rules", len(got))
	}
	r := got[0]
	if r.Sessions != 15 || r.Loaded.Of != 12 || r.Loaded.Count != 3 || r.Loaded.Rate == nil ||
		r.Unloaded.Of != 3 || r.Unloaded.Count != 2 || r.Unloaded.Rate != nil || r.Unloaded.Note == "" {
		t.Fatalf("sessions: %+v", r)
	}
	want := []ConstraintTotals{{ID: "Errors/1", Found: 1, Open: 1}, {ID: "Errors/2", Found: 5, Fixed: 3, Rejected: 1, Open: 1}}
	if len(r.Constraints) != 2 || r.Constraints[0] != want[0] || r.Constraints[1] != want[1] {
		t.Fatalf("constraints %+v, want %+v", r.Constraints, want)
	}
	if len(r.Versions) != 2 || r.Versions[0].Hash != "sha256:v1" || r.Versions[0].Sessions != 3 || r.Versions[0].Findings.Count != 2 ||
		r.Versions[1].Sessions != 12 || r.Versions[1].Findings.Count != 3 {
		t.Fatalf("versions %+v", r.Versions)
	}
	// Per version and constraint: the sessions that broke it, loaded
	// against not, out of the version's loaded and unloaded sessions.
	v1, v2 := r.Versions[0], r.Versions[1]
	if v1.Loaded.Of != 0 || v1.Unloaded.Of != 3 || v1.Unloaded.Count != 2 || len(v1.Constraints) != 2 ||
		v1.Constraints[0].ID != "Errors/1" || v1.Constraints[0].Unloaded.Count != 1 || v1.Constraints[0].Unloaded.Of != 3 ||
		v1.Constraints[1].ID != "Errors/2" || v1.Constraints[1].Unloaded.Count != 1 || v1.Constraints[1].Loaded.Of != 0 {
		t.Errorf("version v1: %+v", v1)
	}
	if v2.Loaded.Of != 12 || v2.Loaded.Count != 3 || v2.Loaded.Rate == nil || v2.Unloaded.Of != 0 || len(v2.Constraints) != 1 ||
		v2.Constraints[0].ID != "Errors/2" || v2.Constraints[0].Loaded.Count != 3 || v2.Constraints[0].Loaded.Of != 12 || v2.Constraints[0].Loaded.Rate == nil {
		t.Errorf("version v2: %+v", v2)
	}
}
