package shellwrite

import (
	"slices"
	"strings"
)

// options tells how a command's options are written.
type options struct {
	short string   // the letters of the short options that take a value: "tS"
	long  []string // the long options that take a value, without "--"
	// first is set for a command whose options end at its first operand,
	// as a wrapper's do (sudo -u x rm -f y): the rest are operands.
	first bool
}

// opt is one option found among a command's arguments.
type opt struct {
	name  string // the letter, or the long name without "--"
	value field  // the value of an option that takes one, or of --name=value
}

// parse splits args into options and operands, GNU style: options may
// come after operands until "--", short ones bundle (-rf), and a value is
// attached (-tDIR, --name=value) or the next argument. A word not known
// before the command runs is an option when the start of it that is
// known makes one.
func (o options) parse(args []field) (opts []opt, operands []field) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.static && a.lit == "--":
			return opts, appendRest(operands, args[i+1:])
		case strings.HasPrefix(a.lit, "--"):
			name, _, attached := strings.Cut(a.lit[2:], "=")
			op := opt{name: name}
			if attached {
				op.value = a.cut(len("--" + name + "="))
			} else if slices.Contains(o.long, name) && i+1 < len(args) {
				i++
				op.value = args[i]
			}
			opts = append(opts, op)
		case strings.HasPrefix(a.lit, "-") && (len(a.lit) > 1 || !a.static):
			var next bool
			opts, next = o.bundle(opts, a, i+1 < len(args))
			if next {
				i++
				opts[len(opts)-1].value = args[i]
			}
		case o.first:
			return opts, appendRest(operands, args[i:])
		default:
			operands = append(operands, a)
		}
	}
	return opts, operands
}

// appendRest returns operands followed by rest, without copying rest
// when there are no operands before it.
func appendRest(operands, rest []field) []field {
	if len(operands) == 0 {
		return rest
	}
	return append(operands, rest...)
}

// bundle adds the short options of a (-rf, -tDIR) to opts. It returns
// true when the last one takes its value from the next argument.
func (o options) bundle(opts []opt, a field, hasNext bool) ([]opt, bool) {
	for j := 1; j < len(a.lit); j++ {
		c := a.lit[j]
		op := opt{name: string(c)}
		if strings.IndexByte(o.short, c) < 0 {
			opts = append(opts, op)
			continue
		}
		if j+1 < len(a.lit) || !a.static {
			op.value = a.cut(j + 1)
			return append(opts, op), false
		}
		return append(opts, op), hasNext
	}
	return opts, false
}

// has tells whether one of the options names is among opts.
func has(opts []opt, names ...string) bool {
	for _, o := range opts {
		if slices.Contains(names, o.name) {
			return true
		}
	}
	return false
}

// values returns the values of the options names, in order.
func values(opts []opt, names ...string) []field {
	var out []field
	for _, o := range opts {
		if slices.Contains(names, o.name) {
			out = append(out, o.value)
		}
	}
	return out
}
