package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/views/web"
)

// HubCommand dispatches `clumsies hub <subcommand>`.
type HubCommand struct{ m *Main }

// Run implements command.
func (c *HubCommand) Run(ctx context.Context, args []string) error {
	cmds := map[string]command{
		"init":    &HubInitCommand{m: c.m},
		"serve":   &HubServeCommand{m: c.m},
		"rebuild": &HubRebuildCommand{m: c.m},
		"invite":  &HubInviteCommand{m: c.m},
		"join":    &HubJoinCommand{m: c.m},
		"status":  &HubStatusCommand{m: c.m},
		"nodes":   &HubNodesCommand{m: c.m},
		"revoke":  &HubRevokeCommand{m: c.m},
		"token":   &HubTokenCommand{m: c.m},
		"stats":   &HubStatsCommand{m: c.m},
		"verify":  &HubVerifyCommand{m: c.m},
		"catalog": &HubCatalogCommand{m: c.m},
		"review":  &HubReviewCommand{m: c.m},
		"ui":      &HubUICommand{m: c.m},
	}
	if len(args) == 0 || isHelp(args[0]) {
		w := c.m.Stderr
		if len(args) > 0 {
			w = c.m.Stdout
		}
		c.usage(w)
		if len(args) == 0 {
			return errSilent{2}
		}
		return nil
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		c.usage(c.m.Stderr)
		return fmt.Errorf("%w: unknown hub command %q", errUsage, args[0])
	}
	return cmd.Run(ctx, args[1:])
}

func (c *HubCommand) usage(w io.Writer) {
	fmt.Fprint(w, `Usage: clumsies hub <command> [flags]

On the hub's machine:
  init [DIR]      write DIR/hub.toml and an admin token
  serve           run the hub: NATS with JetStream, leaf listener, aggregate, stats API and dashboard
  rebuild         (hub stopped) apply the aggregate again into new read models

Admin (with --hub DIR, or --url URL and --token):
  invite          print a one-time join token for a workspace (--workspace ws-... --team T [--member M]),
                  or one per row of a CSV file (--from FILE: workspace,team[,member])
  ui              print the address that opens the team's dashboard in a browser, with a token (--json)
  nodes           list the joined nodes and their links (--json)
  revoke NODE     revoke a node: its link is refused from then on
  token           make a member token that reads the stats and catalogs of some teams (--name N --team T [--reviewer])
  stats           usage per rule, constraint, member and day (--period, --days or --since/--until, --workspace, --rule, --team, --member, --json)
  verify          per node: do its checkpoints match what the hub received of its ledger (--node N, --json)
  catalog push DIR --team T    load or update a team's catalog from a content tree (--json)
  catalog show [ID] --team T   the team's catalog, or one object with its body (--json)
  catalog history ID --team T  the revisions of one team object (--json)
  review list [--team T] [--all]   drafts submitted to the team catalogs, in review (--json)
  review show ID                   one submitted draft with its body (--json)
  review accept ID                 write it into the catalog if its object is still at the draft's base (--json)
  review decline ID --reason R     decline it (--json)

In a workspace:
  join TOKEN      join this clone to a hub (the owner dials it from its next start)
  status          the link: up or down, and how far the hub has caught up (--json)
`)
}

// parsePositional parses args with flags and positional arguments in any
// order, and refuses more than maxArgs positional arguments.
func parsePositional(fs *flag.FlagSet, args []string, maxArgs int) ([]string, error) {
	if err := parseArgs(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > maxArgs {
		return nil, fmt.Errorf("%w: %s: unexpected argument %q (see clumsies %s -h)", errUsage, fs.Name(), fs.Arg(maxArgs), fs.Name())
	}
	for _, a := range fs.Args() {
		if strings.TrimSpace(a) == "" {
			return nil, fmt.Errorf("%w: %s: an empty argument; give what it names (see clumsies %s -h)", errUsage, fs.Name(), fs.Name())
		}
	}
	return fs.Args(), nil
}

// Environment variables of the hub commands.
const (
	hubURLEnv   = "CLUMSIES_HUB_URL"   // --url
	hubTokenEnv = "CLUMSIES_HUB_TOKEN" // --token, --token-file
)

// hubFlags say which hub an admin command talks to: the hub folder on
// this machine (its hub.toml and admin token), or a URL and a token.
type hubFlags struct {
	dir, url, token, tokenFile string
	stderr                     io.Writer
}

func (f *hubFlags) register(fs *flag.FlagSet) {
	f.stderr = fs.Output()
	fs.StringVar(&f.dir, "hub", "", "the hub's folder `DIR` on this machine (reads its hub.toml and admin token); default: the current folder if it holds hub.toml")
	fs.StringVar(&f.url, "url", "", "the hub's API `URL` (default: $"+hubURLEnv+")")
	fs.StringVar(&f.token, "token", "", "the admin or member `token`; every local user sees it in the process list: prefer --token-file or $"+hubTokenEnv)
	fs.StringVar(&f.tokenFile, "token-file", "", "read the admin or member token from the file at `PATH`")
}

// client returns an API client of the hub the flags name.
func (f *hubFlags) client() (*hubwire.Client, error) {
	url, token, err := f.resolve()
	if err != nil {
		return nil, err
	}
	return hubwire.NewClient(url, token), nil
}

// resolve returns the API URL and the token of the hub the flags name.
func (f *hubFlags) resolve() (url, token string, err error) {
	url, token = f.url, f.token
	if url == "" {
		url = os.Getenv(hubURLEnv)
	}
	switch {
	case token != "" && f.tokenFile != "":
		return "", "", fmt.Errorf("%w: give one of --token and --token-file", errUsage)
	case token != "":
		warnTokenInArgs(f.stderr, hubTokenEnv)
	case f.tokenFile != "":
		if token, err = web.ReadTokenFile(f.tokenFile); err != nil {
			return "", "", fmt.Errorf("%w: --token-file: %v", errUsage, err)
		}
	default:
		token = os.Getenv(hubTokenEnv)
	}
	dir := f.dir
	if dir == "" && url == "" && hubFolderHere() {
		dir = "."
	}
	if dir != "" {
		dirURL, dirToken, err := hubFolderAPI(dir, token == "")
		if err != nil {
			return "", "", err
		}
		if url == "" {
			url = dirURL
		}
		if token == "" {
			token = dirToken
		}
	}
	if url == "" {
		return "", "", fmt.Errorf("%w: which hub? give --hub DIR (the hub's folder) or --url URL with --token", errUsage)
	}
	return url, token, nil
}

// printJSON prints v indented.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
