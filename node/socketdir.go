package node

import (
	"fmt"
	"os"
	"path/filepath"
)

// socketDirFile is the state file that names the private folder of the
// owner's socket when the state folder's own socket path is too long.
const socketDirFile = "socket-dir"

// socketDirRecord is the content of socketDirFile.
type socketDirRecord struct {
	Dir string `json:"dir"`
}

// isLong reports whether the socket path in the state folder stateDir is
// too long for a socket, so that the socket goes to a private folder.
func isLong(stateDir string) bool {
	return len(filepath.Join(stateDir, socketName)) > maxSocketPath
}

// SocketPath returns the unix socket through which the owner of the
// workspace whose state folder is stateDir serves the other processes:
// stateDir/owner.sock, or, when that path is too long for a socket,
// owner.sock in the private folder the owner recorded in stateDir (see
// ownSocketPath); "" when there is no such record yet.
func SocketPath(stateDir string) string {
	if !isLong(stateDir) {
		return filepath.Join(stateDir, socketName)
	}
	var rec socketDirRecord
	if ok, err := readStateFile(stateDir, socketDirFile, &rec); err != nil || !ok || !filepath.IsAbs(rec.Dir) {
		return ""
	}
	return filepath.Join(rec.Dir, socketName)
}

// ownSocketPath returns where the owner binds its socket: SocketPath for
// a short state folder; for a long one, owner.sock in the private folder
// recorded in stateDir while that is still a folder of this user closed
// to others, else in a new folder with a random name (os.MkdirTemp, mode
// 0700) under $XDG_RUNTIME_DIR, when that is private, or $TMPDIR,
// recorded for the other processes. Nobody can predict the new folder's
// name, so no other local user can occupy it beforehand; the state folder
// is private, so nobody else can change the record.
func ownSocketPath(stateDir string) (string, error) {
	if p := SocketPath(stateDir); !isLong(stateDir) || p != "" && checkOwnDir(filepath.Dir(p), 0o077) == nil {
		return p, nil
	}
	dir, err := os.MkdirTemp(socketBase(), "clumsies-")
	if err != nil {
		return "", fmt.Errorf("make a private folder for the owner socket: %w", err)
	}
	p := filepath.Join(dir, socketName)
	err = checkOwnDir(dir, 0o077)
	if err == nil && len(p) > maxSocketPath {
		err = fmt.Errorf("the socket path %s is over %d bytes; set TMPDIR to a shorter folder", p, maxSocketPath)
	}
	if err == nil {
		err = writeStateFile(stateDir, socketDirFile, socketDirRecord{Dir: dir})
	}
	if err != nil {
		os.Remove(dir)
		return "", fmt.Errorf("private folder for the owner socket: %w", err)
	}
	return p, nil
}

// socketBase returns the folder in which ownSocketPath makes private
// folders: $XDG_RUNTIME_DIR when it is a folder of this user closed to
// others, else the temporary folder.
func socketBase() string {
	if run := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(run) && checkOwnDir(run, 0o077) == nil {
		return run
	}
	return os.TempDir()
}
