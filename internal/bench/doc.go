// Command bench is `make bench`: it measures clumsies against baselines run
// in the same process and the same run (raw JetStream publishes, raw
// ordered-consumer reads, a bare go-sdk echo tool over the same stdio
// client), because these machines are too noisy for absolute figures to
// mean much, and prints a markdown report of figures and ratios. The lean
// section also drives serve and the echo server through the official MCP
// TypeScript SDK client, with the Node script in tsclient/ (its npm
// packages pinned there and installed on demand into the user's cache).
//
// Targets are reported, not asserted: a benchmark is not a test.
package main
