package content

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxFileSize is the largest content file, in bytes, that Scan accepts.
const MaxFileSize = 1 << 20

// File is one content file as found on disk.
type File struct {
	Source string // path relative to the content root, slash separated: "rules/workflow/CODING.md"
	Kind   Kind
	Path   string // public path: "workflow/CODING.md", "<dir>/X.md", "META_PROMPT.md"
	Name   string // base name without ".md": "CODING"; "META_PROMPT" for the meta prompt
	Group  string // first segment of Path when Path has a folder, else ""; "" for the meta prompt
	Body   string // the exact bytes of the file
	Hash   string // Hash([]byte(Body))
}

// Scan reads the content tree under root and returns its files ordered by
// namespace, then by public path: the meta prompt first, then rules and
// workflows, then context. The order depends only on the tree.
//
// Scan looks only at META_PROMPT.md, rules/ and context/ in root and skips
// folders and files whose names start with "."; everything that Classify
// does not call content is ignored. A missing root, rules/ or context/ is
// an empty part of the tree, not an error. Files that are not regular files
// (devices, pipes, sockets) are ignored.
//
// Symlinks: a symlinked content file whose target lies inside root is read
// through the link; a symlink to a folder inside root is not followed (so the
// walk cannot loop); a symlink to a folder outside root, or a content file
// linked to a target outside root, is an error wrapping ErrOutsideRoot. Root
// itself may be a symlink.
//
// Hard links: a content file with more hard links than Scan finds under
// rules/, context/ and META_PROMPT.md is an error wrapping ErrHardLink, since
// its other names may lie outside the content root (a hard link is how a
// file outside would otherwise get in).
//
// Scan returns no files and a *FileError naming the first bad file in
// lexical order when a content file is not valid UTF-8 (ErrNotUTF8), is
// larger than MaxFileSize (ErrTooLarge), has a name that CleanPath would not
// return unchanged or that IsMetaPrompt matches outside the root
// (ErrUnsafeName), is a rule or workflow whose front matter has bad paths
// (ErrBadPaths), or cannot be read (the read error).
func Scan(root string) ([]File, error) {
	files, _, err := scan(root, nil)
	return files, err
}

// ScanIndexed is Scan that opens and hashes only the content files that
// prev (from an earlier ScanIndexed of the same root, or nil) does not
// vouch for (see Index), and returns the files without their bodies: Body
// is empty and Hash is set; ReadFile reads a body when it is needed. It
// checks the files it reads as Scan does; the others passed the same
// checks when they were read. Unlike Scan, one bad content file does not
// stop it: the file is left out of the result and named, with why, by the
// index's Held; only a problem of the tree (a folder it cannot walk, a
// hard link to a file outside it) is an error. The index it returns
// describes every other content file of this scan; it is made of prev's
// entries, so prev must not be used afterwards.
func ScanIndexed(root string, prev *Index) ([]File, *Index, error) {
	return scanIndexed(root, prev, RacyWindow)
}

func scanIndexed(root string, prev *Index, window time.Duration) ([]File, *Index, error) {
	next := &Index{scanned: time.Now().UnixNano(), files: map[string]indexEntry{}}
	files, s, err := scan(root, func(s *scanner) {
		if prev != nil && prev.root != s.dir {
			prev = nil // another root: nothing of it can be vouched for
		}
		// The tree is most often as the last scan left it: the new index
		// is the old one's entries, updated in place (an entry is looked
		// at once, before it is replaced), and the result is sized for
		// them, so that a scan holds one index, not two, and builds
		// nothing by regrowing it.
		next.root = s.dir
		if prev != nil && prev.files != nil {
			next.files = prev.files
		}
		s.files = make([]File, 0, prev.Len())
		s.prev, s.next, s.window = prev, next, window
		s.holding = true
	})
	if err != nil {
		return nil, nil, err
	}
	if s != nil {
		next.read, next.held = s.opened, s.held
	}
	for rel, e := range next.files {
		if !e.seen {
			delete(next.files, rel) // gone from the tree, or no longer indexed
			continue
		}
		e.seen = false
		next.files[rel] = e
	}
	return files, next, nil
}

// scan runs one scan of root; setup, if set, adjusts the scanner first.
// A missing root gives no files and a nil scanner.
func scan(root string, setup func(*scanner)) ([]File, *scanner, error) {
	dir, err := filepath.Abs(root)
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("content: scan %s: %w", root, err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("content: scan %s: %w", root, err)
	}
	defer r.Close()

	s := &scanner{root: r, dir: dir}
	if setup != nil {
		setup(s)
	}
	if err := fs.WalkDir(r.FS(), ".", s.visit); err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("content: scan %s: %w", root, err)
	}
	if err := s.checkLinks(); err != nil {
		return nil, nil, err
	}
	slices.SortFunc(s.files, func(a, b File) int {
		return cmp.Or(cmp.Compare(namespace(a.Kind), namespace(b.Kind)), strings.Compare(a.Path, b.Path))
	})
	return s.files, s, nil
}

