package live

// slots bounds the number of concurrent streams: a buffered channel with
// one element per stream being served.
type slots chan struct{}

func newSlots(n int) slots { return make(slots, n) }

// take claims a slot without waiting and reports whether it got one.
func (s slots) take() bool {
	select {
	case s <- struct{}{}:
		return true
	default:
		return false
	}
}

// give frees a slot claimed by take.
func (s slots) give() { <-s }
