package ui

import "net/http"

// shellPolicy is the Content-Security-Policy of the pages: this server's
// script and style only, and no framing by another page.
const shellPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"

// Hardened sets on every answer of next the headers that keep a browser
// from guessing content types (nosniff), from framing the pages
// (frame-ancestors 'none', for answers that set no policy of their own)
// and from sending the address, which may carry ?token=, to other sites
// (Referrer-Policy: no-referrer).
func Hardened(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "frame-ancestors 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}
