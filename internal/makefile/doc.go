// Package makefile holds the tests of the Makefile's own recipes (the
// help listing, the running count of `make build`), run with make on the
// repository's Makefile. It has no code.
package makefile
