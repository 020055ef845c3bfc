package contentwatch

import "golang.org/x/sys/unix"

// sharedFiles are the types of the network file systems, where a change
// made on another machine sends no notification here (statfs(2)).
var sharedFiles = map[uint32]bool{
	unix.NFS_SUPER_MAGIC: true, unix.SMB_SUPER_MAGIC: true, unix.SMB2_SUPER_MAGIC: true,
	unix.CIFS_SUPER_MAGIC: true, unix.CEPH_SUPER_MAGIC: true, unix.AFS_SUPER_MAGIC: true,
	unix.AFS_FS_MAGIC: true, unix.CODA_SUPER_MAGIC: true, unix.NCP_SUPER_MAGIC: true,
	unix.OCFS2_SUPER_MAGIC: true, unix.V9FS_MAGIC: true,
	// FUSE: sshfs, and the folders a container shares with its host
	// (virtiofs, Docker Desktop's).
	unix.FUSE_SUPER_MAGIC: true,
}

// sharedFS says whether dir is on a network file system.
func sharedFS(dir string) bool {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return false
	}
	return sharedFiles[uint32(st.Type)]
}
