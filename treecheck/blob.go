package treecheck

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// MaxHashed is the largest file the check hashes; a larger one that
// changed is reported with the blob id TooLarge.
const MaxHashed = 256 << 20

// TooLarge stands for the blob id of a file larger than MaxHashed.
const TooLarge = "too-large"

// BlobID returns the git blob id of content: what `git hash-object`
// prints for a file holding it.
func BlobID(content []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// fileBlobID returns the git blob id of the file at path, read as it is
// now (size bytes, the size its stat gave; a file that grew or shrank
// since is read to its end all the same).
func fileBlobID(path string, size int64) (string, error) {
	if size > MaxHashed {
		return TooLarge, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxHashed+1))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	if len(b) > MaxHashed {
		return TooLarge, nil
	}
	return BlobID(b), nil
}
