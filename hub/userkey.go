package hub

import (
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// The hub process's own user in hubAccount is an nkey: the generated
// configuration holds its public key, never a secret, and the process
// signs the server's nonce with the private key it keeps in memory.

// mustUserKey makes the key of the hub's own user.
func mustUserKey() nkeys.KeyPair {
	kp, err := nkeys.CreateUser()
	if err != nil {
		panic(fmt.Sprintf("hub: make the hub's user key: %v", err)) // crypto/rand failed
	}
	return kp
}

// userPublic is the public key of kp, as the configuration names it.
func userPublic(kp nkeys.KeyPair) string {
	pub, err := kp.PublicKey()
	if err != nil {
		panic(fmt.Sprintf("hub: read the hub's user key: %v", err)) // a user key made by CreateUser has one
	}
	return pub
}

// userAuth is the connect option that authenticates as kp's user.
func userAuth(kp nkeys.KeyPair) nats.Option {
	return nats.Nkey(userPublic(kp), kp.Sign)
}
