package shellwrite_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/shellwrite"
)

// The helpers build the expected targets.

func w(path string) shellwrite.Target { return op(path, shellwrite.OpWrite) }

func op(path, op string) shellwrite.Target { return shellwrite.Target{Path: path, Op: op} }

func in(dir string, t shellwrite.Target) shellwrite.Target {
	t.Dir = dir
	return t
}

func glob(t shellwrite.Target) shellwrite.Target {
	t.Glob = true
	return t
}

func tree(t shellwrite.Target) shellwrite.Target {
	t.Tree = true
	return t
}

const (
	app    = shellwrite.OpAppend
	create = shellwrite.OpCreate
	del    = shellwrite.OpDelete
	move   = shellwrite.OpMove
	link   = shellwrite.OpLink
	mode   = shellwrite.OpMode
)

// gitDiff is a git diff that changes x.go.
const gitDiff = "diff --git a/x.go b/x.go\nindex 1..2 100644\n--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n"

type analyzeCase struct {
	name   string
	cmd    string
	writes []shellwrite.Target
	opaque []string
}

// analyzeCases are named after the rules of what counts as a write:
// redirections, file commands, git, patches, nested shells, wrappers,
// directories, words, and reads.
var analyzeCases = []analyzeCase{
	// Redirections.
	{"Redirect_Write", "echo hi > out.txt", []shellwrite.Target{w("out.txt")}, nil},
	{"Redirect_Append", "echo hi >> log.txt", []shellwrite.Target{op("log.txt", app)}, nil},
	{"Redirect_AllOutput", "ls &> all.log", []shellwrite.Target{w("all.log")}, nil},
	{"Redirect_AllAppend", "ls &>> all.log", []shellwrite.Target{op("all.log", app)}, nil},
	{"Redirect_Clobber", "echo x >| f", []shellwrite.Target{w("f")}, nil},
	{"Redirect_ReadWrite", "exec 3<> rw.txt", []shellwrite.Target{w("rw.txt")}, nil},
	{"Redirect_Stderr", "ls 2> errs.txt", []shellwrite.Target{w("errs.txt")}, nil},
	{"Redirect_DupToFile", "echo x >& both.txt", []shellwrite.Target{w("both.txt")}, nil},
	{"Redirect_DupDescriptor", "echo x 2>&1 >&2 3>&-", nil, nil},
	{"Redirect_DevicesIgnored", "echo x > /dev/null 2> /dev/stderr > /dev/stdout > /dev/tty > /dev/fd/3", nil, nil},
	{"Redirect_HeredocToFile", "cat > notes.md <<'EOF'\n# Notes\n> not a redirection\nEOF", []shellwrite.Target{w("notes.md")}, nil},
	{"Redirect_OnBlock", "{ echo a; echo b; } > block.txt", []shellwrite.Target{w("block.txt")}, nil},
	{"Redirect_OnWhile", "while read l; do echo $l; done < in.txt > out.txt", []shellwrite.Target{w("out.txt")}, nil},
	{"Redirect_InPipeline", "grep x f | sort > sorted.txt", []shellwrite.Target{w("sorted.txt")}, nil},
	{"Redirect_InSubshell", "(echo a > sub.txt)", []shellwrite.Target{w("sub.txt")}, nil},
	{"Redirect_InIfForCase", "if true; then echo > a; else echo > b; fi; for i in 1 2; do echo > c; done; case $x in y) echo > d;; esac",
		[]shellwrite.Target{w("a"), w("b"), w("c"), w("d")}, nil},
	{"Redirect_InFunction", "f() { echo > fn.txt; }; f", []shellwrite.Target{w("fn.txt")}, nil},
	{"Redirect_InCommandSubstitution", "echo $(echo hi > inner.txt)", []shellwrite.Target{w("inner.txt")}, nil},
	{"Redirect_InProcessSubstitution", "diff <(sort a) <(sort b > b.sorted)", []shellwrite.Target{w("b.sorted")}, nil},
	{"Redirect_Variable", "echo x > $F", nil, []string{"> $F"}},
	{"Redirect_CommandSubstitution", "echo x > \"$(date).log\"", nil, []string{`> "$(date).log"`}},
	{"Redirect_InputIsRead", "sort < in.txt; wc -l 0< other.txt", nil, nil},
	{"Redirect_HeredocBodySubstitution", "cat <<EOF > out.txt\n$(rm x)\nEOF", []shellwrite.Target{w("out.txt"), op("x", del)}, nil},
	{"Substitution_InAssignmentsAndTests", "X=$(rm a) true; [[ $(rm b) ]]; echo ${x:-$(rm c)}; (( $(rm d) ))",
		[]shellwrite.Target{op("a", del), op("b", del), op("c", del), op("d", del)}, nil},
	{"Redirect_Background", "echo x > bg.txt &", []shellwrite.Target{w("bg.txt")}, nil},

	// Words: quotes, escapes, ~ and $HOME, $PWD, globs, braces.
	{"Word_Quotes", `rm 'a b' "c d" e\ f`, []shellwrite.Target{op("a b", del), op("c d", del), op("e f", del)}, nil},
	{"Word_AnsiC", `touch $'tab\there'`, []shellwrite.Target{op("tab\there", create)}, nil},
	{"Word_Tilde", "echo x > ~/notes.txt", []shellwrite.Target{w("~/notes.txt")}, nil},
	{"Word_Home", `echo x > $HOME/a; echo y > "${HOME}/b"`, []shellwrite.Target{w("~/a"), w("~/b")}, nil},
	{"Word_HomeThenName", `echo x > $HOMEDIR/a`, nil, []string{"> $HOMEDIR/a"}},
	{"Word_QuotedHome", `cat > "$HOME"/.bashrc`, []shellwrite.Target{w("~/.bashrc")}, nil},
	{"Word_PWD", `echo x > "$PWD/out"`, []shellwrite.Target{w("out")}, nil},
	{"Word_Glob", "rm src/*.go", []shellwrite.Target{glob(op("src/*.go", del))}, nil},
	{"Word_GlobQuotedPart", `rm "a*"*.txt`, []shellwrite.Target{glob(op(`a\**.txt`, del))}, nil},
	{"Word_QuotedGlobIsLiteral", `rm "*.log"`, []shellwrite.Target{op("*.log", del)}, nil},
	{"Word_Braces", "touch {a,b{1..3}}.go", []shellwrite.Target{
		op("a.go", create), op("b1.go", create), op("b2.go", create), op("b3.go", create)}, nil},
	{"Word_BracesTooMany", "touch f{1..100}", nil, []string{"touch f{1..100}"}},
	{"Word_CleanedPath", "echo > ./a//b/../c", []shellwrite.Target{w("a/c")}, nil},
	{"Word_AbsolutePath", "echo > /etc/motd", []shellwrite.Target{w("/etc/motd")}, nil},
	{"Word_TildeStaysHome", "echo > ~/../../etc/x", []shellwrite.Target{w("~/etc/x")}, nil},

	// tee and sponge.
	{"Tee_Write", "echo x | tee a.txt b.txt", []shellwrite.Target{w("a.txt"), w("b.txt")}, nil},
	{"Tee_Append", "echo x | tee -a log.txt", []shellwrite.Target{op("log.txt", app)}, nil},
	{"Tee_Sponge", "sort f | sponge f", []shellwrite.Target{w("f")}, nil},

	// sed.
	{"Sed_InPlace", "sed -i 's/a/b/' main.go", []shellwrite.Target{w("main.go")}, nil},
	{"Sed_InPlaceSuffix", "sed -i.bak 's/a/b/g' a.go b.go", []shellwrite.Target{w("a.go"), w("b.go")}, nil},
	{"Sed_InPlaceLong", "sed --in-place=.orig --expression='s/a/b/' f.txt", []shellwrite.Target{w("f.txt")}, nil},
	{"Sed_InPlaceBundledE", "sed -ie 's/a/b/' f.txt", []shellwrite.Target{w("f.txt")}, nil},
	{"Sed_InPlaceAfterFiles", "sed 's/a/b/' f.txt -i", []shellwrite.Target{w("f.txt")}, nil},
	{"Sed_ExpressionOptions", "sed -i -e 's/a/b/' -e 's/c/d/' x y", []shellwrite.Target{w("x"), w("y")}, nil},
	{"Sed_ScriptFile", "sed -i -f fix.sed f.txt", []shellwrite.Target{w("f.txt")}, []string{"sed -f fix.sed"}},
	{"Sed_BSDEmptySuffix", "sed -i '' -e 's/a/b/' f.txt", []shellwrite.Target{w("f.txt")}, nil},
	{"Sed_NoInPlaceReads", "sed -n '1,5p' f.txt; sed 's/a/b/' f.txt", nil, nil},
	{"Sed_WriteCommand", "sed -n '/err/w errors.txt' log.txt", []shellwrite.Target{w("errors.txt")}, nil},
	{"Sed_SubstituteWriteFlag", "sed 's/a/b/w changed.txt' f", []shellwrite.Target{w("changed.txt")}, nil},
	{"Sed_LoneBackslash", `sed '\' f`, nil, nil},
	{"Sed_ExecuteCommand", "sed 's/x/date/e' f", nil, []string{"sed e"}},

	// perl, ruby, awk, yq.
	{"Perl_InPlace", "perl -pi -e 's/a/b/' a.txt b.txt", []shellwrite.Target{w("a.txt"), w("b.txt")}, nil},
	{"Perl_InPlaceBackup", "perl -i.bak -pe 's/a/b/' f", []shellwrite.Target{w("f")}, nil},
	{"Perl_InPlaceSeparate", "perl -p -i -e 's/a/b/' -- f", []shellwrite.Target{w("f")}, nil},
	{"Perl_Inline", "perl -e 'unlink \"x\"'", nil, []string{"perl -e"}},
	{"Perl_LineEnding", "perl -lne 'print' f", nil, []string{"perl -e"}},
	{"Perl_Script", "perl fix.pl", nil, []string{"perl fix.pl"}},
	{"Ruby_InPlace", "ruby -i -pe 'gsub(/a/, \"b\")' f.rb", []shellwrite.Target{w("f.rb")}, nil},
	{"Awk_InPlace", "gawk -i inplace '{ print $1 }' a.txt", []shellwrite.Target{w("a.txt")}, nil},
	{"Awk_ReadOnly", "awk '{ print $1 }' a.txt", nil, nil},
	{"Awk_Redirection", `awk '{ print > "out" }' a.txt`, nil, []string{"awk"}},
	{"Yq_InPlace", "yq -i '.a = 1' config.yaml", []shellwrite.Target{w("config.yaml")}, nil},

	// cp, mv, install, ln.
	{"Cp_Destination", "cp a.go b.go", []shellwrite.Target{w("b.go"), w("b.go/a.go")}, nil},
	{"Cp_IntoDirectory", "cp a b dir/", []shellwrite.Target{w("dir/a"), w("dir/b")}, nil},
	{"Cp_TargetDirectory", "cp -t dir src/a src/b", []shellwrite.Target{w("dir/a"), w("dir/b")}, nil},
	{"Cp_NoTargetDirectory", "cp -T a b", []shellwrite.Target{w("b")}, nil},
	{"Cp_Recursive", "cp -r src dst", []shellwrite.Target{tree(w("dst")), tree(w("dst/src"))}, nil},
	{"Cp_GlobSources", "cp src/*.go dst/", []shellwrite.Target{glob(w("dst/*.go"))}, nil},
	{"Cp_VariableSource", "cp $F dst/", []shellwrite.Target{tree(w("dst"))}, nil},
	{"Mv_SourcesAreWrites", "mv old.go new.go", []shellwrite.Target{
		tree(op("new.go", shellwrite.OpWrite)), tree(w("new.go/old.go")), tree(op("old.go", move))}, nil},
	{"Mv_TargetDirectory", "mv --target-directory=dst a b", []shellwrite.Target{
		tree(op("a", move)), tree(op("b", move)), tree(w("dst/a")), tree(w("dst/b"))}, nil},
	{"Install_Destination", "install -m 755 bin/tool /usr/local/bin/", []shellwrite.Target{w("/usr/local/bin/tool")}, nil},
	{"Install_Directories", "install -d a b", []shellwrite.Target{op("a", create), op("b", create)}, nil},
	{"Ln_LinkName", "ln -sf ../shared/x.md x.md", []shellwrite.Target{op("x.md", link), op("x.md/x.md", link)}, nil},
	{"Ln_OneOperand", "ln -s /opt/tool/bin/tool", []shellwrite.Target{op("tool", link)}, nil},

	// touch, rm, rmdir, mkdir, truncate, dd, chmod, chown, unlink, shred, mktemp.
	{"Touch_Create", "touch -d yesterday a b", []shellwrite.Target{op("a", create), op("b", create)}, nil},
	{"Rm_Delete", "rm -f a.go b.go", []shellwrite.Target{op("a.go", del), op("b.go", del)}, nil},
	{"Rm_RecursiveIsTree", "rm -rf build/ dist", []shellwrite.Target{tree(op("build", del)), tree(op("dist", del))}, nil},
	{"Rm_DashFile", "rm -- -x", []shellwrite.Target{op("-x", del)}, nil},
	{"Rm_CommandSubstitution", "rm $(ls *.tmp)", nil, []string{"rm $(ls *.tmp)"}},
	{"Rmdir_Delete", "rmdir -p a/b", []shellwrite.Target{op("a/b", del)}, nil},
	{"Mkdir_Create", "mkdir -p -m 700 a/b", []shellwrite.Target{op("a/b", create)}, nil},
	{"Truncate_Write", "truncate -s 0 log.txt", []shellwrite.Target{w("log.txt")}, nil},
	{"Dd_Output", "dd if=/dev/zero of=disk.img bs=1M count=1", []shellwrite.Target{w("disk.img")}, nil},
	{"Chmod_Mode", "chmod +x run.sh", []shellwrite.Target{op("run.sh", mode)}, nil},
	{"Chmod_DashMode", "chmod -x run.sh", []shellwrite.Target{op("run.sh", mode)}, nil},
	{"Chmod_Recursive", "chmod -R 755 dir", []shellwrite.Target{tree(op("dir", mode))}, nil},
	{"Chown_Owner", "chown -R me:staff dir f", []shellwrite.Target{tree(op("dir", mode)), tree(op("f", mode))}, nil},
	{"Unlink_Delete", "unlink old", []shellwrite.Target{op("old", del)}, nil},
	{"Shred_Write", "shred -n 3 secret", []shellwrite.Target{w("secret")}, nil},
	{"Shred_Remove", "shred -u secret", []shellwrite.Target{op("secret", del)}, nil},
	{"Mktemp_Template", "mktemp build.XXXXXX", []shellwrite.Target{glob(op("build.*", create))}, nil},
	{"Mktemp_TempDir", "mktemp -d; mktemp -t x.XXXX", nil, nil},

	// Other file tools.
	{"Sort_Output", "sort -o sorted.txt in.txt; sort -ro rev.txt in.txt", []shellwrite.Target{w("rev.txt"), w("sorted.txt")}, nil},
	{"Uniq_Output", "uniq in.txt out.txt", []shellwrite.Target{w("out.txt")}, nil},
	{"Curl_Output", "curl -sSLo out.tgz https://example.com/x.tgz", []shellwrite.Target{w("out.tgz")}, nil},
	{"Curl_RemoteName", "curl -O https://example.com/x.tgz", nil, []string{"curl -O"}},
	{"Curl_Stdout", "curl -s https://example.com", nil, nil},
	{"Wget_Output", "wget -qO page.html https://example.com", []shellwrite.Target{w("page.html")}, nil},
	{"Tar_Create", "tar czf out.tgz src", []shellwrite.Target{w("out.tgz")}, nil},
	{"Tar_Extract", "tar -xzf in.tgz", nil, []string{"tar -x"}},
	{"Tar_List", "tar -tzf in.tgz --exclude x", nil, nil},
	{"Find_Delete", "find . -name '*.tmp' -delete", nil, []string{"find -delete"}},
	{"Find_Exec", `find . -name '*.go' -exec gofmt -w {} \;`, nil, []string{"find -exec"}},
	{"Find_Print", "find . -fprint list.txt", []shellwrite.Target{w("list.txt")}, nil},
	{"Gofmt_Write", "gofmt -w main.go ./pkg", []shellwrite.Target{w("main.go"), tree(w("pkg"))}, nil},
	{"Gofmt_List", "gofmt -l .", nil, nil},

	// git.
	{"Git_CheckoutPaths", "git checkout -- a.go b.go", []shellwrite.Target{tree(w("a.go")), tree(w("b.go"))}, nil},
	{"Git_CheckoutRefPaths", "git checkout HEAD~1 -- x.go", []shellwrite.Target{tree(w("x.go"))}, nil},
	{"Git_CheckoutBranch", "git checkout main", []shellwrite.Target{tree(w("main"))}, []string{"git checkout main"}},
	{"Git_CheckoutRevisionPaths", "git checkout HEAD~3 src/a.go src/b.go", []shellwrite.Target{tree(w("src/a.go")), tree(w("src/b.go"))}, nil},
	{"Git_CheckoutCommit", "git checkout 1a2b3c4d", nil, []string{"git checkout 1a2b3c4d"}},
	{"Git_CheckoutNewBranch", "git checkout -b feature", nil, nil},
	{"Git_CheckoutPathspecGlob", "git checkout -- '*.go'", []shellwrite.Target{tree(glob(w("*.go")))}, nil},
	{"Git_Restore", "git restore --source=HEAD src/", []shellwrite.Target{tree(w("src"))}, nil},
	{"Git_RestoreStaged", "git restore --staged x.go", nil, nil},
	{"Git_Rm", "git rm -r old/", []shellwrite.Target{tree(op("old", del))}, nil},
	{"Git_RmCached", "git rm --cached x.go", nil, nil},
	{"Git_Mv", "git mv a.go b.go", []shellwrite.Target{tree(op("a.go", move)), tree(w("b.go")), tree(w("b.go/a.go"))}, nil},
	{"Git_ResetHard", "git reset --hard HEAD", nil, []string{"git reset --hard"}},
	{"Git_ResetSoft", "git reset --soft HEAD~1; git reset -- x.go", nil, nil},
	{"Git_WholeTree", "git stash && git pull && git merge x && git rebase main && git cherry-pick abc && git switch dev",
		nil, []string{"git cherry-pick", "git merge", "git pull", "git rebase", "git stash", "git switch"}},
	{"Git_StashList", "git stash list", nil, nil},
	{"Git_Clean", "git clean -fd; git clean -n", nil, []string{"git clean"}},
	{"Git_CleanPaths", "git clean -f tmp/", []shellwrite.Target{tree(op("tmp", del))}, nil},
	{"Git_DirOption", "git -C sub checkout -- x.go", []shellwrite.Target{tree(in("sub", w("x.go")))}, nil},
	{"Git_ReadOnly", "git status && git diff HEAD && git log -p && git add . && git commit -m x && git show", nil, nil},
	{"Git_Alias", "git co main", nil, []string{"git co"}},
	{"Git_ApplyHeredoc", "git apply <<'EOF'\n" + gitDiff + "EOF", []shellwrite.Target{w("x.go")}, nil},
	{"Git_ApplyStdinDash", "cat <<'EOF' | git apply -\n" + gitDiff + "EOF", []shellwrite.Target{w("x.go")}, nil},
	{"Git_ApplyHereString", "git apply <<< \"" + strings.ReplaceAll(gitDiff, "\n", "\n") + "\"", []shellwrite.Target{w("x.go")}, nil},
	{"Git_ApplyEcho", "echo '" + gitDiff + "' | git apply", []shellwrite.Target{w("x.go")}, nil},
	{"Git_ApplyAddDeleteRename", "git apply <<'EOF'\n" +
		"diff --git a/new.go b/new.go\nnew file mode 100644\n--- /dev/null\n+++ b/new.go\n@@ -0,0 +1 @@\n+x\n" +
		"diff --git a/gone.go b/gone.go\ndeleted file mode 100644\n--- a/gone.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n" +
		"diff --git a/old.go b/moved.go\nsimilarity index 100%\nrename from old.go\nrename to moved.go\n" +
		"diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n" +
		"EOF", []shellwrite.Target{op("gone.go", del), w("moved.go"), op("new.go", create), op("old.go", move), op("run.sh", mode)}, nil},
	{"Git_ApplyStrip", "git apply -p2 --directory=pkg <<'EOF'\n--- a/src/x.go\n+++ b/src/x.go\n@@ -1 +1 @@\n-a\n+b\nEOF",
		[]shellwrite.Target{w("pkg/x.go")}, nil},
	{"Git_ApplyHunkLooksLikeHeader", "git apply <<'EOF'\n--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,2 @@\n--- comment\n+++ added\n x\nEOF",
		[]shellwrite.Target{w("q.sql")}, nil},
	{"Git_ApplyFile", "git apply fix.patch", nil, []string{"git apply fix.patch"}},
	{"Git_ApplyRedirectedFile", "git apply < fix.patch", nil, []string{"git apply < fix.patch"}},
	{"Git_ApplyCheck", "git apply --check <<'EOF'\n" + gitDiff + "EOF", nil, nil},
	{"Git_ApplyVariableInHeader", "git apply <<EOF\n--- a/$F\n+++ b/$F\n@@ -1 +1 @@\n-a\n+b\nEOF", nil, []string{"git apply (stdin)"}},
	{"Git_ApplyVariableInBody", "git apply <<EOF\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-$a\n+$b\nEOF", []shellwrite.Target{w("x.go")}, nil},
	{"Git_Am", "git am <<'EOF'\nFrom: a\nSubject: x\n\n---\n" + gitDiff + "EOF", []shellwrite.Target{w("x.go")}, nil},
	{"Git_AmContinue", "git am --continue", nil, []string{"git am"}},
	{"Git_Clone", "git clone https://example.com/team/repo.git && git clone git@host:a/b.git dest",
		[]shellwrite.Target{tree(op("dest", create)), tree(op("repo", create))}, nil},

	// patch.
	{"Patch_Heredoc", "patch -p1 <<'EOF'\n--- a/src/x.go\n+++ b/src/x.go\n@@ -1 +1 @@\n-a\n+b\nEOF", []shellwrite.Target{w("src/x.go")}, nil},
	{"Patch_OldAndNewNames", "patch -p0 <<'EOF'\n--- x.go.orig\n+++ x.go\n@@ -1 +1 @@\n-a\n+b\nEOF", []shellwrite.Target{w("x.go"), w("x.go.orig")}, nil},
	{"Patch_NoStripIsBaseName", "patch <<'EOF'\n--- src/x.go\t2024-01-01\n+++ src/x.go\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\nEOF", []shellwrite.Target{w("x.go")}, nil},
	{"Patch_Directory", "patch -d sub -p1 <<'EOF'\n" + gitDiff + "EOF", []shellwrite.Target{in("sub", w("x.go"))}, nil},
	{"Patch_FileOpaque", "patch -p1 < fix.diff", nil, []string{"patch < fix.diff"}},
	{"Patch_InputOption", "patch -p1 -i fix.diff", nil, []string{"patch -i fix.diff"}},
	{"Patch_NamedOriginal", "patch main.go fix.diff", []shellwrite.Target{w("main.go")}, nil},
	{"Patch_DryRun", "patch --dry-run -p1 < fix.diff", nil, nil},
	{"Patch_NotADiff", "patch -p1 <<'EOF'\nhello\nEOF", nil, []string{"patch (stdin)"}},

	// apply_patch.
	{"ApplyPatch_Heredoc", "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Update File: b.go\n*** Move to: c.go\n@@\n-x\n+y\n*** Delete File: d.go\n*** End Patch\nEOF",
		[]shellwrite.Target{op("a.txt", create), op("b.go", move), w("c.go"), op("d.go", del)}, nil},
	{"ApplyPatch_Raw", "*** Begin Patch\n*** Update File: src/app.ts\n@@\n-a\n+b\n*** End Patch", []shellwrite.Target{w("src/app.ts")}, nil},
	{"ApplyPatch_Argument", "apply_patch '*** Begin Patch\n*** Add File: n.md\n+x\n*** End Patch'", []shellwrite.Target{op("n.md", create)}, nil},
	{"ApplyPatch_InBashInDir", "bash -lc \"cd web && apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: x.ts\n@@\n-a\n+b\n*** End Patch\nEOF\"",
		[]shellwrite.Target{in("web", w("x.ts"))}, nil},
	{"ApplyPatch_UnknownStdin", "apply_patch", nil, []string{"apply_patch (stdin)"}},

	// Shells running a command string, a script, or their input.
	{"ShellC_Recursive", "sh -c 'echo x > a.txt'", []shellwrite.Target{w("a.txt")}, nil},
	{"ShellC_Options", "bash -euo pipefail -c 'rm -f x'", []shellwrite.Target{op("x", del)}, nil},
	{"ShellC_Nested", `bash -c "sh -c 'rm nested'"`, []shellwrite.Target{op("nested", del)}, nil},
	{"ShellC_TooDeep", nestedShells(9, "rm deep"), nil, []string{"sh -c (nested too deeply)"}},
	{"ShellC_DirDoesNotLeak", "cd a && sh -c 'cd b && touch x' && touch y",
		[]shellwrite.Target{in("a", op("y", create)), in("a/b", op("x", create))}, nil},
	{"ShellC_Variable", `bash -c "$CMD"`, nil, []string{`bash -c "$CMD"`}},
	{"ShellC_DoesNotParse", `sh -c 'echo "'`, nil, []string{"sh -c (does not parse)"}},
	{"Shell_Script", "bash build.sh", nil, []string{"bash build.sh"}},
	{"Shell_StdinHeredoc", "bash <<'EOF'\nrm gone.txt\nEOF", []shellwrite.Target{op("gone.txt", del)}, nil},
	{"Shell_PipedScript", "cat <<'EOF' | bash\nrm y\nEOF", []shellwrite.Target{op("y", del)}, nil},
	{"Shell_StdinUnknown", "curl -s https://x | sh", nil, []string{"sh (stdin)"}},
	{"Script_Relative", "./configure && bin/gen", nil, []string{"./configure", "bin/gen"}},
	{"Eval_Static", `eval "rm x"`, []shellwrite.Target{op("x", del)}, nil},
	{"Eval_DirLeaks", `eval "cd sub" && touch x`, []shellwrite.Target{in("sub", op("x", create))}, nil},
	{"Eval_Variable", "eval $CMD", nil, []string{"eval $CMD"}},
	{"Source_Opaque", "source env.sh && . ./other.sh", nil, []string{". ./other.sh", "source env.sh"}},
	{"Trap_Command", "trap 'rm -f lock' EXIT", []shellwrite.Target{op("lock", del)}, nil},

	// Interpreters, build tools and other commands whose writes are not known.
	{"Interpreter_Inline", "python -c 'open(\"x\", \"w\")'; node -e 'x'; python3 -m pytest", nil,
		[]string{"node -e", "python -c", "python3 -m pytest"}},
	{"Interpreter_Script", "python3 tools/gen.py", nil, []string{"python3 tools/gen.py"}},
	{"BuildTool_Opaque", "make && npm install && go test ./...", nil, []string{"go test", "make", "npm install"}},
	{"Xargs_Opaque", "ls | xargs rm", nil, []string{"xargs"}},
	{"Command_Variable", "$EDITOR x", nil, []string{"$EDITOR"}},

	// Wrappers run the command they wrap.
	{"Wrapper_Env", "env -i FOO=1 BAR=2 rm x", []shellwrite.Target{op("x", del)}, nil},
	{"Wrapper_EnvChdir", "env -C sub touch x", []shellwrite.Target{in("sub", op("x", create))}, nil},
	{"Wrapper_Sudo", "sudo -u root rm -rf /opt/x", []shellwrite.Target{tree(op("/opt/x", del))}, nil},
	{"Wrapper_SudoEdit", "sudo -e /etc/hosts", []shellwrite.Target{w("/etc/hosts")}, nil},
	{"Wrapper_Chain", "nohup nice -n 10 timeout -s KILL 5 command time -p rm x", []shellwrite.Target{op("x", del)}, nil},
	{"Wrapper_Exec", "exec > log.txt 2>&1; exec rm y", []shellwrite.Target{w("log.txt"), op("y", del)}, nil},
	{"Wrapper_AbsolutePath", "/usr/bin/env /bin/rm z", []shellwrite.Target{op("z", del)}, nil},
	{"Wrapper_Assignment", "LC_ALL=C sed -i s/a/b/ f", []shellwrite.Target{w("f")}, nil},
	{"Wrapper_CommandV", "command -v rm", nil, nil},

	// cd and pushd give later targets their directory.
	{"Cd_And", "cd sub && echo x > a", []shellwrite.Target{in("sub", w("a"))}, nil},
	{"Cd_Semicolon", "cd sub; rm a", []shellwrite.Target{in("sub", op("a", del))}, nil},
	{"Cd_Joined", "cd a && cd b/c && touch d", []shellwrite.Target{in("a/b/c", op("d", create))}, nil},
	{"Cd_Parent", "cd .. && touch x", []shellwrite.Target{in("..", op("x", create))}, nil},
	{"Cd_SubshellDoesNotLeak", "(cd sub; touch a); touch b", []shellwrite.Target{op("b", create), in("sub", op("a", create))}, nil},
	{"Cd_PipelineDoesNotLeak", "cd sub | true; touch b", []shellwrite.Target{op("b", create)}, nil},
	{"Cd_Absolute", "cd /tmp && touch x && touch /etc/y", []shellwrite.Target{op("/etc/y", create), op("/tmp/x", create)}, nil},
	{"Cd_Home", "cd ~/proj && touch x; cd && touch y", []shellwrite.Target{op("~/proj/x", create), op("~/y", create)}, nil},
	{"Cd_Variable", "cd $D && touch x && touch /abs", []shellwrite.Target{op("/abs", create)}, []string{"cd $D"}},
	{"Cd_Dash", "cd - && touch x", nil, []string{"cd -"}},
	{"Cd_Pushd", "pushd sub && touch a && popd && touch b", []shellwrite.Target{op("b", create), in("sub", op("a", create))}, nil},
	{"Cd_Block", "{ cd sub; }; touch a", []shellwrite.Target{in("sub", op("a", create))}, nil},

	// Reads never count.
	{"Read_Commands", "cat f; grep -r x .; ls -la; head -n 3 f | tail -1; wc -l < f; jq . f.json; diff a b", nil, nil},
	{"Read_Git", "git diff && git status --short && git log --oneline", nil, nil},

	// One target, once.
	{"Dedupe_StrongestOp", "echo > a; echo >> a; rm a; echo > a", []shellwrite.Target{op("a", del)}, nil},
}

