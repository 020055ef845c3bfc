// Package archtest checks the import rules between clumsies packages from
// each package's deps_test.go. It imports only the standard library.
package archtest
