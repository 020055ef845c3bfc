// Command soak is `make soak`: it runs a workspace under load with several
// `clumsies serve` processes (node/nodetest) and, round after round, kills
// one of them with SIGKILL, the owner or another at random, and starts a
// replacement. Every process keeps calling agentreport with a summary of
// its own. At the end it reads the ledger and prints how many calls were
// acknowledged, how many of those are missing (lost), how many summaries
// are stored more than once (doubled) and how many calls answered with an
// error were stored all the same (an error must mean "not stored"), then
// runs `clumsies verify`. It exits 1 if any of those is not zero or verify
// fails.
//
// It is not part of `make test`: a run of 50 rounds takes under a minute.
package main
