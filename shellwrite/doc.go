// Package shellwrite reads a shell command line before it runs and tells
// which files it writes: the targets of its redirections and of the file
// commands it calls (tee, cp, mv, rm, sed -i, git checkout, patch, an
// apply_patch body, ...), each with the directory a preceding cd put the
// command in. It imports only the standard library and
// mvdan.cc/sh/v3/syntax, a real parser of the bash language: no pattern is
// matched over the command line itself.
//
// The answer is static. Analyze never runs anything, reads no file and
// expands no variable but $HOME (kept as "~") and $PWD. A command string
// whose words are all known (sh -c '...', eval, trap, a script fed to a
// shell on a here-document) is read as a command line of its own, up to
// eight levels deep. What a static reading cannot know is named in
// Result.Opaque instead of guessed:
//
//   - scripts and interpreters: ./x.sh, bash x.sh, source x, python -c,
//     node -e, perl -e without -i, awk programs that redirect;
//   - build tools and package managers (make, npm, go, cargo, ...), and
//     any command the package does not know;
//   - commands that take their files from elsewhere: xargs, find -exec
//     and -delete, git apply of a patch file, a whole-tree git command
//     (git reset --hard, merge, pull, rebase, stash, switch, ...);
//   - paths built at run time: a variable other than $HOME and $PWD, a
//     command substitution, a cd to such a path.
//
// Aliases and shell functions defined elsewhere (in a profile, in an
// earlier command of the session) are not seen: a name is read as the
// command it names on a plain system. A function defined in the command
// line itself is read where it is defined, as if it ran. Git hooks run by
// git commit and friends are not seen either. The caller checks the
// working tree after the command ran; that check catches the writes of
// everything opaque.
//
// Reads never count: cat f, grep, ls, git diff, sed -n without -i, and
// input redirections (< f) write nothing.
package shellwrite
