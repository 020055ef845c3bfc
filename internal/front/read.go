package front

import (
	"bytes"
	"errors"
	"io"
)

// ReadFirst reads from r until the end of the first line, the end of the
// input or MaxRead bytes, whichever comes first. It returns every byte
// read, and the first line (without its line end; nil unless a whole line
// was read). Each Read is one system call on a pipe, so nothing is read
// that the client has not sent yet; the caller hands on what follows the
// line.
func ReadFirst(r io.Reader) (read, line []byte, err error) {
	buf := make([]byte, 4096)
	n := 0
	for n < MaxRead {
		if n == len(buf) {
			buf = append(buf, make([]byte, min(len(buf), MaxRead-n))...)
		}
		k, rerr := r.Read(buf[n:])
		n += k
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return buf[:n], bytes.TrimSuffix(buf[:i], []byte("\r")), nil
		}
		if errors.Is(rerr, io.EOF) {
			return buf[:n], nil, nil
		}
		if rerr != nil {
			return buf[:n], nil, rerr
		}
	}
	return buf[:n], nil, nil
}
