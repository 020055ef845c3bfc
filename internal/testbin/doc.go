// Package testbin builds the clumsies binary for end-to-end tests and
// runs them to completion, so that every test package that drives the
// built binaries over real pipes does it the same way. It is for tests
// only.
package testbin
