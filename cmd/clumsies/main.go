// Command clumsies is the MCP server that brings a team's rules, workflows
// and context to coding agents and records which rules they applied, and
// its command line. `serve` answers an MCP client's initialize before the
// workspace opens, so that a host spawning it waits no longer than for a
// bare MCP server.
//
// This package is wiring and printing only: flags, config, one file per
// subcommand that wires the parts (node, hooks, stats, hublink, ...) and
// prints what they give, as text or --json (deps_test.go keeps the storage
// and messaging libraries out of it).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/workspace"
)

// Main runs one invocation of the command line. The end-to-end tests build
// the binary; Main keeps the wiring in one testable place.
type Main struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// stop ends the running command with a cause (stopWhenGone).
	stop context.CancelCauseFunc
}

// command is one subcommand.
type command interface {
	// Run parses args and runs the subcommand until it ends or ctx ends.
	Run(ctx context.Context, args []string) error
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	m := &Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	writeProfiles := startProfiles()
	err := m.Run(ctx, os.Args[1:])
	stop()
	writeProfiles()
	if err != nil {
		os.Exit(m.report(err))
	}
}

// errUsage marks a command-line mistake (exit status 2).
var errUsage = errors.New("usage")

// errSilent is an error whose message has already been printed.
type errSilent struct{ code int }

func (e errSilent) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// report prints err once and returns the exit status.
func (m *Main) report(err error) int {
	var silent errSilent
	switch {
	case errors.As(err, &silent):
		return silent.code
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintln(m.Stderr, "clumsies:", err)
		return 2
	}
	fmt.Fprintln(m.Stderr, "clumsies:", err)
	return 1
}

// Run dispatches args to a subcommand.
func (m *Main) Run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		m.usage(m.Stderr)
		return errSilent{2}
	}
	cmds := map[string]command{
		"init":    &InitCommand{m: m},
		"serve":   &ServeCommand{m: m},
		"demo":    &DemoCommand{m: m},
		"publish": &PublishCommand{m: m},
		"drafts":  &DraftsCommand{m: m},
		"events":  &EventsCommand{m: m},
		"stats":   &StatsCommand{m: m},
		"rebuild": &RebuildCommand{m: m},
		"verify":  &VerifyCommand{m: m},
		"attest":  &AttestCommand{m: m},
		"check":   &CheckCommand{m: m},
		"export":  &ExportCommand{m: m},
		"import":  &ImportCommand{m: m},
		"adapt":   &AdaptCommand{m: m},
		"doctor":  &DoctorCommand{m: m},
		"hook":    &HookCommand{m: m},
		"version": &VersionCommand{m: m},
		"hub":     &HubCommand{m: m},
		"ui":      &UICommand{m: m},
	}
	if isHelp(args[0]) {
		if len(args) > 1 {
			// `clumsies help stats` is `clumsies stats -h`.
			if _, ok := cmds[args[1]]; !ok {
				m.usage(m.Stderr)
				return fmt.Errorf("%w: help: unknown command %q", errUsage, args[1])
			}
			args = []string{args[1], "-h"}
		} else {
			m.usage(m.Stdout)
			return nil
		}
	}
	if args[0] == "--version" || args[0] == "-version" {
		args[0] = "version"
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		m.usage(m.Stderr)
		return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
	}
	ctx, m.stop = context.WithCancelCause(ctx)
	defer m.stop(nil)
	err := cmd.Run(ctx, args[1:])
	if cause := context.Cause(ctx); errors.Is(cause, workspace.ErrGone) {
		// The command ended because its workspace went (gone.go).
		return cause
	}
	return err
}

