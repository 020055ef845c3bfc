package content

// Namespace is a namespace of public paths: rules and workflows share one,
// context has its own, and the meta prompt is alone in its own. Ids and
// paths are unique within a namespace.
type Namespace string

// The namespaces, in the order listings use: the meta prompt, then rules
// and workflows, then context (the order of Scan).
const (
	NSMPF     Namespace = "mpf"
	NSRule    Namespace = "rule"
	NSContext Namespace = "context"
)

// NamespaceOf returns the namespace of a kind, and "" for an unknown kind.
func NamespaceOf(k Kind) Namespace {
	switch k {
	case KindRule, KindWorkflow:
		return NSRule
	case KindContext:
		return NSContext
	case KindMPF:
		return NSMPF
	}
	return ""
}

// Rank orders namespaces in listings: the meta prompt, rules and
// workflows, context, then anything else.
func (ns Namespace) Rank() int {
	switch ns {
	case NSMPF:
		return 0
	case NSRule:
		return 1
	case NSContext:
		return 2
	}
	return 3
}
