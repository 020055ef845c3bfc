// Package workspace owns what a clumsies workspace is on disk: finding it
// (like git finds .git), its config.toml, its state folder, and creating a
// new one with starter content. It imports the standard library, events (for
// workspace ids) and a TOML decoder; nothing that runs.
package workspace
