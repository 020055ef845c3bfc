// Package browser starts the headless Chromium that the dashboard's tests
// and `make screenshots` drive with chromedp: Debian's chromium, with the
// flags that keep it off the network, a fresh profile, and every console
// error and uncaught exception collected.
package browser
