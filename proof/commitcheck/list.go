package commitcheck

import (
	"context"
	"slices"
	"time"

	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/gitrepo"
)

// MaxList bounds how many commits List looks at.
const MaxList = 200

// Filter keeps the commits of a list with an attributed agent edit of
// Session, or made with Rule in scope ("": any).
type Filter struct {
	Session string `json:"session,omitempty"`
	Rule    string `json:"rule,omitempty"`
}

func (f Filter) keeps(files []attest.File) bool {
	if f.Session == "" && f.Rule == "" {
		return true
	}
	for _, fl := range files {
		for _, ed := range fl.Edits {
			if (f.Session == "" || ed.Session == f.Session) &&
				(f.Rule == "" || slices.ContainsFunc(ed.Rules, func(r attest.RuleState) bool { return r.ID == f.Rule })) {
				return true
			}
		}
	}
	return false
}

// Commits is a branch's last commits as the dashboard lists them.
type Commits struct {
	// Branch is the branch HEAD is on ("" when detached).
	Branch string `json:"branch"`
	Filter
	// Looked is how many commits were looked at (at most the n asked);
	// More is set when HEAD reaches more.
	Looked int            `json:"looked"`
	More   bool           `json:"more"`
	Items  []ListedCommit `json:"items"`
}

// ListedCommit is one commit of a list with its files counted by who
// wrote them (against its first parent).
type ListedCommit struct {
	ID       string    `json:"id"`
	Subject  string    `json:"subject"`
	Author   string    `json:"author"`
	Time     time.Time `json:"time"`
	Files    int       `json:"files"`
	Agent    int       `json:"agent"`
	Mixed    int       `json:"mixed"`
	Human    int       `json:"human"`
	Sessions []string  `json:"sessions"`
}

// List looks at the last n commits of HEAD (at most MaxList) and returns
// those f keeps, newest first, each attributed with the evidence e. An
// error wraps gitrepo.ErrUnknownRev when the repository has no commit.
func List(ctx context.Context, repo *gitrepo.Repo, e *attest.Evidence, n int, f Filter) (Commits, error) {
	n = min(max(n, 1), MaxList)
	out := Commits{Branch: repo.Branch(ctx), Filter: f, Items: []ListedCommit{}}
	log, err := repo.Log(ctx, "HEAD", n+1)
	if err != nil {
		return out, err
	}
	if len(log) > n {
		log, out.More = log[:n], true
	}
	out.Looked = len(log)
	for _, c := range log {
		t, err := Target(ctx, repo, c.Commit)
		if err != nil {
			return out, err
		}
		p := attest.Attribute(e, t)
		if !f.keeps(p.Files) {
			continue
		}
		lc := ListedCommit{ID: c.ID, Subject: c.Subject, Author: c.Author, Time: c.Time, Files: len(p.Files), Sessions: []string{}}
		for _, fl := range p.Files {
			switch fl.By {
			case attest.ByAgent:
				lc.Agent++
			case attest.ByMixed:
				lc.Mixed++
			default:
				lc.Human++
			}
		}
		for _, s := range p.Sessions {
			lc.Sessions = append(lc.Sessions, s.ID)
		}
		out.Items = append(out.Items, lc)
	}
	return out, nil
}
