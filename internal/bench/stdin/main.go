// Command stdin is a baseline of the hook benchmark: a bare Go program that
// reads its stdin to the end and exits, the least a hook written in Go can
// do. It is a benchmark tool, not part of clumsies.
package main

import (
	"io"
	"os"
)

func main() {
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		os.Exit(1)
	}
}
