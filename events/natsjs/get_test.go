package natsjs_test

import (
	"testing"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
)

func TestLog_Get(t *testing.T) {
	l := startNode(t, t.TempDir(), embeddednats.SyncInterval).open(t)
	want := appendN(t, l, 5)
	for _, w := range want {
		got, err := l.Get(testCtx(t), w.Seq)
		if err != nil {
			t.Fatalf("Get %d: %v", w.Seq, err)
		}
		if got.ID != w.ID || got.Seq != w.Seq || got.Type != w.Type || len(got.Raw) == 0 || string(got.Data) != string(w.Data) {
			t.Errorf("Get %d: got %s %d %s, want %s %d %s", w.Seq, got.ID, got.Seq, got.Type, w.ID, w.Seq, w.Type)
		}
	}
	if _, err := l.Get(testCtx(t), 99); err == nil {
		t.Errorf("Get 99 of 5 events: no error")
	}
}
