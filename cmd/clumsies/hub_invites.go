package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// maxInviteRows is the most rows one --from file may hold: the nodes a
// hub takes (hub.MaxNodes).
const maxInviteRows = 20000

// inviteRow is one row of a --from file: the invite it asks for, and the
// line it was read from, for errors.
type inviteRow struct {
	line int
	req  hubwire.InviteRequest
}

// madeInvite is one made token, as --from prints it.
type madeInvite struct {
	WorkspaceID string `json:"workspaceId"`
	Team        string `json:"team"`
	Member      string `json:"member,omitempty"`
	Token       string `json:"token"`
}

// readInviteRows reads the rows of a --from file: CSV with the columns
// workspace, team and (optional) member; an optional header row whose
// first field is "workspace"; blank lines and lines starting with # are
// skipped. Every row is checked before any token is made: one bad row
// refuses the whole file, with every bad row's line (up to 10).
func readInviteRows(r io.Reader, name string) ([]inviteRow, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	var rows []inviteRow
	var bad []string
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v; want CSV rows workspace,team[,member]", errUsage, name, err)
		}
		line, _ := cr.FieldPos(0)
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		if len(rows) == 0 && len(bad) == 0 && strings.EqualFold(strings.TrimPrefix(strings.ToLower(rec[0]), "\ufeff"), "workspace") {
			continue // the header
		}
		if problem := checkInviteRow(rec); problem != "" {
			bad = append(bad, fmt.Sprintf("line %d: %s", line, problem))
			continue
		}
		row := inviteRow{line: line, req: hubwire.InviteRequest{WorkspaceID: rec[0], Team: rec[1]}}
		if len(rec) == 3 {
			row.req.Member = rec[2]
		}
		rows = append(rows, row)
		if len(rows) > maxInviteRows {
			return nil, fmt.Errorf("%w: %s: more than %d rows, the nodes a hub takes; split the file", errUsage, name, maxInviteRows)
		}
	}
	if n := len(bad); n > 0 {
		more := ""
		if n > 10 {
			more = fmt.Sprintf("\n  and %d more", n-10)
			bad = bad[:10]
		}
		return nil, fmt.Errorf("%w: %s: %d bad rows, no token made; fix them and run again:\n  %s%s", errUsage, name, n, strings.Join(bad, "\n  "), more)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: %s holds no row; want CSV rows workspace,team[,member], one per clone that joins", errUsage, name)
	}
	return rows, nil
}

// checkInviteRow returns what is wrong with a row's fields, or "".
func checkInviteRow(rec []string) string {
	switch {
	case len(rec) < 2 || len(rec) > 3:
		return fmt.Sprintf("want 2 or 3 fields (workspace,team[,member]), found %d", len(rec))
	case !events.ValidWorkspaceID(rec[0]):
		return fmt.Sprintf("workspace %q is not a workspace id (ws-..., workspace_id in the clone's .clumsies/config.toml)", rec[0])
	case !hubwire.ValidName(rec[1]):
		return fmt.Sprintf("team %q: use letters, digits, '-' and '_'", rec[1])
	case len(rec) == 3 && rec[2] != "" && !hubwire.ValidName(rec[2]):
		return fmt.Sprintf("member %q: use letters, digits, '-' and '_'", rec[2])
	}
	return ""
}

// openInviteFile opens the --from file, - for stdin.
func openInviteFile(path string, stdin io.Reader) (io.Reader, func(), error) {
	if path == "-" {
		return stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: read the invites: %v", errUsage, err)
	}
	return f, func() { f.Close() }, nil
}

// inviteAll makes a token for each row, in order, and returns those made.
// It stops at the first row the hub refuses or cannot answer: the tokens
// made before it are returned with an error that names the rows left.
func inviteAll(ctx context.Context, cl *hubwire.Client, rows []inviteRow, name string) ([]madeInvite, error) {
	made := make([]madeInvite, 0, len(rows))
	for i, r := range rows {
		token, err := cl.Invite(ctx, r.req)
		if err != nil {
			return made, fmt.Errorf("%s line %d: %w\n%d of %d tokens made (printed); the row of line %d and the %d after it have none: run again with those rows",
				name, r.line, err, i, len(rows), r.line, len(rows)-i-1)
		}
		made = append(made, madeInvite{WorkspaceID: r.req.WorkspaceID, Team: r.req.Team, Member: r.req.Member, Token: token})
	}
	return made, nil
}

// printInvites prints the made tokens as CSV (workspace, team, member,
// token, with a header), or as JSON.
func printInvites(w io.Writer, made []madeInvite, asJSON bool) error {
	if asJSON {
		return printJSON(w, made)
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"workspace", "team", "member", "token"})
	for _, m := range made {
		cw.Write([]string{m.WorkspaceID, m.Team, m.Member, m.Token})
	}
	cw.Flush()
	return cw.Error()
}
