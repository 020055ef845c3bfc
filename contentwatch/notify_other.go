//go:build !linux

package contentwatch

import "errors"

func newNotifier(string) (notifier, error) {
	return nil, errors.New("contentwatch: file notifications are used on Linux only")
}
