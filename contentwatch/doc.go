// Package contentwatch tells when the content tree of a workspace (its
// META_PROMPT.md, rules/ and context/) may have changed on disk, so that
// the process that owns the workspace can publish the change at once.
//
// It uses the operating system's file notifications where there are any
// (inotify on Linux) and compares a fingerprint of the tree's file names,
// sizes and times at an interval as well, which is all it does on file
// systems that send no notifications (network and some container mounts)
// and on other systems. It imports the standard library, golang.org/x/sys
// and content (for the tree's layout), and knows nothing of events or
// publishing.
package contentwatch
