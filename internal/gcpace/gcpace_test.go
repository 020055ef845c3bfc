package gcpace

import (
	"math"
	"runtime/debug"
	"testing"
)

// settings returns the collector's percentage and memory limit.
func settings() (int, int64) {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p, debug.SetMemoryLimit(-1)
}

func keepSettings(t *testing.T) {
	p, l := settings()
	t.Cleanup(func() {
		debug.SetGCPercent(p)
		debug.SetMemoryLimit(l)
	})
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
}

func TestBulk(t *testing.T) {
	keepSettings(t)
	SetPercent(25)
	SetLimit(math.MaxInt64)

	end := Bulk()
	p, l := settings()
	if p != BulkPercent || l < BulkHeadroom || l == math.MaxInt64 {
		t.Fatalf("during a bulk job: GOGC %d, limit %d; want %d and a limit of at least %d", p, l, BulkPercent, BulkHeadroom)
	}
	end()
	if p, l := settings(); p != 25 || l != math.MaxInt64 {
		t.Fatalf("after a bulk job: GOGC %d, limit %d; want 25 and none", p, l)
	}
	end() // a second call changes nothing
	if p, _ := settings(); p != 25 {
		t.Fatalf("a second end set GOGC %d, want 25 kept", p)
	}
}

func TestBulk_Overlapping(t *testing.T) {
	keepSettings(t)
	SetPercent(50)
	first, second := Bulk(), Bulk()
	first()
	if p, _ := settings(); p != BulkPercent {
		t.Fatalf("GOGC %d while a second job runs, want %d", p, BulkPercent)
	}
	second()
	if p, _ := settings(); p != 50 {
		t.Fatalf("GOGC %d after both jobs, want 50", p)
	}
}

// The process's own settings made during a bulk job wait for its end
// instead of undoing the job's.
func TestBulk_OwnSettingsWait(t *testing.T) {
	keepSettings(t)
	SetPercent(100)
	SetLimit(math.MaxInt64)
	end := Bulk()
	if old := SetPercent(25); old != 100 {
		t.Errorf("SetPercent during a job returned %d, want the process's 100", old)
	}
	SetLimit(64 << 20)
	if p, l := settings(); p != BulkPercent || l == 64<<20 {
		t.Fatalf("during the job: GOGC %d, limit %d; want the job's", p, l)
	}
	if got := SetLimit(-1); got != 64<<20 {
		t.Errorf("SetLimit(-1) during a job returned %d, want the process's %d", got, 64<<20)
	}
	end()
	if p, l := settings(); p != 25 || l != 64<<20 {
		t.Fatalf("after the job: GOGC %d, limit %d; want 25 and %d", p, l, 64<<20)
	}
}

// A setting the user made in the environment is left alone.
func TestBulk_UserSettings(t *testing.T) {
	keepSettings(t)
	SetPercent(70)
	SetLimit(1 << 30)
	t.Setenv("GOGC", "70")
	t.Setenv("GOMEMLIMIT", "1GiB")
	end := Bulk()
	if p, l := settings(); p != 70 || l != 1<<30 {
		t.Fatalf("during a job with GOGC and GOMEMLIMIT set: %d, %d; want them left at 70 and 1GiB", p, l)
	}
	SetPercent(80)
	if p, _ := settings(); p != 80 {
		t.Fatalf("SetPercent during a job that leaves GOGC alone: got %d, want 80 at once", p)
	}
	end()
	if p, l := settings(); p != 80 || l != 1<<30 {
		t.Fatalf("after the job: %d, %d; want 80 and 1GiB", p, l)
	}
}

// A lean job collects at LeanPercent; a bulk job at the same time has its
// way, and each end goes back to what still runs, then to the process's
// own setting, made meanwhile.
func TestLean(t *testing.T) {
	keepSettings(t)
	SetPercent(25)
	SetLimit(math.MaxInt64)

	endLean := Lean()
	if p, l := settings(); p != LeanPercent || l != math.MaxInt64 {
		t.Fatalf("during a lean job: GOGC %d, limit %d; want %d and none", p, l, LeanPercent)
	}
	endBulk := Bulk()
	if p, _ := settings(); p != BulkPercent {
		t.Fatalf("during a bulk and a lean job: GOGC %d, want %d", p, BulkPercent)
	}
	if old := SetPercent(100); old != 25 {
		t.Errorf("SetPercent during the jobs returned %d, want the process's 25", old)
	}
	endBulk()
	if p, l := settings(); p != LeanPercent || l != math.MaxInt64 {
		t.Fatalf("after the bulk job, during the lean one: GOGC %d, limit %d; want %d and none", p, l, LeanPercent)
	}
	endLean()
	endLean() // a second call changes nothing
	if p, _ := settings(); p != 100 {
		t.Fatalf("after both jobs: GOGC %d, want the process's 100", p)
	}

	t.Setenv("GOGC", "70")
	SetPercent(70)
	end := Lean()
	if p, _ := settings(); p != 70 {
		t.Fatalf("a lean job with GOGC set: GOGC %d, want 70 left alone", p)
	}
	end()
}
