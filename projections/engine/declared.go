package engine

// Declared returns the union of what the models that implement D declare
// through declare, such as the event types whose payloads they read: a
// store's decoder, which defines D, derives what to decode from its
// registered models with Declared(r.Models(), D.Method). Models that do
// not implement D declare nothing.
func Declared[T any, D any, K comparable](models []Model[T], declare func(D) []K) map[K]bool {
	out := make(map[K]bool)
	for _, m := range models {
		if d, ok := m.(D); ok {
			for _, k := range declare(d) {
				out[k] = true
			}
		}
	}
	return out
}