// namespace orders the kinds in Scan's result.
func namespace(k Kind) int {
	switch k {
	case KindMPF:
		return 0
	case KindRule, KindWorkflow:
		return 1
	}
	return 2
}

// scanner collects the files of one Scan.
type scanner struct {
	root  *os.Root // confines every read to the content root
	dir   string   // the content root, absolute and free of symlinks
	files []File
	// names counts the names under which the walk met each file; linked
	// lists the content files that have more than one hard link.
	names  map[[2]uint64]uint64
	linked []linkedFile
	// With an index (ScanIndexed): prev vouches for unchanged files, next
	// records every file, read counts the files opened, and no body is
	// kept.
	prev, next *Index
	window     time.Duration
	opened     int
	// With a stamp (StampTree): every content file is counted in it by
	// its stat, and none is read or kept.
	stamp *Stamp
	// With holding (ScanIndexed), a content file that cannot be taken is
	// recorded in held and the walk goes on.
	holding bool
	held    []*FileError
}

// linkedFile is a content file with more than one hard link.
type linkedFile struct {
	rel   string
	id    [2]uint64
	links uint64
}

// count records that the walk met the regular file whose lstat is info
// (nil when it could not be had).
func (s *scanner) count(info fs.FileInfo) {
	if info == nil {
		return
	}
	if id, _, ok := fileID(info); ok {
		if s.names == nil {
			s.names = map[[2]uint64]uint64{}
		}
		s.names[id]++
	}
}

// checkLinks returns a *FileError wrapping ErrHardLink for the first
// content file (in walk order) that has names the walk did not meet.
func (s *scanner) checkLinks() error {
	for _, l := range s.linked {
		if s.names[l.id] < l.links {
			return &FileError{Path: l.rel, Err: ErrHardLink}
		}
	}
	return nil
}

// visit is the fs.WalkDirFunc of Scan; rel is slash separated. With
// holding, a content file it cannot take is held, not an error.
func (s *scanner) visit(rel string, d fs.DirEntry, err error) error {
	err = s.visitFile(rel, d, err)
	var fe *FileError
	if err != nil && s.holding && d != nil && !d.IsDir() && errors.As(err, &fe) && fe.Path == rel {
		if _, _, isContent := Classify(rel); isContent {
			s.held = append(s.held, fe)
			return nil
		}
	}
	return err
}

// visitFile is visit without the holding of bad content files.
func (s *scanner) visitFile(rel string, d fs.DirEntry, err error) error {
	if err != nil {
		if rel == "." {
			return err
		}
		return &FileError{Path: rel, Err: err}
	}
	if rel == "." {
		return nil
	}
	topLevel := !strings.Contains(rel, "/")
	skip := strings.HasPrefix(d.Name(), ".") ||
		topLevel && rel != "rules" && rel != "context" && (rel != MetaPromptPath || d.IsDir())
	switch {
	case skip && d.IsDir():
		return fs.SkipDir
	case skip, d.IsDir():
		return nil
	}

	kind, public, isContent := Classify(rel)
	if isContent {
		if reason := nameProblem(kind, public); reason != "" {
			return &FileError{Path: rel, Err: &unsafeNameError{reason: reason}}
		}
	}
	if d.Type()&fs.ModeSymlink != 0 {
		return s.visitSymlink(rel, isContent, kind, public)
	}
	if !d.Type().IsRegular() {
		return nil
	}
	info, err := d.Info()
	if err != nil {
		info = nil
	}
	s.count(info)
	if !isContent {
		return nil
	}
	return s.readFile(rel, rel, kind, public, info)
}

// visitSymlink applies Scan's symlink rules to the link at rel.
func (s *scanner) visitSymlink(rel string, isContent bool, kind Kind, public string) error {
	target, err := filepath.EvalSymlinks(filepath.Join(s.dir, filepath.FromSlash(rel)))
	var info fs.FileInfo
	if err == nil {
		info, err = os.Stat(target)
	}
	if err != nil {
		if isContent {
			return &FileError{Path: rel, Err: err}
		}
		return nil // a broken link that is not content
	}
	inside, err := filepath.Rel(s.dir, target)
	if err != nil || inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) || filepath.IsAbs(inside) {
		if isContent || info.IsDir() {
			return &FileError{Path: rel, Err: ErrOutsideRoot}
		}
		return nil
	}
	if !isContent || !info.Mode().IsRegular() {
		return nil
	}
	// Read the resolved target, which holds no symlinks: os.Root refuses
	// absolute links even when they point inside the root.
	return s.readFile(rel, filepath.ToSlash(inside), kind, public, info)
}

