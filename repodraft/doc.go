// Package repodraft applies and declines the drafts of repository content:
// the drafts agents stage with the artifact tool for the files under
// .clumsies/ that the repository holds and people review through git.
//
// Applying a draft writes the content tree (create, update, rename,
// delete) and records attest.draft.apply, decided against the drafts
// aggregate with catalog.DecideReview; a file that changed since the
// draft's base makes the draft conflicted instead (attest.draft.conflict,
// with a diff), and nothing is written; so does a path that passes through
// a symbolic link: apply writes only below the content root, through an
// os.Root, and follows no link. Publishing then picks the files up
// as it picks up any edit. Declining records attest.draft.decline with the
// person's reason.
//
// The order is decide, write, record. A crash after writing and before
// recording leaves files that already hold the draft: the next apply of
// the draft finds them so and only records the outcome. If the draft
// changes between the writing and the recording (an agent's update came
// first), the files are put back as they were and the apply is refused:
// the person looks at the draft again.
package repodraft
