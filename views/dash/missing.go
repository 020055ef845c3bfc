package dash

import "fmt"

// missing says why the rule or session req asks for is not there, and
// what to run next.
func missing(req Request) string {
	switch req.Page {
	case PageRule:
		return fmt.Sprintf("%s is not published: it was removed from .clumsies/ or never published. "+
			"The Rules page lists what is published; to bring a file back, put it under .clumsies/rules/ and run `clumsies publish` "+
			"(a running `clumsies serve` publishes it by itself).", req.ID)
	case PageSession:
		return fmt.Sprintf("no session %s in this workspace's ledger: the Sessions page lists those it has; "+
			"a session appears once its agent calls memsetup (wire a host with `clumsies adapt HOST`).", req.ID)
	}
	return fmt.Sprintf("%s %s: not found", req.Page, req.ID)
}
