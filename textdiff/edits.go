package textdiff

// op is one step of an edit script: keep a line of both texts, delete a
// line of the old one, or insert a line of the new one.
type op byte

const (
	keep op = iota
	del
	ins
)

// maxEdits bounds the search for a shortest edit script: texts further
// apart than this are shown as the removal of the old text and the
// addition of the new one, which is correct, only longer than it could be.
const maxEdits = 4096

// edits returns a shortest edit script from a to b (Myers' greedy
// algorithm, forward, keeping the furthest point of each diagonal for each
// number of edits), or the replacement of a by b when more than maxEdits
// are needed.
func edits(a, b []line) []op {
	// The common start and end need no search.
	pre, suf := CommonEnds(a, b)
	mid := middle(a[pre:len(a)-suf], b[pre:len(b)-suf])
	out := make([]op, 0, pre+len(mid)+suf)
	for range pre {
		out = append(out, keep)
	}
	out = append(out, mid...)
	for range suf {
		out = append(out, keep)
	}
	return out
}

// middle is edits without a common start or end.
func middle(a, b []line) []op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replace(n, m)
	}
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3) // v[off+k]: furthest x on diagonal k
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, off, d, n, m)
			}
		}
	}
	return replace(n, m)
}

// backtrack walks the trace from (n, m) back to (0, 0) and returns the
// script in order. trace[d] holds v as it was before round d.
func backtrack(trace [][]int, off, d, n, m int) []op {
	var rev []op
	x, y := n, m
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			rev = append(rev, keep)
			x, y = x-1, y-1
		}
		if x == prevX {
			rev = append(rev, ins)
		} else {
			rev = append(rev, del)
		}
		x, y = prevX, prevY
	}
	for x > 0 && y > 0 {
		rev = append(rev, keep)
		x, y = x-1, y-1
	}
	out := make([]op, len(rev))
	for i, o := range rev {
		out[len(rev)-1-i] = o
	}
	return out
}

// replace is the script that deletes n lines and inserts m.
func replace(n, m int) []op {
	out := make([]op, 0, n+m)
	for range n {
		out = append(out, del)
	}
	for range m {
		out = append(out, ins)
	}
	return out
}

// CommonEnds returns how many elements a and b start with alike (pre) and,
// after those, end with alike (suf): what any edit script keeps.
func CommonEnds[T comparable](a, b []T) (pre, suf int) {
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}
