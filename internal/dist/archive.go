package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// entry is one file of an archive: read from path, stored as name.
type entry struct {
	path, name string
	mode       int64
}

// writeArchive writes entries into file: a zip when file ends in .zip,
// a gzip-compressed tar otherwise.
func writeArchive(file string, entries []entry) (err error) {
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("create the archive: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("close the archive: %w", cerr)
		}
	}()
	if strings.HasSuffix(file, ".zip") {
		return writeZip(f, entries)
	}
	return writeTarGz(f, entries)
}

func writeTarGz(w io.Writer, entries []entry) error {
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		err := copyEntry(e, func(size int64, mtime time.Time) (io.Writer, error) {
			return tw, tw.WriteHeader(&tar.Header{Name: e.name, Mode: e.mode, Size: size, ModTime: mtime, Typeflag: tar.TypeReg, Format: tar.FormatPAX})
		})
		if err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("finish the tar: %w", err)
	}
	if err := gz.Close(); err != nil {
		return fmt.Errorf("finish the gzip stream: %w", err)
	}
	return nil
}

func writeZip(w io.Writer, entries []entry) error {
	zw := zip.NewWriter(w)
	for _, e := range entries {
		err := copyEntry(e, func(size int64, mtime time.Time) (io.Writer, error) {
			h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mtime}
			h.SetMode(os.FileMode(e.mode))
			return zw.CreateHeader(h)
		})
		if err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("finish the zip: %w", err)
	}
	return nil
}

// copyEntry copies e's file into the writer header returns for its size
// and modification time.
func copyEntry(e entry, header func(size int64, mtime time.Time) (io.Writer, error)) error {
	f, err := os.Open(e.path)
	if err != nil {
		return fmt.Errorf("open %s: %w", e.name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat %s: %w", e.name, err)
	}
	w, err := header(fi.Size(), fi.ModTime())
	if err != nil {
		return fmt.Errorf("add %s: %w", e.name, err)
	}
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("add %s: %w", e.name, err)
	}
	return nil
}
