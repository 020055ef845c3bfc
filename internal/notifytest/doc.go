// Package notifytest tells, for the tests of the file watches
// (contentwatch, treecheck), whether the system refused file
// notifications (inotify) or something is broken: a test of the
// notification path skips in the first case only. It imports only the
// standard library.
package notifytest
