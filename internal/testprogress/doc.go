// Command testprogress is what `make test` and `make race` pipe `go test
// -json` through: it prints one line per package as the package finishes
// (ok, FAIL or no tests, with its time), the output of every package that
// failed, and at the end how many passed and failed and how long the whole
// run took. It exits 1 if any package failed (or none reported).
//
// The go command streams -json events as they happen, package by package
// and interleaved; its plain output holds a package's line back until
// every package listed before it is done, which kept `make test` silent
// for minutes behind its slowest package. It uses only the standard
// library.
package main
