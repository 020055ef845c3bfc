// Package content owns the authoritative content tree of a workspace: which
// files under the content root are meta prompt, rules, workflows and context,
// their public paths, names and groups, their hashes, the constraints a rule
// or workflow file declares, and the cleaning of paths that agents propose.
// It imports only the standard library, golang.org/x/text/unicode/norm and
// go.yaml.in/yaml/v3 (the checks of a rule's front matter: checks.go).
//
// The layout (paths relative to the content root) is:
//
//	META_PROMPT.md        the meta prompt (KindMPF), public path META_PROMPT.md
//	rules/workflow/X.md   a workflow, public path workflow/X.md, group "workflow"
//	rules/<dir>/X.md      a rule, public path <dir>/X.md, group <dir>
//	rules/X.md            a rule, public path X.md, no group
//	context/<dir>/X.md    context, public path <dir>/X.md, group <dir>
//	context/X.md          context, public path X.md, no group
//
// Everything else in the root (config files, a state/ folder, hidden files and
// folders, files that do not end in ".md") is not content and is ignored.
// Rules and workflows share one namespace of public paths; context has its own.
//
// Scan reads the whole tree. ScanIndexed reads only the files an Index of
// an earlier scan does not vouch for (same size, times, device and inode,
// and not modified within RacyWindow of that scan), and leaves bodies out
// (Reader reads them one at a time), so that a publish of an unchanged
// tree opens no content file and a publish of any size holds no body.
package content