// nestedShells returns n sh -c nested in one another around cmd.
func nestedShells(n int, cmd string) string {
	for range n {
		cmd = "sh -c " + shellQuote(cmd)
	}
	return cmd
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func TestAnalyze(t *testing.T) {
	for _, tt := range analyzeCases {
		t.Run(tt.name, func(t *testing.T) {
			got := shellwrite.Analyze(tt.cmd)
			if got.Err != nil {
				t.Fatalf("Analyze(%q): got error %v, want none", tt.cmd, got.Err)
			}
			if !slices.Equal(got.Writes, tt.writes) {
				t.Errorf("Analyze(%q).Writes:\ngot  %s\nwant %s", tt.cmd, formatTargets(got.Writes), formatTargets(tt.writes))
			}
			if !slices.Equal(got.Opaque, tt.opaque) {
				t.Errorf("Analyze(%q).Opaque: got %q, want %q", tt.cmd, got.Opaque, tt.opaque)
			}
		})
	}
}

func TestAnalyze_Errors(t *testing.T) {
	tests := []struct {
		name string
		cmd  string
		want error // nil: any parse error
	}{
		{"DoesNotParse", `echo "unterminated`, nil},
		{"UnclosedHeredoc", "cat <<EOF\nno end", nil},
		{"TooLong", strings.Repeat("a", shellwrite.MaxLen+1), shellwrite.ErrTooLong},
		{"NestedTooDeeply", strings.Repeat("(", 2000) + "x" + strings.Repeat(")", 2000), shellwrite.ErrNested},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shellwrite.Analyze(tt.cmd)
			if got.Err == nil || (tt.want != nil && !errors.Is(got.Err, tt.want)) {
				t.Fatalf("got error %v, want %v", got.Err, tt.want)
			}
			if got.Writes != nil || got.Opaque != nil {
				t.Errorf("got writes %v and opaque %q with an error, want none", got.Writes, got.Opaque)
			}
		})
	}
}

