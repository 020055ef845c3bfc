package embeddednats

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"sync/atomic"

	"github.com/nats-io/nats-server/v2/server"
)

// access admits three kinds of client when the server has a TCP listener:
//
//   - the workspace's own processes (Connect, and whatever the owner passes
//     the internal token to), with every permission, in the global account;
//   - external consumers presenting Server.Token, in the readers' account
//     (see readers.go), who may only read there: use the JetStream consumer
//     API on the mirrors and acknowledge, and subscribe to inboxes and to
//     Server.ReadSubjects. They can neither publish into a stream, nor
//     create, delete or change streams, nor reach the owner's account;
//   - the server itself creating the readers' mirrors (admin), with every
//     permission in the readers' account.
type access struct {
	internal, external, admin []byte
	readers                   *server.Permissions
	// account is the readers' account, set once the server is up; open is
	// set once it is ready for readers, who are refused until then.
	account atomic.Pointer[server.Account]
	open    atomic.Bool
}

var _ server.Authentication = (*access)(nil)

// readerPublish is what an external consumer may publish to: requests of
// the JetStream API that read a stream or manage its own consumers, acks
// and flow-control replies.
var readerPublish = []string{
	"$JS.API.INFO",
	"$JS.API.STREAM.INFO.*",
	"$JS.API.STREAM.NAMES",
	"$JS.API.STREAM.LIST",
	"$JS.API.STREAM.MSG.GET.*",
	"$JS.API.DIRECT.GET.>",
	"$JS.API.CONSUMER.CREATE.>",
	"$JS.API.CONSUMER.DURABLE.CREATE.>",
	"$JS.API.CONSUMER.INFO.>",
	"$JS.API.CONSUMER.DELETE.>",
	"$JS.API.CONSUMER.MSG.NEXT.>",
	"$JS.API.CONSUMER.NAMES.*",
	"$JS.API.CONSUMER.LIST.*",
	"$JS.ACK.>",
	"$JS.FC.>",
}

func newAccess(external string, readSubjects []string) *access {
	return &access{
		internal: secret(),
		external: []byte(external),
		admin:    secret(),
		readers: &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: readerPublish},
			Subscribe: &server.SubjectPermission{Allow: append([]string{"_INBOX.>"}, readSubjects...)},
		},
	}
}

// secret returns a fresh random token.
func secret() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return []byte(hex.EncodeToString(b))
}

// Check implements server.Authentication.
func (a *access) Check(c server.ClientAuthentication) bool {
	if c.Kind() != server.CLIENT {
		return false
	}
	token := []byte(c.GetOpts().Token)
	switch {
	case subtle.ConstantTimeCompare(token, a.internal) == 1:
		c.RegisterUser(&server.User{Username: "clumsies"})
		return true
	case len(a.external) > 0 && subtle.ConstantTimeCompare(token, a.external) == 1:
		acc := a.account.Load()
		if acc == nil || !a.open.Load() || acc.NumLocalConnections() >= MaxReaderConns {
			return false
		}
		c.RegisterUser(&server.User{Username: "reader", Account: acc, Permissions: a.readers})
		return true
	case subtle.ConstantTimeCompare(token, a.admin) == 1:
		acc := a.account.Load()
		if acc == nil {
			return false
		}
		c.RegisterUser(&server.User{Username: "readers-admin", Account: acc})
		return true
	}
	return false
}
