package dash

import "strings"

// DiffLine is one line of a diff.
type DiffLine struct {
	Op   string `json:"op"` // " " kept, "+" added, "-" removed
	Text string `json:"text"`
}

// maxDiffCells bounds the table of the line diff (lines of one side times
// lines of the other); past it the diff removes every old line and adds
// every new one.
const maxDiffCells = 4 << 20

// Diff returns a line diff from a to b that keeps a longest common
// subsequence of lines.
func Diff(a, b string) []DiffLine {
	x, y := lines(a), lines(b)
	// Common head and tail are kept as they are.
	head := 0
	for head < len(x) && head < len(y) && x[head] == y[head] {
		head++
	}
	tail := 0
	for tail < len(x)-head && tail < len(y)-head && x[len(x)-1-tail] == y[len(y)-1-tail] {
		tail++
	}
	out := make([]DiffLine, 0, len(x)+len(y))
	for _, l := range x[:head] {
		out = append(out, DiffLine{" ", l})
	}
	out = append(out, middle(x[head:len(x)-tail], y[head:len(y)-tail])...)
	for _, l := range x[len(x)-tail:] {
		out = append(out, DiffLine{" ", l})
	}
	return out
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// middle diffs x and y by the table of longest common subsequences of
// their suffixes.
func middle(x, y []string) []DiffLine {
	var out []DiffLine
	if len(x)*len(y) > maxDiffCells {
		for _, l := range x {
			out = append(out, DiffLine{"-", l})
		}
		for _, l := range y {
			out = append(out, DiffLine{"+", l})
		}
		return out
	}
	w := len(y) + 1
	lcs := make([]int32, (len(x)+1)*w)
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] == y[j]:
			out = append(out, DiffLine{" ", x[i]})
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			out = append(out, DiffLine{"-", x[i]})
			i++
		default:
			out = append(out, DiffLine{"+", y[j]})
			j++
		}
	}
	for ; i < len(x); i++ {
		out = append(out, DiffLine{"-", x[i]})
	}
	for ; j < len(y); j++ {
		out = append(out, DiffLine{"+", y[j]})
	}
	return out
}
