package projections

import "github.com/clumsies/clumsies/projections/engine"

// model is one read model of the workspace's store: an engine.Model over
// the decoded events of the ledger (see engine.Model for the contract).
// The store core owns the meta rows (meta/...) and hands every other row,
// event and write to the models of the registry (newState). Adding a
// model is one file that implements model, a field of state, a line of
// the registry and a line of the key layout in keys.go (TestRegistry
// checks the last); a model that reads the payloads of events names
// their types in Folds (folder, codec.go): payloadOf decodes the payloads
// the registry's models fold, each once for all models. Its prefix ends
// in '/'.
type model = engine.Model[decoded]
