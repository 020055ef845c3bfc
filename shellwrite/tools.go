package shellwrite

import (
	"strings"
)

// download reads curl and wget: the files they save (-o, -O FILE) and
// their logs; where curl -O and wget without -O save is not known.
func (c *call) download() {
	if c.name == "wget" {
		c.wget()
		return
	}
	o := options{short: "abcdeEFHKmorTuUwxXyYzCDPQtA", long: []string{
		"output", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "etag-save",
		"hsts", "alt-svc", "libcurl", "output-dir", "data", "data-binary", "data-raw",
		"header", "request", "user", "user-agent", "url", "form", "cookie", "config",
		"max-time", "connect-timeout", "proxy", "referer", "upload-file", "write-out"}}
	opts, _ := o.parse(c.args)
	if has(opts, "O", "remote-name", "remote-name-all", "J", "remote-header-name", "output-dir") {
		c.opaque("curl -O")
	}
	for _, op := range opts {
		switch op.name {
		case "o", "output", "D", "dump-header", "c", "cookie-jar", "trace", "trace-ascii",
			"stderr", "etag-save", "hsts", "alt-svc", "libcurl":
			if !op.value.static || op.value.lit != "-" {
				c.write(op.value, OpWrite, false)
			}
		}
	}
}

func (c *call) wget() {
	o := options{short: "aABDeiIlOoPQRtTUwX", long: []string{
		"output-document", "output-file", "append-output", "directory-prefix", "input-file",
		"tries", "timeout", "wait", "user-agent", "header", "post-data", "user", "password"}}
	opts, _ := o.parse(c.args)
	docs := values(opts, "O", "output-document")
	if len(docs) == 0 || has(opts, "P", "directory-prefix", "r", "recursive", "m", "mirror", "i", "input-file") {
		c.opaque("wget")
	}
	for _, d := range docs {
		if !d.static || d.lit != "-" {
			c.write(d, OpWrite, false)
		}
	}
	c.writeAll(values(opts, "o", "output-file"), OpWrite, false)
	c.writeAll(values(opts, "a", "append-output"), OpAppend, false)
}

// tar reads tar: creating an archive writes it; extracting writes what
// the archive holds, which is not known.
func (c *call) tar() {
	args := c.args
	var modes string
	var archive []field
	if len(args) > 0 && args[0].static && !strings.HasPrefix(args[0].lit, "-") {
		// The old style: tar czf out.tgz dir.
		modes = args[0].lit
		args = args[1:]
		if strings.Contains(modes, "f") && len(args) > 0 {
			archive = append(archive, args[0])
			args = args[1:]
		}
	}
	opts, _ := options{short: "fCbgHKLNTVX", long: []string{"file", "directory", "exclude",
		"files-from", "exclude-from", "transform", "format", "owner", "group", "mode", "to-command"}}.parse(args)
	for _, op := range opts {
		if len(op.name) == 1 {
			modes += op.name
		}
	}
	archive = append(archive, values(opts, "f", "file")...)
	switch {
	case strings.Contains(modes, "x") || has(opts, "extract", "get"):
		c.opaque("tar -x")
	case strings.ContainsAny(modes, "cruA") || has(opts, "create", "append", "update", "catenate", "concatenate"):
		for _, a := range archive {
			if !a.static || a.lit != "-" {
				c.write(a, OpWrite, false)
			}
		}
	}
}

// find reads find: -delete and -exec act on files not known before it
// runs; -fprint and the like write a file.
func (c *call) find() {
	for i, a := range c.args {
		if !a.static {
			continue
		}
		switch a.lit {
		case "-delete", "-exec", "-execdir", "-ok", "-okdir":
			c.opaque("find " + a.lit)
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(c.args) {
				c.write(c.args[i+1], OpWrite, false)
			}
		}
	}
}

// gofmt reads gofmt and goimports: with -w they rewrite their files, and
// the Go files under their directories.
func (c *call) gofmt() {
	write := false
	var operands []field
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		name, _, attached := strings.Cut(strings.TrimLeft(a.lit, "-"), "=")
		switch {
		case !strings.HasPrefix(a.lit, "-") || a.lit == "-":
			operands = append(operands, a)
		case name == "w":
			write = !attached || a.lit[strings.IndexByte(a.lit, '=')+1:] != "false"
		case !attached && (name == "r" || name == "local" || name == "cpuprofile" || name == "srcdir"):
			i++
		}
	}
	if !write {
		return
	}
	for _, f := range operands {
		c.write(f, OpWrite, !strings.HasSuffix(f.lit, ".go"))
	}
}
