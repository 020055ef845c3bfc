package hubwire_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/internal/hubtest"
)

// newNodeKey returns a fresh node id and its nkey seed and public key.
func newNodeKey(t *testing.T) (id, seed, pub string) {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	s, _ := kp.Seed()
	p, _ := kp.PublicKey()
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "n-" + hex.EncodeToString(b[:]), string(s), p
}

// wantCode checks that err is the hub's answer with code and status, and
// that the call's context and the hub's message both reach its text.
func wantCode(t *testing.T, err error, code string, status int, context string) {
	t.Helper()
	var e *hubwire.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want a *hubwire.Error with code %s", err, code)
	}
	if e.Code != code || e.Status != status || hubwire.CodeOf(err) != code {
		t.Fatalf("err = %#v, want code %s, status %d", e, code, status)
	}
	if e.Message == "" || !strings.HasPrefix(err.Error(), context+": hub: "+e.Message) {
		t.Fatalf("err = %q, want %q followed by the hub's message", err, context)
	}
	if strings.Contains(err.Error(), "hub: hub:") {
		t.Fatalf("err = %q names the hub twice", err)
	}
	if errors.Is(err, hubwire.ErrUnreachable) {
		t.Fatalf("err = %v: an answer of the hub is no unreachable hub", err)
	}
}

// TestClient_Errors checks that the client gives each refusal of a real
// hub as an *Error with the hub's code, status and message, wrapped with
// what the call did; and that a node's signed requests pass only with the
// node's own key.
func TestClient_Errors(t *testing.T) {
	th := hubtest.NewHub(t)
	url, admin := th.API(t)
	ctx := context.Background()
	anon, adm := hubwire.NewClient(url, ""), hubwire.NewClient(url, admin)

	_, err := anon.Nodes(ctx)
	wantCode(t, err, hubwire.CodeUnauthorized, http.StatusUnauthorized, "list the nodes")
	_, err = adm.MemberToken(ctx, hubwire.TokenRequest{Name: "bob"})
	wantCode(t, err, hubwire.CodeInvalid, http.StatusBadRequest, "make a member token")
	_, err = adm.Revoke(ctx, "n-0000000000000000")
	wantCode(t, err, hubwire.CodeNotFound, http.StatusNotFound, "revoke node n-0000000000000000")

	token, err := adm.Invite(ctx, hubwire.InviteRequest{WorkspaceID: "ws-01j0000000000000000000000a", Team: "blue"})
	if err != nil {
		t.Fatal(err)
	}
	jt, err := hubwire.ParseJoinToken(token)
	if err != nil {
		t.Fatal(err)
	}
	id, seed, pub := newNodeKey(t)
	join := hubwire.JoinRequest{Secret: jt.Secret, NodeID: id, PublicKey: pub, WorkspaceID: "ws-01j0000000000000000000000a"}
	n, err := anon.Join(ctx, join)
	if err != nil || n.ID != id || n.Team != "blue" {
		t.Fatalf("join = %+v, %v", n, err)
	}
	if again, err := anon.Join(ctx, join); err != nil || again.ID != id {
		t.Fatalf("the same join asked again = %+v, %v; want node %s", again, err, id)
	}
	otherID, _, otherPub := newNodeKey(t)
	_, err = anon.Join(ctx, hubwire.JoinRequest{Secret: jt.Secret, NodeID: otherID, PublicKey: otherPub, WorkspaceID: join.WorkspaceID}) // the invite is used
	wantCode(t, err, hubwire.CodeForbidden, http.StatusForbidden, "join the hub at "+url)

	// The node asks about itself with its own key, and not with another's.
	st, err := hubwire.NewNodeClient(url, id, seed).NodeStatus(ctx, id)
	if err != nil || st.ID != id || !st.Active() {
		t.Fatalf("the node's own status = %+v, %v", st, err)
	}
	_, otherSeed, _ := newNodeKey(t)
	_, err = hubwire.NewNodeClient(url, id, otherSeed).NodeStatus(ctx, id)
	wantCode(t, err, hubwire.CodeUnauthorized, http.StatusUnauthorized, "read the status of node "+id)
	if _, err := adm.Revoke(ctx, id); err != nil {
		t.Fatal(err)
	}
	_, err = hubwire.NewNodeClient(url, id, seed).NodeChain(ctx, id, 0)
	wantCode(t, err, hubwire.CodeUnauthorized, http.StatusUnauthorized, "read the hub's chain of node "+id)
}

// TestClient_NoHub checks the failures that are not the hub's answer: no
// server (ErrUnreachable, no code) and a server that is not the hub (the
// status without a code).
func TestClient_NoHub(t *testing.T) {
	ctx := context.Background()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	_, err := hubwire.NewClient(gone.URL, "").Health(ctx)
	if !errors.Is(err, hubwire.ErrUnreachable) || hubwire.CodeOf(err) != "" {
		t.Fatalf("a closed port: err = %v, want ErrUnreachable without a code", err)
	}

	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream down", http.StatusBadGateway)
	}))
	defer proxy.Close()
	_, err = hubwire.NewClient(proxy.URL, "").Health(ctx)
	var e *hubwire.Error
	if !errors.As(err, &e) || e.Status != http.StatusBadGateway || e.Code != "" {
		t.Fatalf("a proxy's 502: err = %#v, want status 502 without a code", err)
	}
}

// TestClient_AnswerTooLarge: an answer over the client's bound is refused
// as too large, never read cut short and reported as unreadable JSON.
func TestClient_AnswerTooLarge(t *testing.T) {
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := bytes.Repeat([]byte(" "), 1<<20)
		w.Write([]byte("{"))
		for range 65 {
			w.Write(chunk)
		}
		w.Write([]byte("}"))
	}))
	defer big.Close()
	_, err := hubwire.NewClient(big.URL, "").Stats(context.Background(), hubwire.StatsQuery{})
	if !errors.Is(err, hubwire.ErrAnswerTooLarge) {
		t.Fatalf("err = %v, want ErrAnswerTooLarge", err)
	}
}