// TestAnalyze_Bounds checks that a command line built to go deep or long
// gets an answer, the part beyond a bound opaque.
func TestAnalyze_Bounds(t *testing.T) {
	tests := []struct {
		name   string
		cmd    string
		writes []shellwrite.Target
		opaque []string
	}{
		{"NestedBlocks", strings.Repeat("{ ", 1100) + "rm x" + strings.Repeat("; }", 1100), nil, []string{"command nested too deeply"}},
		{"WrappedCommands", strings.Repeat("nohup ", 1100) + "rm x", nil, []string{"command nested too deeply"}},
		{"LongCdChain", strings.Repeat("cd abcdefgh && ", 500) + "touch x && touch /y",
			[]shellwrite.Target{op("/y", create)}, []string{"cd abcdefgh"}},
		{"DeepPushd", strings.Repeat("pushd a && ", 70) + "touch x", nil, []string{"pushd"}},
		{"NestedStringsTooLong", "eval eval '" + strings.Repeat("x", shellwrite.MaxLen/2) + "'", nil, []string{"eval (too long)"}},
		{"BraceSequenceHuge", "touch {1..9223372036854775807}", nil, []string{"touch {1..9223372036854775807}"}},
		{"BraceSequenceWhole", "touch {-9223372036854775808..9223372036854775807}", nil,
			[]string{"touch {-9223372036854775808..9223372036854775807}"}},
		{"BraceProductHuge", "touch {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", nil, []string{"touch {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shellwrite.Analyze(tt.cmd)
			if got.Err != nil {
				t.Fatalf("got error %v, want none", got.Err)
			}
			if !slices.Equal(got.Writes, tt.writes) {
				t.Errorf("got writes %s, want %s", formatTargets(got.Writes), formatTargets(tt.writes))
			}
			if !slices.Equal(got.Opaque, tt.opaque) {
				t.Errorf("got opaque %q, want %q", got.Opaque, tt.opaque)
			}
		})
	}
}

func TestPatchFiles(t *testing.T) {
	body := "*** Begin Patch\n*** Update File: b.go\n@@\n-*** Add File: not-a-header\n+x\n*** Add File:  a.md \n+# A\n" +
		"*** Update File: b.go\n*** Move to: c/d.go\n*** Delete File: e.txt\r\n*** End of File\n*** End Patch\n"
	want := []string{"a.md", "b.go", "c/d.go", "e.txt"}
	if got := shellwrite.PatchFiles(body); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := shellwrite.PatchFiles("no patch here"); got != nil {
		t.Errorf("got %q for a text that is no patch, want none", got)
	}
}

func formatTargets(ts []shellwrite.Target) string {
	var b strings.Builder
	b.WriteString("[")
	for i, t := range ts {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "{%q dir=%q %s", t.Path, t.Dir, t.Op)
		if t.Glob {
			b.WriteString(" glob")
		}
		if t.Tree {
			b.WriteString(" tree")
		}
		b.WriteString("}")
	}
	b.WriteString("]")
	return b.String()
}
