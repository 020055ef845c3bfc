package engine

import (
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

func memDB(t *testing.T) *pebble.DB {
	t.Helper()
	db, err := pebble.Open("", &pebble.Options{FS: vfs.NewMem()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// The rows of a sorted commit's commit go into the batch in key order, sets and
// deletes alike.
func TestSortedRows_KeyOrder(t *testing.T) {
	db := memDB(t)
	b := db.NewBatch()
	defer b.Close()
	var rows SortedRows
	w := NewSortedWriter(&rows)
	w.Set([]byte("u/r/b"), []byte("2"))
	w.Del([]byte("m/o/x"))
	w.Set([]byte("a/s"), []byte("1"))
	if err := rows.WriteTo(b); err != nil {
		t.Fatal(err)
	}
	var got []string
	for r := b.Reader(); ; {
		kind, k, v, ok, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, kind.String()+" "+string(k)+"="+string(v))
	}
	if want := "SET a/s=1,DEL m/o/x=,SET u/r/b=2"; strings.Join(got, ",") != want {
		t.Errorf("batch holds %v, want %s", got, want)
	}
}

// A key written twice in one commit is refused: which of the two would
// win would depend on the sort.
func TestSortedRows_KeyTwice(t *testing.T) {
	db := memDB(t)
	b := db.NewBatch()
	defer b.Close()
	var rows SortedRows
	rows.add([]byte("k"), []byte("1"), false)
	rows.add([]byte("j"), nil, false)
	rows.add([]byte("k"), nil, true)
	if err := rows.WriteTo(b); err == nil || !strings.Contains(err.Error(), "written twice") {
		t.Errorf("got %v, want the key refused", err)
	}
}
