// Package textdiff compares two texts line by line and renders the
// difference as a unified diff, the format of diff -u and git diff, so
// that people read a draft's change as they read a code change. It imports
// the standard library only.
package textdiff
