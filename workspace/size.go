package workspace

import (
	"fmt"
	"strconv"
	"strings"
)

// sizeUnits are the units a size setting may end in.
var sizeUnits = []struct {
	suffix string
	bytes  int64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1},
}

// ParseSize reads a size such as "64GiB", "500MB" or "1048576" (bytes).
// It must be positive.
func ParseSize(s string) (int64, error) {
	text := strings.TrimSpace(s)
	unit := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(text, u.suffix) {
			text, unit = strings.TrimSpace(strings.TrimSuffix(text, u.suffix)), u.bytes
			break
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/unit {
		return 0, fmt.Errorf("size %q: want a positive whole number of B, KiB, MiB, GiB or TiB (like \"64GiB\")", s)
	}
	return n * unit, nil
}
