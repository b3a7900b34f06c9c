// Receives webhooks at POST /webhooks and verifies each one
// with the official Standard Webhooks library.
//
//	go get github.com/standard-webhooks/standard-webhooks/libraries/go
package main

import (
	"io"
	"log"
	"net/http"
	"os"
	"sync"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

type job struct {
	id      string
	payload []byte
	test    bool
}

func main() {
	// This endpoint's signing secret. In production, read it from your secret store.
	webhook, err := standardwebhooks.NewWebhook("{{SECRET}}")
	if err != nil {
		log.Fatal(err)
	}

	// The webhook-id of every message already taken.
	// In production: a table with a unique key on webhook-id.
	var processed sync.Map
	jobs := make(chan job, 1000) // in production: your job queue
	go work(jobs)

	http.HandleFunc("/webhooks", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		// The exact bytes we signed: JSON decoded and encoded again would not verify.
		payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 2<<20))
		if err != nil {
			http.Error(w, "cannot read the body", http.StatusBadRequest)
			return
		}
		// Checks the signature (either one, during a secret rotation)
		// and that webhook-timestamp is within 5 minutes of now.
		if err := webhook.Verify(payload, r.Header); err != nil {
			log.Printf("refused: %v", err)
			http.Error(w, "invalid signature", http.StatusBadRequest)
			return
		}

		id := r.Header.Get("webhook-id") // the same on every retry of one message
		if _, seen := processed.LoadOrStore(id, true); seen {
			// A retry of what you already have: answer 2xx, or it is sent again.
			log.Printf("%s: already processed", id)
			w.WriteHeader(http.StatusNoContent)
			return
		}

		jobs <- job{id: id, payload: payload, test: r.Header.Get("webhook-test") == "true"}
		w.WriteHeader(http.StatusNoContent) // answer first, within seconds; work() does the work
	})

	port := os.Getenv("PORT")
	if port == "" {
		port = "3000"
	}
	log.Printf("Listening on http://localhost:%s/webhooks", port)
	log.Fatal(http.ListenAndServe(":"+port, nil))
}

func work(jobs <-chan job) {
	for j := range jobs {
		// Events may arrive out of order: before acting on one,
		// re-read the latest state of what it is about.
		log.Printf("%s: processed (test: %v) %s", j.id, j.test, j.payload)
	}
}
