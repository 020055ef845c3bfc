//go:build !unix

package node

import "os"

// fileOwner reports no owner: the system does not give one.
func fileOwner(os.FileInfo) (int, bool) { return 0, false }
