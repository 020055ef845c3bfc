package hub

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// holds reports whether d holds the bucket entry key with value already:
// the registry's watch, which starts with every key's last value, then
// applies only what the copy lacks. A value that does not read is not
// held (set reports it).
func (d *registryData) holds(key string, value []byte) bool {
	switch {
	case strings.HasPrefix(key, keyNodePrefix):
		return sameEntry(d.Nodes, value, idOfNode)
	case strings.HasPrefix(key, keyInvitePrefix):
		return sameEntry(d.Invites, value, hashOfInvite)
	case strings.HasPrefix(key, keyTokenPrefix):
		return sameEntry(d.Tokens, value, hashOfToken)
	}
	return true // not a kind the copy keeps
}

// sameEntry reports whether list, ordered by id (registryData.sort),
// holds value's entry as value has it (compared as the copy writes it).
func sameEntry[T any](list []T, value []byte, id func(T) string) bool {
	var v T
	if err := json.Unmarshal(value, &v); err != nil {
		return false
	}
	i, found := find(list, id(v), id)
	if !found {
		return false
	}
	a, _ := json.Marshal(list[i])
	b, _ := json.Marshal(v)
	return bytes.Equal(a, b)
}

// upsert returns list, ordered by id, with v in the place of the entry of
// its id, or inserted where its id goes.
func upsert[T any](list []T, v T, id func(T) string) []T {
	i, found := find(list, id(v), id)
	if found {
		list[i] = v
		return list
	}
	return slices.Insert(list, i, v)
}

// find returns where the entry of id is, or goes, in list, ordered by id
// (registryData.sort), and whether it is there.
func find[T any](list []T, want string, id func(T) string) (int, bool) {
	return slices.BinarySearchFunc(list, want, func(o T, want string) int { return strings.Compare(id(o), want) })
}

// idOfNode, hashOfInvite and hashOfToken are the ids the registry's lists are ordered by.
func idOfNode(n hubwire.Node) string   { return n.ID }
func hashOfInvite(in invite) string    { return in.Hash }
func hashOfToken(t memberToken) string { return t.Hash }
