// Reads a polling endpoint's messages and verifies each one
// with the official Standard Webhooks library.
//
//	go get github.com/standard-webhooks/standard-webhooks/libraries/go
package main

import (
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

type page struct {
	Data []struct {
		ID        string            `json:"id"`
		EventType string            `json:"event_type"`
		Body      string            `json:"body"` // the exact text the signature covers
		Headers   map[string]string `json:"headers"`
	} `json:"data"`
	Cursor string `json:"cursor"`
}

func main() {
	// This endpoint's signing secret. In production, read it from your secret store.
	webhook, err := standardwebhooks.NewWebhook("{{SECRET}}")
	if err != nil {
		log.Fatal(err)
	}
	// A poll token of this endpoint (ept_…), shown once when it was made.
	token := os.Getenv("POLL_TOKEN")
	pollURL := "{{POLL_URL}}"

	// Where the last page ended. In production: stored with what you processed,
	// and read back when the reader starts again.
	cursor := ""
	// The id of every message already taken: a page read again after a crash
	// gives them again. In production: a table with a unique key on the id.
	processed := map[string]bool{}
	// Longer than the 30 s a poll waits for the next message when there is none.
	client := &http.Client{Timeout: 60 * time.Second}

	for {
		query := url.Values{"limit": {"100"}}
		if cursor != "" {
			query.Set("cursor", cursor)
		}
		req, _ := http.NewRequest(http.MethodGet, pollURL+"?"+query.Encode(), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := client.Do(req)
		if err != nil {
			log.Printf("poll failed: %v", err)
			time.Sleep(5 * time.Second)
			continue
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == http.StatusGone {
			// The cursor is older than the messages kept: start again from the oldest.
			cursor = ""
			continue
		}
		if res.StatusCode != http.StatusOK {
			log.Printf("poll failed: %d %s", res.StatusCode, body)
			time.Sleep(5 * time.Second)
			continue
		}
		var p page
		if err := json.Unmarshal(body, &p); err != nil {
			log.Fatal(err)
		}
		for _, message := range p.Data {
			headers := http.Header{}
			for name, value := range message.Headers {
				headers.Set(name, value)
			}
			if err := webhook.Verify([]byte(message.Body), headers); err != nil {
				log.Printf("%s: refused: %v", message.ID, err)
				continue
			}
			if processed[message.ID] {
				continue
			}
			processed[message.ID] = true
			log.Printf("%s: processed %s %s", message.ID, message.EventType, message.Body)
		}
		cursor = p.Cursor
	}
}
