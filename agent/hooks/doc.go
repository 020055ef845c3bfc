// Package hooks runs one hook of an agent host (`clumsies hook EVENT
// --host HOST`) against the workspace: it records the event in the
// workspace's ledger and decides the host's answer, the stop hook's
// block and the pre-tool gate among them. The host's protocol (reading
// its input, wording its answer) is adapt's; printing is the caller's.
package hooks
