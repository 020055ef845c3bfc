package main

// wsLabel is how the hub's commands show a workspace: its name beside
// its id, the id alone when the hub knows no name.
func wsLabel(id, name string) string {
	if name == "" {
		return id
	}
	return name + " (" + id + ")"
}
