package hub

import (
	"encoding/base64"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// authenticator admits every connection to the hub's server: the hub's
// own user (a client, in process or on the cluster's loopback listener)
// into the hub's account, and a node's leaf link into the node's account
// with its permissions (leafPermissions). Both prove their nkey by signing
// the server's nonce. A node is admitted while the registry holds it
// active and its account is set up on this server; a revoked or unknown
// key, or a node's key on a plain client connection, is refused. The
// registry and the accounts are read at each connection: nothing in the
// server's configuration changes when a node joins or is revoked.
type authenticator struct {
	hubUser string // the hub's own user's public key
	node    func(publicKey string) (hubwire.Node, bool)
	ready   func(nodeID string) bool
	lookup  func(name string) (*server.Account, error)
}

var _ server.Authentication = (*authenticator)(nil)

// Check implements server.Authentication.
func (a *authenticator) Check(c server.ClientAuthentication) bool {
	o := c.GetOpts()
	if o == nil || o.Nkey == "" || !signed(o.Nkey, o.Sig, c.GetNonce()) {
		return false
	}
	if o.Nkey == a.hubUser {
		if c.Kind() != server.CLIENT {
			return false
		}
		return a.bind(c, &server.User{Username: o.Nkey}, hubAccount)
	}
	if c.Kind() != server.LEAF {
		return false
	}
	n, ok := a.node(o.Nkey)
	if !ok || !n.Active() || !a.ready(n.ID) {
		return false
	}
	return a.bind(c, &server.User{Username: n.ID, Permissions: leafPermissions(n)}, nodeAccount(n.ID))
}

// bind registers the connection as u in account name.
func (a *authenticator) bind(c server.ClientAuthentication, u *server.User, name string) bool {
	acc, err := a.lookup(name)
	if err != nil {
		return false
	}
	u.Account = acc
	c.RegisterUser(u)
	return true
}

// signed reports whether sig (base64url, as NATS clients send it) is
// publicKey's signature of nonce.
func signed(publicKey, sig string, nonce []byte) bool {
	if sig == "" || len(nonce) == 0 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		if raw, err = base64.StdEncoding.DecodeString(sig); err != nil {
			return false
		}
	}
	pub, err := nkeys.FromPublicKey(publicKey)
	if err != nil {
		return false
	}
	return pub.Verify(nonce, raw) == nil
}
