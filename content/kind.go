package content

import "strings"

// Kind is the kind of a content file.
type Kind string

// The kinds of content files.
const (
	KindRule     Kind = "rule"
	KindWorkflow Kind = "workflow"
	KindContext  Kind = "context"
	KindMPF      Kind = "mpf"
)

// MetaPromptPath is the source path and the public path of the meta prompt.
const MetaPromptPath = "META_PROMPT.md"

// The folders under the content root that hold rules (and workflows) and
// context, and the group of rule paths that are workflows.
const (
	rulesDir      = "rules/"
	contextDir    = "context/"
	workflowGroup = "workflow/"
	mdExt         = ".md"
)

// Classify maps a source path, relative to the content root and slash
// separated, to its kind and public path. ok is false for files that are not
// content: anything other than META_PROMPT.md at the root and files ending in
// ".md" (lower case) under rules/ or context/, and any path with an empty
// segment or a segment starting with "." (hidden files and folders).
//
// Classify only maps; it does not judge whether a name is safe (Scan does).
func Classify(source string) (kind Kind, public string, ok bool) {
	if source == MetaPromptPath {
		return KindMPF, MetaPromptPath, true
	}
	if !strings.HasSuffix(source, mdExt) {
		return "", "", false
	}
	for seg := range strings.SplitSeq(source, "/") {
		if seg == "" || seg[0] == '.' {
			return "", "", false
		}
	}
	switch {
	case strings.HasPrefix(source, rulesDir):
		public = source[len(rulesDir):]
		return KindOfRulePath(public), public, true
	case strings.HasPrefix(source, contextDir):
		return KindContext, source[len(contextDir):], true
	}
	return "", "", false
}

// SourcePath is the inverse of Classify: it returns where the public path of
// a kind lives under the content root, slash separated. It returns "" for an
// unknown kind. A rule path under workflow/ lives where a workflow does, so
// it classifies back as KindWorkflow.
func SourcePath(kind Kind, public string) string {
	switch kind {
	case KindRule, KindWorkflow:
		return rulesDir + public
	case KindContext:
		return contextDir + public
	case KindMPF:
		return MetaPromptPath
	}
	return ""
}

// NameOf returns the base name of a public path without its ".md" extension:
// "workflow/CODING.md" -> "CODING", "META_PROMPT.md" -> "META_PROMPT".
func NameOf(public string) string {
	return strings.TrimSuffix(public[strings.LastIndexByte(public, '/')+1:], mdExt)
}

// GroupOf returns the first segment of a public path that has a folder, and
// "" for a path without one: "go/STYLE.md" -> "go", "TOP.md" -> "".
func GroupOf(public string) string {
	group, _, found := strings.Cut(public, "/")
	if !found {
		return ""
	}
	return group
}

// KindOfRulePath returns KindWorkflow for a rule path under "workflow/" and
// KindRule for every other rule path.
func KindOfRulePath(public string) Kind {
	if strings.HasPrefix(public, workflowGroup) {
		return KindWorkflow
	}
	return KindRule
}

// InTree reports whether name, an entry directly under the content root,
// is part of the content tree that Scan reads: META_PROMPT.md, rules or
// context. Everything else under the root (config.toml, state/) is not.
func InTree(name string) bool {
	return name == MetaPromptPath || name+"/" == rulesDir || name+"/" == contextDir
}
