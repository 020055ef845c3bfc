package hub

import "testing"

func TestChanges_ATeamSeesOnlyItsOwn(t *testing.T) {
	c := newChanges()
	blue, blueCh := c.since([]string{"blue"})
	all, _ := c.since(nil)

	c.touch("red")
	select {
	case <-blueCh:
	default:
		t.Fatal("a touch does not wake the waiters")
	}
	if v, _ := c.since([]string{"blue"}); v != blue {
		t.Fatalf("blue's version moved with red's change: %d -> %d", blue, v)
	}
	if v, _ := c.since(nil); v == all {
		t.Fatal("the admin's version (every team) did not move with red's change")
	}

	_, blueCh = c.since([]string{"blue"})
	c.touch("blue", "green")
	if v, _ := c.since([]string{"blue"}); v == blue {
		t.Fatal("blue's version did not move with blue's change")
	}
	select {
	case <-blueCh:
	default:
		t.Fatal("blue's waiter was not woken")
	}

	// A touch of no team changes nothing and wakes nobody.
	v, ch := c.since(nil)
	c.touch()
	if w, _ := c.since(nil); w != v {
		t.Fatalf("an empty touch moved the version %d -> %d", v, w)
	}
	select {
	case <-ch:
		t.Fatal("an empty touch woke the waiters")
	default:
	}
}
