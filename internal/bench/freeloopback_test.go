package main

import (
	"net"
	"testing"
)

// TestFreeLoopbacks_Distinct picks as many addresses as a run of
// clusters may: picked one at a time, each listener closed before the
// next, the kernel handed out the same port again about once in thirty.
func TestFreeLoopbacks_Distinct(t *testing.T) {
	addrs, err := freeLoopbacks(400)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range addrs {
		if seen[a] {
			t.Errorf("address %s picked twice", a)
		}
		seen[a] = true
		ln, err := net.Listen("tcp", a)
		if err != nil {
			t.Errorf("address %s is not free once picked: %v", a, err)
			continue
		}
		ln.Close()
	}
}
