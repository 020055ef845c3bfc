package projections

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
)

// scanSearch is the definition the index must agree with: every live
// object whose search text holds every word.
func scanSearch(objs map[string]*object, words []string) []string {
	var out []string
	for id, o := range objs {
		if containsAll(o.searchText(), words) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

func indexSearch(x *searchIndex, words []string) []string {
	var out []string
	for _, o := range x.search(words) {
		out = append(out, o.ID())
	}
	slices.Sort(out)
	return out
}

// searchCorpus is a set of objects whose texts share many words and
// trigrams, as a catalog's do, and the index over them.
type searchCorpus struct {
	rng  *rand.Rand
	objs map[string]*object
	x    *searchIndex
}

var corpusWords = []string{"go", "rule", "test", "tests", "review", "api", "ci", "log", "logging", "é", "naïve", "x", "deploy", "deployment", "db", "sql", "a-b", "p-1", "ä"}

func newSearchCorpus(seed uint64, n int) *searchCorpus {
	c := &searchCorpus{rng: rand.New(rand.NewPCG(seed, seed+1)), objs: map[string]*object{}, x: newSearchIndex()}
	for i := range n {
		c.put(fmt.Sprintf("p-%04x", i))
	}
	return c
}

// put publishes id with a random path and description, replacing the
// object it had.
func (c *searchCorpus) put(id string) {
	var desc []string
	for range c.rng.IntN(6) {
		desc = append(desc, corpusWords[c.rng.IntN(len(corpusWords))])
	}
	group := corpusWords[c.rng.IntN(len(corpusWords))]
	name := strings.ToUpper(corpusWords[c.rng.IntN(len(corpusWords))]) + fmt.Sprint(c.rng.IntN(100))
	path := group + "/" + name + ".md"
	o := testObject(objectRow{ID: id, Kind: string(content.KindRule), Path: path, Name: name, Group: group, Description: strings.Join(desc, " ")})
	if old := c.objs[id]; old != nil {
		c.x.drop(old)
	}
	c.objs[id] = o
	c.x.add(o)
}

func (c *searchCorpus) remove(id string) {
	if old := c.objs[id]; old != nil {
		c.x.drop(old)
		delete(c.objs, id)
	}
}

// change removes one of the first n ids (a third of the time) or
// publishes it.
func (c *searchCorpus) change(n int) {
	id := fmt.Sprintf("p-%04x", c.rng.IntN(n))
	if c.rng.IntN(3) == 0 {
		c.remove(id)
	} else {
		c.put(id)
	}
}

func (c *searchCorpus) check(tb testing.TB, query string) {
	tb.Helper()
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return
	}
	got, want := indexSearch(c.x, words), scanSearch(c.objs, words)
	if !slices.Equal(got, want) {
		tb.Fatalf("query %q: index found %d objects %v, a scan %d %v", query, len(got), head(got), len(want), head(want))
	}
}

func head(ids []string) []string { return ids[:min(len(ids), 8)] }

// queries of one to three words from the corpus, their parts and joins.
func (c *searchCorpus) query() string {
	var words []string
	for range 1 + c.rng.IntN(3) {
		w := corpusWords[c.rng.IntN(len(corpusWords))]
		switch c.rng.IntN(4) {
		case 0:
			if len(w) > 1 {
				i := c.rng.IntN(len(w) - 1)
				w = w[i : i+1+c.rng.IntN(len(w)-i)]
			}
		case 1:
			w += corpusWords[c.rng.IntN(len(corpusWords))]
		case 2:
			w = strings.ToUpper(w)
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// The index agrees with a scan through publishes, replacements and
// removals, compactions included.
func TestSearchIndex_AgreesWithScan(t *testing.T) {
	c := newSearchCorpus(1, 1500)
	for round := range 6000 {
		c.change(2000)
		if round%20 == 0 {
			c.check(t, c.query())
		}
	}
	for _, q := range []string{"p-", "p-0", "p-01", "g", "md", ".md", "/", "rule", "RULE7", "é", "naïve api", "go go", "zzz", "x x x"} {
		c.check(t, q)
	}
	if len(c.x.docs) > 2*c.x.live+minCompact {
		t.Fatalf("index holds %d numbers for %d live objects: no compaction", len(c.x.docs), c.x.live)
	}
}

// FuzzSearchIndex compares the index with a scan for any query.
func FuzzSearchIndex(f *testing.F) {
	for _, q := range []string{"rule", "go test", "p-00", "/api", "\u00e9", "a-b ci", "DEPLOYMENT sql", "e.m", "\xff\xfe"} {
		f.Add(q)
	}
	c := newSearchCorpus(2, 800)
	for i := range 300 {
		c.remove(fmt.Sprintf("p-%04x", i*2))
	}
	f.Fuzz(func(t *testing.T, query string) {
		c.check(t, query)
	})
}

// TestSearchIndex_SortedFollowsChanges asks the same queries after every
// publish, replacement and removal: sorted answers what a scan finds, in
// List's order, the kept answer while nothing changed and a new one after
// any change, compactions included.
func TestSearchIndex_SortedFollowsChanges(t *testing.T) {
	c := newSearchCorpus(2, 300)
	queries := [][]string{{"rule"}, {"go", "test"}, {"deploy"}, {"é"}, {"p-0"}, {"x"}}
	ids := func(objs []*object) []string {
		var out []string
		for _, o := range objs {
			out = append(out, o.ID())
		}
		return out
	}
	for round := range 3000 {
		c.change(400)
		for _, words := range queries[:1+round%len(queries)] {
			got := c.x.sorted(words)
			if want := scanSearch(c.objs, words); !slices.Equal(slices.Sorted(slices.Values(ids(got))), want) {
				t.Fatalf("round %d, query %q: sorted found %v, a scan %v", round, words, head(ids(got)), head(want))
			}
			order := slices.Clone(got)
			sortObjects(order)
			if !slices.Equal(order, got) {
				t.Fatalf("round %d, query %q: %v is not in List's order", round, words, head(ids(got)))
			}
			if again := c.x.sorted(words); len(got) > 0 && &again[0] != &got[0] {
				t.Fatalf("round %d, query %q: the same query of an unchanged index was searched again", round, words)
			}
		}
	}
	if len(c.x.docs) > 2*c.x.live+minCompact {
		t.Fatalf("index holds %d numbers for %d live objects: no compaction", len(c.x.docs), c.x.live)
	}
}
