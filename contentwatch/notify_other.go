//go:build !linux

package contentwatch

import (
	"errors"
	"fmt"
)

func newNotifier(string) (notifier, error) {
	return nil, fmt.Errorf("contentwatch: file notifications are used on Linux only: %w", errors.ErrUnsupported)
}
