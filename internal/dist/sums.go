package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// sumsFile lists the SHA-256 of every file a run writes, in the format
// `sha256sum -c` reads.
const sumsFile = "SHA256SUMS"

// writeSums writes SHA256SUMS into out for files and returns its path.
func writeSums(out string, files []string) (string, error) {
	var b strings.Builder
	for _, f := range files {
		sum, err := sha256File(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, filepath.Base(f))
	}
	p := filepath.Join(out, sumsFile)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		return "", fmt.Errorf("write %s: %w", sumsFile, err)
	}
	return p, nil
}

func sha256File(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", filepath.Base(file), err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", filepath.Base(file), err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
