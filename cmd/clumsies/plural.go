package main

import "fmt"

// count is "1 checkpoint", "2 checkpoints": n and the noun, in the plural
// (noun + "s") unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
