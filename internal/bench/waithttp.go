package main

import (
	"fmt"
	"net/http"
	"time"
)

// waitHTTP waits until url answers.
func waitHTTP(url string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s does not answer: %w", url, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