// nameProblem returns why a content file's public path is unsafe, or "".
func nameProblem(kind Kind, public string) string {
	if kind == KindMPF {
		return ""
	}
	clean, reason := cleanPath(public)
	switch {
	case reason != "":
		return reason
	case clean != public:
		return "leading or trailing white space"
	case IsMetaPrompt(public):
		return "META_PROMPT is reserved for the meta prompt at the root"
	}
	return ""
}

// readFile adds the content file at rel, whose bytes live at from (both
// relative to the root) and whose stat is info (nil if unknown), to the
// result: from the index when it vouches for the file, else read.
func (s *scanner) readFile(rel, from string, kind Kind, public string, info fs.FileInfo) error {
	if s.stamp != nil {
		s.stampFile(rel, from, info)
		return nil
	}
	if s.next != nil && info != nil {
		if e, ok := s.prev.vouch(rel, from, info, s.window); ok {
			if id, links, ok := fileID(info); ok && links > 1 {
				s.linked = append(s.linked, linkedFile{rel: rel, id: id, links: links})
			}
			e.seen = true
			s.next.files[rel] = e
			s.add(rel, kind, public, "", formatHash(e.sum))
			return nil
		}
	}
	return s.read(rel, from, kind, public)
}

// stampFile counts the content file at rel, whose bytes live at from and
// whose stat is info (nil if unknown), in the scan's stamp.
func (s *scanner) stampFile(rel, from string, info fs.FileInfo) {
	st, ok := fileStat{}, false
	if info != nil {
		st, ok = statOf(info)
	}
	if !ok {
		s.stamp.Unstatted = true
		return
	}
	if id, links, ok := fileID(info); ok && links > 1 {
		s.linked = append(s.linked, linkedFile{rel: rel, id: id, links: links})
	}
	s.stamp.add(rel, from, st)
}

// add appends a file to the result.
func (s *scanner) add(rel string, kind Kind, public, body, hash string) {
	s.files = append(s.files, File{
		Source: rel,
		Kind:   kind,
		Path:   public,
		Name:   NameOf(public),
		Group:  GroupOf(public), // "" for META_PROMPT.md, which has no folder
		Body:   body,
		Hash:   hash,
	})
}

// read reads the content file at rel, whose bytes live at from (both
// relative to the root), and adds it to the result.
func (s *scanner) read(rel, from string, kind Kind, public string) error {
	b, info, err := readContent(s.root, from)
	if err != nil {
		return &FileError{Path: rel, Err: err}
	}
	if info == nil {
		return nil // replaced by something else since the walk saw it
	}
	if kind == KindRule || kind == KindWorkflow {
		if _, err := ParsePaths(string(b)); err != nil {
			return &FileError{Path: rel, Err: err}
		}
		if _, err := ParseChecks(NameOf(public), string(b)); err != nil {
			return &FileError{Path: rel, Err: err}
		}
	}
	if id, links, ok := fileID(info); ok && links > 1 {
		s.linked = append(s.linked, linkedFile{rel: rel, id: id, links: links})
	}
	sum := sha256.Sum256(b)
	if s.next == nil {
		s.add(rel, kind, public, string(b), formatHash(sum))
		return nil
	}
	s.opened++
	if st, ok := statOf(info); ok {
		e := indexEntry{stat: st, sum: sum, seen: true}
		if from != rel {
			e.from = from
		}
		s.next.files[rel] = e
	}
	s.add(rel, kind, public, "", formatHash(sum))
	return nil
}

// readContent reads and checks the bytes of the content file at from
// (relative to the root) and returns them with the file's stat, taken
// before it was read; a nil stat and no error mean that from is no
// longer a regular file.
func readContent(root *os.Root, from string) ([]byte, fs.FileInfo, error) {
	f, err := root.Open(filepath.FromSlash(from))
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, nil
	}
	if info.Size() > MaxFileSize {
		return nil, nil, ErrTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	switch {
	case err != nil:
		return nil, nil, err
	case len(b) > MaxFileSize:
		return nil, nil, ErrTooLarge
	case !utf8.Valid(b):
		return nil, nil, ErrNotUTF8
	}
	return b, info, nil
}
