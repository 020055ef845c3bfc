package events

// MaxEventSize is the largest stored event (Encode's result), in bytes.
// Producers check it before they append: the tools answer invalid_params
// for a call whose event would be larger. The biggest events the input
// limits allow are a catalog.publish of a content file of 1 MiB whose every
// byte JSON escapes to six (\u003c), and a tool call with arguments at
// their limit; both fit. A log's transport must carry messages of this
// size plus its headers.
const MaxEventSize = 7 << 20
