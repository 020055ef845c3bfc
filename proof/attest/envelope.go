package attest

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"

	ita "github.com/in-toto/attestation/go/v1"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
)

// PayloadType is the DSSE payload type of an in-toto Statement.
const PayloadType = "application/vnd.in-toto+json"

// CommitSubject is the name of the Statement's subject that is the
// attested commit (its digest is gitCommit).
const CommitSubject = "commit"

// Statement returns the in-toto Statement v1 of p: the commit (digest
// gitCommit) and each file an agent wrote (name: its path, digest
// gitBlob) as subjects, p as the predicate.
func Statement(p Predicate) (*ita.Statement, error) {
	subjects := []*ita.ResourceDescriptor{{Name: CommitSubject, Digest: map[string]string{string(ita.AlgorithmGitCommit): p.Commit}}}
	for _, f := range p.Files {
		if f.By == ByAgent && f.Blob != "" {
			subjects = append(subjects, &ita.ResourceDescriptor{Name: f.Path, Digest: map[string]string{string(ita.AlgorithmGitBlob): f.Blob}})
		}
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encode the predicate: %w", err)
	}
	pred := new(structpb.Struct)
	if err := protojson.Unmarshal(raw, pred); err != nil {
		return nil, fmt.Errorf("encode the predicate: %w", err)
	}
	st := &ita.Statement{Type: ita.StatementTypeUri, Subject: subjects, PredicateType: PredicateType, Predicate: pred}
	if err := st.Validate(); err != nil {
		return nil, fmt.Errorf("build the statement of %s: %w", p.Commit, err)
	}
	return st, nil
}

// Sign returns the DSSE envelope of p's Statement signed with key.
func Sign(ctx context.Context, p Predicate, key ed25519.PrivateKey) (*dsse.Envelope, error) {
	st, err := Statement(p)
	if err != nil {
		return nil, err
	}
	body, err := protojson.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("encode the statement: %w", err)
	}
	es, err := dsse.NewEnvelopeSigner(signer{key})
	if err != nil {
		return nil, fmt.Errorf("sign the statement: %w", err)
	}
	env, err := es.SignPayload(ctx, PayloadType, body)
	if err != nil {
		return nil, fmt.Errorf("sign the statement: %w", err)
	}
	return env, nil
}

// ErrSignature means no signature of an envelope verifies with the keys
// given.
var ErrSignature = errors.New("attest: signature does not verify")

// ErrStatement means an envelope's payload is not a clumsies commit
// Statement.
var ErrStatement = errors.New("attest: not a clumsies commit statement")

// Open checks env's signature with keys (any one suffices) through the
// DSSE library's verifier, and returns its Statement, its predicate and
// the key id (KeyID) of the key whose signature verified. It
// returns an error wrapping ErrSignature or ErrStatement.
func Open(ctx context.Context, env *dsse.Envelope, keys []ed25519.PublicKey) (*ita.Statement, Predicate, string, error) {
	if env.PayloadType != PayloadType {
		return nil, Predicate{}, "", fmt.Errorf("%w: payload type %q, want %q", ErrStatement, env.PayloadType, PayloadType)
	}
	var vs []dsse.Verifier
	for _, k := range keys {
		v, err := newKey(k)
		if err != nil {
			return nil, Predicate{}, "", err
		}
		vs = append(vs, v)
	}
	ev, err := dsse.NewMultiEnvelopeVerifier(1, vs...)
	if err != nil {
		return nil, Predicate{}, "", fmt.Errorf("verify the envelope: %w", err)
	}
	accepted, body, err := ev.VerifyAndDecode(ctx, env)
	if err != nil || len(accepted) == 0 {
		return nil, Predicate{}, "", fmt.Errorf("%w with the key given (%v): signed by another key, or the envelope was changed after signing", ErrSignature, err)
	}
	st, p, err := ParseStatement(body)
	return st, p, accepted[0].KeyID, err
}

// ParseStatement decodes a Statement and its clumsies predicate, without
// any signature check.
func ParseStatement(body []byte) (*ita.Statement, Predicate, error) {
	st := new(ita.Statement)
	if err := protojson.Unmarshal(body, st); err != nil {
		return nil, Predicate{}, fmt.Errorf("%w: %v", ErrStatement, err)
	}
	if err := st.Validate(); err != nil {
		return nil, Predicate{}, fmt.Errorf("%w: %v", ErrStatement, err)
	}
	if st.PredicateType != PredicateType {
		return nil, Predicate{}, fmt.Errorf("%w: predicate type %q, want %q", ErrStatement, st.PredicateType, PredicateType)
	}
	raw, err := protojson.Marshal(st.Predicate)
	if err != nil {
		return nil, Predicate{}, fmt.Errorf("%w: %v", ErrStatement, err)
	}
	var p Predicate
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, Predicate{}, fmt.Errorf("%w: the predicate: %v", ErrStatement, err)
	}
	return st, p, nil
}

// ReadEnvelope decodes one DSSE envelope (JSON).
func ReadEnvelope(b []byte) (*dsse.Envelope, error) {
	env := new(dsse.Envelope)
	if err := json.Unmarshal(b, env); err != nil {
		return nil, fmt.Errorf("%w: not a DSSE envelope: %v", ErrStatement, err)
	}
	if env.PayloadType == "" || env.Payload == "" {
		return nil, fmt.Errorf("%w: not a DSSE envelope (no payloadType or payload)", ErrStatement)
	}
	return env, nil
}

// signer signs with an ed25519 key. The signature's keyid is left
// empty: DSSE makes it an unauthenticated hint, and every verifier then
// tries its keys, whatever its own idea of a key id (the DSSE library's
// loader of PEM keys computes another than an OpenSSH fingerprint).
type signer struct{ priv ed25519.PrivateKey }

func (s signer) Sign(_ context.Context, data []byte) ([]byte, error) {
	return ed25519.Sign(s.priv, data), nil
}

func (s signer) KeyID() (string, error) { return "", nil }

// key verifies with an ed25519 public key; its key id is the key's
// OpenSSH SHA256 fingerprint.
type key struct {
	pub ed25519.PublicKey
	id  string
}

func newKey(pub ed25519.PublicKey) (*key, error) {
	id, err := dsse.SHA256KeyID(pub)
	if err != nil {
		return nil, fmt.Errorf("key id: %w", err)
	}
	return &key{pub: pub, id: id}, nil
}

// KeyID returns the key id of pub as envelopes name it.
func KeyID(pub ed25519.PublicKey) string {
	id, _ := dsse.SHA256KeyID(pub)
	return id
}

func (k *key) Verify(_ context.Context, data, sig []byte) error {
	if !ed25519.Verify(k.pub, data, sig) {
		return ErrSignature
	}
	return nil
}

func (k *key) KeyID() (string, error)   { return k.id, nil }
func (k *key) Public() crypto.PublicKey { return k.pub }
