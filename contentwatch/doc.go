// Package contentwatch tells when the content tree of a workspace (its
// META_PROMPT.md, rules/ and context/) may have changed on disk, so that
// the process that owns the workspace can publish the change at once.
//
// It uses the operating system's file notifications where there are any
// (inotify on Linux), with a comparison of a fingerprint of the tree's
// file names, sizes and times once a minute as a safety net (every 2 s on
// a network file system, where a change made on another machine sends no
// notification). Without notifications (other systems, the user's inotify
// watches used up) it compares the fingerprint every 0.5 s, less often on
// a tree whose comparison takes long. It imports the standard library, golang.org/x/sys
// and content (for the tree's layout), and knows nothing of events or
// publishing.
package contentwatch
