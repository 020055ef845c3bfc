// Command dist builds clumsies' release archives (make dist): for each
// target a static binary (CGO_ENABLED=0, -trimpath, the version stamped
// as make build stamps it) packed with the LICENSE and the README into a .tar.gz (a .zip for Windows), the binary's
// `go version -m` beside it, and SHA256SUMS over all of them.
//
// It runs the go command and imports only the standard library.
package main
