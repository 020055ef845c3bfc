package treecheck

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"
)

// skipped are folder names never walked: git's own store, installed
// packages.
var skipped = map[string]bool{".git": true, "node_modules": true}

// scanTree stats every file under root, except the folders skipped, the
// folder prune (slash-separated, relative to root; "" for none) and any
// folder below root holding a .git (a nested repository or worktree),
// with a few walkers at once. Keys are slash-separated paths relative to
// root; symbolic links are files (their target is their content, as git
// keeps them). A folder that cannot be read is left out.
func scanTree(root string, prune []string) map[string]entry {
	pruned := prunedSet(prune)
	out := map[string]entry{}
	var mu sync.Mutex
	dirs := make(chan string, 1024)
	var pending sync.WaitGroup
	var walk func(rel string)
	walk = func(rel string) {
		defer pending.Done()
		ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return
		}
		if rel != "" {
			for _, d := range ents {
				if d.Name() == ".git" {
					return // a nested repository or worktree: checked from its own root
				}
			}
		}
		local := make(map[string]entry, len(ents))
		for _, d := range ents {
			name := d.Name()
			p := path.Join(rel, name)
			switch t := d.Type(); {
			case t.IsDir():
				if skipped[name] || pruned[p] {
					continue
				}
				pending.Add(1)
				select {
				case dirs <- p:
				default:
					walk(p) // the queue is full: walk it here
				}
			case t.IsRegular() || t&os.ModeSymlink != 0:
				info, err := d.Info()
				if err != nil {
					continue // gone since it was listed
				}
				e := statOf(info)
				if t&os.ModeSymlink != 0 {
					e.size = -1 - e.size // never equal to a regular file's
				}
				local[p] = e
			}
		}
		mu.Lock()
		for p, e := range local {
			out[p] = e
		}
		mu.Unlock()
	}
	workers := max(2, runtime.GOMAXPROCS(0)*2)
	var done sync.WaitGroup
	for range workers {
		done.Add(1)
		go func() {
			defer done.Done()
			for rel := range dirs {
				walk(rel)
			}
		}()
	}
	pending.Add(1)
	walk("")
	pending.Wait()
	close(dirs)
	done.Wait()
	return out
}

// contentID returns the blob id of the file rel under root as it is now:
// a symbolic link's is its target's text, as git keeps it.
func contentID(root, rel string, e entry) (string, error) {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if e.size < 0 {
		target, err := os.Readlink(abs)
		if err != nil {
			return "", err
		}
		return BlobID([]byte(filepath.ToSlash(target))), nil
	}
	return fileBlobID(abs, e.size)
}