func (m *Main) usage(w io.Writer) {
	fmt.Fprint(w, `clumsies: your team's rules, workflows and context for coding agents, with a ledger of what they applied.

Usage: clumsies <command> [flags]

Commands:
  init [DIR]      create a workspace with a starter META_PROMPT and example rules
  serve           run the MCP server over stdio (for Claude Code, Codex, Cursor, VS Code) or HTTP
  demo            run a scripted agent session against a throw-away workspace
  publish         publish the content tree as catalog events (serve does it on start and on every edit)
  drafts ...      review the agents' drafts: list, show ID, diff ID, apply ID, decline ID --reason R
  events          print the ledger (--follow, --type T, --from SEQ)
  stats           usage per rule and constraint, sessions, tool metrics
  rebuild         drop the read models and replay the stream; prints a digest
  verify          check the ledger's hash chain, the read models against a replay and the content hashes
  attest [REV]    sign what the ledger says of commits (who wrote each file, the rules loaded) as in-toto attestations in git notes
  verify commit   check commits' attestations: signature, blob ids, ledger (verify commit REV --key PUBFILE)
  check BASE..HEAD  the CI policy on a change: agent-written files with their rules loaded; prints a Markdown summary
  export          write the ledger as compressed JSON lines to stdout (--since SEQ)
  import FILE     store an export into this workspace's empty ledger, checking its chain first
  adapt [HOST]    wire an agent host (`+strings.Join(adapt.Names(), ", ")+`) to this workspace
  doctor          check that each wired host's hooks run and gate, by probing them as the host does
  hook EVENT      what the hosts' hooks run (session-start, user-prompt, stop, pre-tool, post-tool); reads the host's JSON on stdin
  ui              serve the dashboard of the workspace in the browser (--addr, default 127.0.0.1:7334)
  hub ...         run and administer a hub; join it from a workspace ('clumsies hub' lists them)
  version         print the version and the commit it was built from

Every command that prints data prints JSON with --json. The workspace
commands (serve, ui, publish, drafts, events, stats, rebuild, verify, attest, check, adapt, doctor, hook)
take --workspace DIR (default: the nearest parent holding .clumsies/);
init takes the folder as DIR or --workspace DIR.
Run 'clumsies <command> -h' for its flags.
`)
}

// isHelp reports whether arg asks a command for its help.
func isHelp(arg string) bool {
	return arg == "help" || arg == "-h" || arg == "--help" || arg == "-help"
}

// newFlags returns a flag set that reports errors as usage errors and
// prints its flags the way they are typed: --name VALUE.
//
// Its errors name flags the way they are typed too ("--days", where the
// flag package writes "-days"), and its usage line names --log-level
// when the command takes it.
func (m *Main) newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(dashes{m.Stderr})
	fs.Usage = func() {
		line, rest, _ := strings.Cut(synopsis, "\n")
		if fs.Lookup("log-level") != nil && !strings.Contains(line, "--log-level") {
			line += " [--log-level L]"
		}
		if rest != "" {
			line += "\n" + rest
		}
		fmt.Fprintf(m.Stderr, "Usage: clumsies %s\n\nFlags:\n", line)
		printFlags(m.Stderr, fs)
	}
	return fs
}

// dashes is the output of a flag set: the flag package's error lines name
// a flag with one dash ("flag provided but not defined: -dayz"); they
// are written with two, as every flag is typed and documented.
type dashes struct{ w io.Writer }

// flagInMessage matches a flag named in one of the flag package's errors.
var flagInMessage = regexp.MustCompile(`(defined: |for flag |argument: |flag: )-([A-Za-z])`)

func (d dashes) Write(p []byte) (int, error) {
	if _, err := d.w.Write(flagInMessage.ReplaceAll(p, []byte("$1--$2"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// printFlags lists the flags of fs, one per entry: "--name VALUE", then
// the usage and the default when it is not the zero value.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		value, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if value != "" {
			line += " " + value
		}
		fmt.Fprintln(w, line)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "      %s\n", usage)
	})
}

// parse parses args and turns flag errors into usage errors. Arguments
// left after the flags are refused: a command that takes one parses with
// parseArgs.
func parse(fs *flag.FlagSet, args []string) error {
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return strayArgs(fs)
	}
	return nil
}

// parseArgs parses args with flags and positional arguments in any order
// (`import FILE --json` as `import --json FILE`), leaving the positional
// ones to the caller in fs.Args(). After "--" every argument is positional.
func parseArgs(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return errSilent{2}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	// Parsing "--" alone sets no flag and leaves pos as fs.Args().
	return fs.Parse(append([]string{"--"}, pos...))
}

// strayArgs is the error for arguments a command does not take. A folder
// given where --workspace was meant gets the flag suggested.
func strayArgs(fs *flag.FlagSet) error {
	first := fs.Arg(0)
	hint := ""
	if fs.Lookup("workspace") != nil {
		if fi, err := os.Stat(first); err == nil && fi.IsDir() {
			hint = fmt.Sprintf("; to use the workspace in %s, pass --workspace %s", first, first)
		}
	}
	return fmt.Errorf("%w: %s takes no arguments, got %q%s (see clumsies %s -h)", errUsage, fs.Name(), strings.Join(fs.Args(), " "), hint, fs.Name())
}
