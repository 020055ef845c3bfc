// Package catalog owns publishing: it compares the content tree on disk with
// the published manifest and plans the catalog.publish and catalog.remove
// events that bring the manifest in line. It imports events, content and the
// standard library; it reads nothing but what it is given.
package catalog
