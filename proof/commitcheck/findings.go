package commitcheck

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/gitrepo"
	"github.com/clumsies/clumsies/rulecheck"
	"github.com/clumsies/clumsies/workspace"
)

// AddRuleFindings runs the pattern checks of the workspace's rules, as
// its content tree holds them (in CI: as HEAD holds them), on the lines
// the change base..head added, and adds what they found to r. Command
// checks are not run here: they would see the working tree, not head. A
// base of "" (a root commit) is the empty tree.
func AddRuleFindings(ctx context.Context, ws *workspace.Workspace, repo *gitrepo.Repo, base, head string, r *attest.Result) error {
	rules, err := treeRuleChecks(ws, repo.Prefix)
	if err != nil {
		return err
	}
	if len(rules) == 0 {
		return nil
	}
	if base == "" {
		base = emptyTree
	}
	res, err := rulecheck.Range(ctx, repo.Top, base, head, rules)
	if err != nil {
		return fmt.Errorf("run the rules' checks on the change: %w", err)
	}
	byFile := map[string][]attest.Finding{}
	var order []string
	for _, f := range rulecheck.Findings(res) {
		if _, ok := byFile[f.File]; !ok {
			order = append(order, f.File)
		}
		byFile[f.File] = append(byFile[f.File], attest.Finding{RuleID: f.Rule, ConstraintID: f.Constraint, Line: f.Line, Message: f.Message})
	}
	for _, file := range order {
		r.AddFindings(file, byFile[file])
	}
	return nil
}

// emptyTree is the id of git's empty tree (SHA-1 repositories): what a
// root commit's change is against.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// treeRuleChecks reads the checks of every rule and workflow of the
// workspace's content tree, named by the ids the ids file records (else
// the ids their paths derive). prefix is the workspace's folder in the
// repository (gitrepo.Repo.Prefix): the rules' globs are the workspace's,
// the change's paths the repository's.
func treeRuleChecks(ws *workspace.Workspace, prefix string) ([]rulecheck.Rule, error) {
	files, err := content.Scan(ws.ContentRoot())
	if err != nil {
		return nil, fmt.Errorf("read the rules: %w (fix the file named, then check again)", err)
	}
	ids := catalog.IDs{}
	if b, err := os.ReadFile(filepath.Join(ws.MetaDir(), catalog.IDsFile)); err == nil {
		if ids, err = catalog.ParseIDs(string(b)); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(ws.MetaDir(), catalog.IDsFile), err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read the ids file: %w", err)
	}
	var out []rulecheck.Rule
	for _, f := range files {
		if f.Kind != content.KindRule && f.Kind != content.KindWorkflow {
			continue
		}
		cs, err := content.ParseChecks(f.Name, f.Body)
		if err != nil {
			return nil, fmt.Errorf("%s: %w (fix its checks, then check again)", f.Source, err)
		}
		if len(cs) == 0 {
			continue
		}
		globs, err := content.ParsePaths(f.Body)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Source, err)
		}
		for i, g := range globs {
			globs[i] = prefix + g
		}
		out = append(out, rulecheck.Rule{ID: ids.ID(f.Kind, f.Path), Path: f.Path, Hash: f.Hash, Paths: globs, Checks: cs})
	}
	return out, nil
}
