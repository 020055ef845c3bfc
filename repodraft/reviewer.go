package repodraft

import (
	"os"
	"os/user"
)

// UserName returns the name of the user running the process, recorded
// as the reviewer of each outcome: the account's name, else $USER, else
// "unknown".
func UserName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if name := os.Getenv("USER"); name != "" {
		return name
	}
	return "unknown"
}
