package embeddednats

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"

	"github.com/nats-io/nats-server/v2/server"
)

// access admits two kinds of client when the server has a TCP listener:
//
//   - the workspace's own processes (Connect, and whatever the owner passes
//     the internal token to), with every permission;
//   - external consumers presenting Server.Token, who may only read: use
//     the JetStream consumer API and acknowledge, and subscribe to inboxes
//     and to Server.ReadSubjects. They can neither publish into the stream,
//     nor delete or change streams, nor call the workspace's services.
type access struct {
	internal, external []byte
	readers            *server.Permissions
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
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	return &access{
		internal: []byte(hex.EncodeToString(secret)),
		external: []byte(external),
		readers: &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: readerPublish},
			Subscribe: &server.SubjectPermission{Allow: append([]string{"_INBOX.>"}, readSubjects...)},
		},
	}
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
		c.RegisterUser(&server.User{Username: "reader", Permissions: a.readers})
		return true
	}
	return false
}
