package attest

import (
	"fmt"
	"io"
	"strings"
)

// Markdown writes r as the summary a CI system posts on a pull request:
// a verdict, then one table row per file (who wrote it, the session, the
// rules in scope, whether each was loaded, the constraints referenced),
// then the problems.
func Markdown(w io.Writer, r Result) error {
	var b strings.Builder
	verdict := "passes"
	if !r.OK {
		verdict = fmt.Sprintf("fails: %d problems", r.Problems+r.Findings)
	}
	fmt.Fprintf(&b, "### clumsies check %s..%s: %s\n\n", short(r.Base), short(r.Head), verdict)
	fmt.Fprintf(&b, "Evidence from the %s; the workspace's gate is `%s`.\n\n", r.Source, r.Enforce)
	b.WriteString("| file | by | session | rules in scope | loaded | referenced |\n|---|---|---|---|---|---|\n")
	for _, f := range r.Files {
		var sess, rules, loaded, refs []string
		for _, s := range f.Sessions {
			sess = append(sess, strings.Join(strings.Fields(s.Host+" "+s.Model+" `"+s.ID+"`"), " "))
		}
		for _, ru := range f.Rules {
			rules = append(rules, "`"+ru.ID+"`")
			loaded = append(loaded, yesNo(ru.Loaded))
			refs = append(refs, orWord(strings.Join(ru.Referenced, " "), "none"))
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", cell(f.Path), f.By, dash(sess), dash(rules), dash(loaded), dash(refs))
	}
	var problems []string
	for _, f := range r.Files {
		for _, p := range f.Problems {
			problems = append(problems, fmt.Sprintf("- `%s`: %s", cell(f.Path), p))
		}
		for _, fd := range f.Findings {
			problems = append(problems, fmt.Sprintf("- `%s:%d`: %s (%s)", cell(f.Path), fd.Line, fd.Message, fd.RuleID))
		}
		if f.Note != "" {
			problems = append(problems, fmt.Sprintf("- `%s` (note): %s", cell(f.Path), f.Note))
		}
	}
	if len(problems) > 0 {
		b.WriteString("\n" + strings.Join(problems, "\n") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

func dash(s []string) string {
	if len(s) == 0 {
		return "-"
	}
	return strings.Join(s, "<br>")
}

// cell keeps a path from breaking the table.
func cell(s string) string { return strings.NewReplacer("|", "\\|", "`", "'", "\n", " ").Replace(s) }
