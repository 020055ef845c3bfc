package node

// CheckpointKey is a node's signing key for the ledger's checkpoints
// (hublink.Identity): the signature of a checkpoint is Sign of
// events.CheckpointMessage, carried base64url (no padding) in
// CheckpointData.Signature, with NodeID in CheckpointData.Node.
type CheckpointKey interface {
	NodeID() string
	Sign(msg []byte) ([]byte, error)
	// Verify returns nil if sig is the key's signature of msg.
	Verify(msg, sig []byte) error
}
