package main_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	binenc "encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/minio/highwayhash"
	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// referSession serves dir with a checkpoint every few events, runs a
// session of n refs and stops serving (which appends a last checkpoint).
func referSession(tb testing.TB, dir, session string, n int) {
	tb.Helper()
	cmd, cl := serve(tb, dir, "--checkpoint-every", "4")
	setup(tb, cl, session)
	wf := workflowID(tb, cl)
	for range n {
		call(tb, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}})
	}
	cl.Close()
	cmd.Wait()
}

// syncWithHub serves dir until the hub holds all of its ledger.
func syncWithHub(tb testing.TB, dir string) {
	tb.Helper()
	cmd, cl := serve(tb, dir, "--checkpoint-every", "0")
	defer func() { cl.Close(); cmd.Wait() }()
	var st struct {
		Linked           bool
		HubSeq, LocalSeq uint64
	}
	for deadline := time.Now().Add(time.Minute); ; {
		json.Unmarshal([]byte(mustRun(tb, dir, "hub", "status", "--json")), &st)
		if st.Linked && st.HubSeq == st.LocalSeq && st.LocalSeq > 0 {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the hub did not catch up with %s within a minute: %+v", dir, st)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

type hubVerify struct {
	OK    bool
	Nodes []struct {
		Node                string
		Through             uint64
		Checkpoints, Signed int
		Verified            uint64
		Problem             *struct {
			Seq    uint64
			Reason string
		}
	}
}

func hubVerifyNode(tb testing.TB, hp *hubProcess, nodeID string) (hubVerify, int) {
	tb.Helper()
	r := run(tb, hp.dir, "hub", "verify", "--node", nodeID, "--json")
	var v hubVerify
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || len(v.Nodes) != 1 {
		tb.Fatalf("hub verify --node %s: exit %d, %v\nstdout: %s\nstderr: %s", nodeID, r.code, err, r.stdout, r.stderr)
	}
	return v, r.code
}

// TestHub_AnchoredChain has a node rewrite a message of its own ledger and
// every checkpoint after it (re-signed with its own key), so that its
// local verify passes: verify --against-hub and the hub's check per node
// catch it and name the sequence, while an untouched node passes both.
func TestHub_AnchoredChain(t *testing.T) {
	hp := newHub(t)
	a, b := newWorkspace(t), newWorkspace(t)
	// Bad input: a workspace that never joined, an unknown node, a stray
	// argument.
	if r := run(t, a, "verify", "--against-hub"); r.code != 2 || !strings.Contains(r.stderr, "clumsies hub join TOKEN") {
		t.Fatalf("verify --against-hub before joining: exit %d, %s; want 2 saying how to join", r.code, r.stderr)
	}
	if r := run(t, hp.dir, "hub", "verify", "--node", "n-0000000000000000"); r.code == 0 || !strings.Contains(r.stderr, "n-0000000000000000") {
		t.Fatalf("hub verify of an unknown node: exit %d, %s", r.code, r.stderr)
	}
	if r := run(t, hp.dir, "hub", "verify", "stray"); r.code != 2 {
		t.Fatalf("hub verify with a stray argument: exit %d, want 2", r.code)
	}
	nodeA, nodeB := hp.join(t, a, "red", "ann"), hp.join(t, b, "red", "bob")
	_, err := hp.client("not-the-admin-token").NodeChain(context.Background(), nodeA, 0)
	wantRefused(t, err, hubwire.CodeUnauthorized, "a node's chain read without the admin token or the node's signature")
	referSession(t, a, "sess-a", 6)
	referSession(t, b, "sess-b", 3)
	syncWithHub(t, a)
	syncWithHub(t, b)

	through := map[string]uint64{}
	for _, n := range []struct{ dir, id string }{{a, nodeA}, {b, nodeB}} {
		var v struct {
			OK    bool
			Chain struct{ Signed, Unchecked int }
			Hub   struct {
				Chain struct {
					Through uint64
					Signed  int
				}
			}
		}
		out := mustRun(t, n.dir, "verify", "--against-hub", "--json")
		if err := json.Unmarshal([]byte(out), &v); err != nil || !v.OK || v.Chain.Signed == 0 || v.Hub.Chain.Signed == 0 || v.Hub.Chain.Through == 0 {
			t.Fatalf("verify --against-hub of an untouched node: %v %s; want ok with signed checkpoints checked locally and at the hub", err, out)
		}
		if hv, code := hubVerifyNode(t, hp, n.id); code != 0 || !hv.OK || hv.Nodes[0].Signed == 0 {
			t.Fatalf("hub verify of an untouched node: exit %d, %+v", code, hv)
		}
		through[n.id] = v.Hub.Chain.Through
	}

	seq := rewriteHistory(t, a)
	if r := run(t, a, "verify"); r.code != 0 {
		t.Fatalf("the rewritten ledger does not pass its own verify, the test rewrote it badly: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := run(t, a, "verify", "--against-hub")
	if r.code != 1 || !strings.Contains(r.stdout, fmt.Sprintf("the hub's copy disagrees at seq %d:", seq)) {
		t.Fatalf("verify --against-hub of a node that rewrote seq %d: exit %d\nstdout: %s\nstderr: %s", seq, r.code, r.stdout, r.stderr)
	}
	t.Log(r.stdout)

	// The node goes on: its next checkpoints pin the rewritten chain, and
	// the hub, which received the original, refuses them.
	referSession(t, a, "sess-a2", 2)
	syncWithHub(t, a)
	hv, code := hubVerifyNode(t, hp, nodeA)
	if p := hv.Nodes[0].Problem; code != 1 || hv.OK || p == nil || !strings.Contains(p.Reason, "hash to") {
		t.Fatalf("hub verify of the node that rewrote its history: exit %d, %+v; want a checkpoint refused", code, hv)
	}
	// The hub's copy holds through what it received before the rewrite;
	// the first checkpoint after it is refused.
	if p := hv.Nodes[0].Problem; p.Seq <= through[nodeA] || hv.Nodes[0].Verified > through[nodeA] {
		t.Fatalf("hub verify: %+v; want the first checkpoint after seq %d refused", hv.Nodes[0], through[nodeA])
	}
	t.Logf("hub verify: %s", run(t, hp.dir, "hub", "verify").stdout)
	if hv, code := hubVerifyNode(t, hp, nodeB); code != 0 || !hv.OK {
		t.Fatalf("hub verify of the untouched node after the other rewrote its history: exit %d, %+v", code, hv)
	}
}

// rewriteHistory rewrites, in the stopped workspace dir, the first refer
// event's constraint and every checkpoint after it (new digests, signed
// again with the node's own key), with correct block checksums, and drops
// the read models so that they are rebuilt from the rewritten ledger. It
// returns the sequence rewritten.
func rewriteHistory(tb testing.TB, dir string) uint64 {
	tb.Helper()
	ws := workspaceID(tb, dir)
	state := filepath.Join(dir, ".clumsies", "state")
	var id struct{ Seed string }
	b, err := os.ReadFile(filepath.Join(state, "hub-node.json"))
	if err != nil || json.Unmarshal(b, &id) != nil {
		tb.Fatalf("read the node identity: %v", err)
	}
	kp, err := nkeys.FromSeed([]byte(id.Seed))
	if err != nil {
		tb.Fatal(err)
	}
	msgs := filepath.Join(state, "jetstream", "$G", "streams", "CLUMSIES_"+ws, "msgs")
	blocks, _ := filepath.Glob(filepath.Join(msgs, "*.blk"))
	if len(blocks) != 1 {
		tb.Fatalf("got message blocks %v, want one", blocks)
	}
	var index int
	fmt.Sscanf(filepath.Base(blocks[0]), "%d.blk", &index)
	key := sha256.Sum256(fmt.Appendf(nil, "CLUMSIES_%s-%d", ws, index))
	buf, err := os.ReadFile(blocks[0])
	if err != nil {
		tb.Fatal(err)
	}
	// A record: length u32 (bit 31: headers), seq u64, time u64,
	// subject length u16, subject, [headers length u32, headers], data,
	// HighwayHash-64 of seq, time, subject, headers and data.
	le := binenc.LittleEndian
	checksum := func(seq, ts uint64, subj, hdr, data []byte) []byte {
		h, err := highwayhash.New64(key[:])
		if err != nil {
			tb.Fatal(err)
		}
		h.Write(le.AppendUint64(le.AppendUint64(nil, seq), ts))
		h.Write(subj)
		h.Write(hdr)
		h.Write(data)
		return h.Sum(nil)
	}
	var out []byte
	digest := events.ChainStart(ws)
	digests := map[uint64]events.ChainDigest{}
	var rewritten uint64
	for off := 0; off < len(buf); {
		word := le.Uint32(buf[off:])
		rl := word
		hasHdr := rl&(1<<31) != 0
		rl &^= 1 << 31
		seq, ts := le.Uint64(buf[off+4:]), le.Uint64(buf[off+12:])
		p := off + 22
		subj := buf[p : p+int(le.Uint16(buf[off+20:]))]
		p += len(subj)
		var hdr []byte
		if hasHdr {
			hdr = buf[p+4 : p+4+int(le.Uint32(buf[p:]))]
			p += 4 + len(hdr)
		}
		data := bytes.Clone(buf[p : off+int(rl)-8])
		if !bytes.Equal(checksum(seq, ts, subj, hdr, data), buf[off+int(rl)-8:off+int(rl)]) {
			tb.Fatalf("the record at %d does not check: the block format is not what this test knows", off)
		}
		off += int(rl)
		ev, err := events.Decode(data)
		if err != nil {
			tb.Fatalf("seq %d: %v", seq, err)
		}
		switch {
		case rewritten == 0 && ev.Type == events.TypeRefer:
			data = bytes.Replace(data, []byte(`"Steps/1"`), []byte(`"Steps/9"`), 1)
			rewritten = seq
		case rewritten != 0 && ev.Type == events.TypeCheckpoint:
			var cp events.CheckpointData
			if err := json.Unmarshal(ev.Data, &cp); err != nil || cp.Signature == "" {
				tb.Fatalf("checkpoint at seq %d: %v, signature %q; want a signed one", seq, err, cp.Signature)
			}
			d := digests[cp.Seq].String()
			sig, err := kp.Sign(events.CheckpointMessage(ws, cp.Seq, d))
			if err != nil {
				tb.Fatal(err)
			}
			data = bytes.Replace(data, []byte(cp.Digest), []byte(d), 1)
			data = bytes.Replace(data, []byte(cp.Signature), []byte(base64.RawURLEncoding.EncodeToString(sig)), 1)
		}
		if len(data) != len(buf[p:off-8]) {
			tb.Fatalf("seq %d: the rewrite changed the message's length", seq)
		}
		digest = digest.Next(seq, data)
		digests[seq] = digest
		rec := le.AppendUint32(nil, word)
		rec = le.AppendUint64(rec, seq)
		rec = le.AppendUint64(rec, ts)
		rec = le.AppendUint16(rec, uint16(len(subj)))
		rec = append(rec, subj...)
		if hasHdr {
			rec = le.AppendUint32(rec, uint32(len(hdr)))
			rec = append(rec, hdr...)
		}
		rec = append(rec, data...)
		out = append(out, append(rec, checksum(seq, ts, subj, hdr, data)...)...)
	}
	if rewritten == 0 {
		tb.Fatal("the ledger holds no refer event to rewrite")
	}
	if err := os.WriteFile(blocks[0], out, 0o600); err != nil {
		tb.Fatal(err)
	}
	for _, p := range []string{filepath.Join(msgs, "index.db"), filepath.Join(state, "projections"), filepath.Join(state, "ledger-mark.json")} {
		if err := os.RemoveAll(p); err != nil {
			tb.Fatal(err)
		}
	}
	return rewritten
}
