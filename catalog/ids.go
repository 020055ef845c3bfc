package catalog

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/content"
)

// IDsFile is the name, in .clumsies/, of the tracked file that records the
// ids that are not their path's: objects renamed since their first
// publish keep the id their first path gave them, and every clone that
// pulls the rename reads it there.
const IDsFile = "ids"

// DerivedID is the id an object at path of kind k gets at its first
// publish: the same in every clone of a repository. Rules and workflows
// get "p-" and context "c-" followed by 32 hex digits of the SHA-256 of
// the namespace and the public path; the meta prompt is always
// META_PROMPT.md.
func DerivedID(k content.Kind, path string) string {
	return derivedID(k, path, 0)
}

// derivedID is DerivedID, or with n > 0 the n-th fallback for a path
// whose derived id another object holds (it was renamed away from path
// and a new file took the path).
func derivedID(k content.Kind, path string, n int) string {
	if k == content.KindMPF {
		return content.MetaPromptPath
	}
	seed := string(content.NamespaceOf(k)) + "\x00" + path
	if n > 0 {
		seed += fmt.Sprintf("\x00%d", n)
	}
	sum := sha256.Sum256([]byte(seed))
	prefix := "p-"
	if k == content.KindContext {
		prefix = "c-"
	}
	return prefix + hex.EncodeToString(sum[:16])
}

// IDs holds the recorded ids of the ids file by source path (the path
// under the content root: rules/go/STYLE.md, context/API.md).
type IDs map[string]string

// expected returns the id an object of kind k at public path should have:
// the recorded one, else the derived one.
func (ids IDs) expected(k content.Kind, path string) string {
	if id, ok := ids[content.SourcePath(k, path)]; ok && k != content.KindMPF {
		return id
	}
	return DerivedID(k, path)
}

// recorded returns the id recorded for a file of kind k at public path.
func (ids IDs) recorded(k content.Kind, path string) (string, bool) {
	id, ok := ids[content.SourcePath(k, path)]
	return id, ok && k != content.KindMPF
}

// ParseIDs reads an ids file: one "<id> <source path>" a line; blank
// lines and lines starting with "#" are comments.
func ParseIDs(text string) (IDs, error) {
	ids := IDs{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		id, path, ok := strings.Cut(l, " ")
		if !ok || id == "" || path == "" || !validRecordedID(id) {
			return nil, fmt.Errorf("read the ids file: line %d: want \"<id> <path>\"", n)
		}
		ids[path] = id
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the ids file: %w", err)
	}
	return ids, nil
}

// validRecordedID reports whether id has the form of an object id.
func validRecordedID(id string) bool {
	if !strings.HasPrefix(id, "p-") && !strings.HasPrefix(id, "c-") {
		return false
	}
	return len(id) > 2 && !strings.ContainsAny(id, " \t\x00")
}

// IDsOf returns what the ids file should record for the published
// objects: every id that is not the one its path derives.
func IDsOf(published []Published) IDs {
	ids := IDs{}
	for _, p := range published {
		if p.Kind != content.KindMPF && p.ID != DerivedID(p.Kind, p.Path) {
			ids[content.SourcePath(p.Kind, p.Path)] = p.ID
		}
	}
	return ids
}

// Format returns the text of an ids file, sorted by path; "" for no ids.
func (ids IDs) Format() string {
	if len(ids) == 0 {
		return ""
	}
	paths := make([]string, 0, len(ids))
	for p := range ids {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var b strings.Builder
	b.WriteString("# Ids of clumsies objects that are not the ones their paths derive\n" +
		"# (renamed since their first publish). Written by clumsies publish; commit it.\n")
	for _, p := range paths {
		b.WriteString(ids[p] + " " + p + "\n")
	}
	return b.String()
}

// ID returns the id an object of kind k at public path has: the one the
// ids file records, else the one its path derives.
func (ids IDs) ID(k content.Kind, path string) string { return ids.expected(k, path) }
