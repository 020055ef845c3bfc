package events_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// TestMessageDigest checks the digest of one message against the
// definition written out by hand, and that the sequence, every byte and
// the length count, with one MessageDigester reused throughout.
func TestMessageDigest(t *testing.T) {
	var md events.MessageDigester
	msg := []byte(`{"v":1,"id":"01J"}`)
	var b bytes.Buffer
	b.Write(binary.BigEndian.AppendUint64(nil, 7))
	b.Write(binary.BigEndian.AppendUint64(nil, uint64(len(msg))))
	b.Write(msg)
	var want events.MessageDigest
	binary.BigEndian.PutUint32(want[:4], crc32.Checksum(b.Bytes(), crc32.MakeTable(crc32.Castagnoli)))
	binary.BigEndian.PutUint32(want[4:], crc32.ChecksumIEEE(b.Bytes()))
	if got := md.Digest(7, msg); got != want {
		t.Fatalf("Digest: got %s, want %s", got, want)
	}
	flipped := bytes.Clone(msg)
	flipped[3] ^= 1
	for name, other := range map[string]events.MessageDigest{
		"another sequence": md.Digest(8, msg),
		"a flipped byte":   md.Digest(7, flipped),
		"a shorter record": md.Digest(7, msg[:len(msg)-1]),
	} {
		if other == md.Digest(7, msg) {
			t.Errorf("%s gives the same digest", name)
		}
	}
}
