package hub

// teams returns the teams of the registry's active nodes and of
// its invites not used yet, each once.
func (r *registry) teams() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	seen := map[string]bool{}
	add := func(team string) {
		if !seen[team] {
			seen[team] = true
			out = append(out, team)
		}
	}
	for _, n := range r.d.Nodes {
		if n.Active() {
			add(n.Team)
		}
	}
	for _, in := range r.d.Invites {
		if !in.Used {
			add(in.Team)
		}
	}
	return out
}

// inviteTeam returns the team of the invite whose hash is hash, if the
// registry holds it and it is not used yet.
func (r *registry) inviteTeam(hash string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i, ok := find(r.d.Invites, hash, hashOfInvite)
	if !ok || r.d.Invites[i].Used {
		return "", false
	}
	return r.d.Invites[i].Team, true
}
