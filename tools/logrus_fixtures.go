// Writes the messages given (a JSON array, the second argument) with
// logrus (github.com/sirupsen/logrus), one entry each, to standard output:
// with its JSONFormatter (`json`, the defaults: HTML escaping on) or its
// TextFormatter (`text`, as it writes to a file: no colours, values quoted
// with %q when they hold more than letters, digits and `-._/@^+`).
// Run by tools/envelope_fixtures.py (GOPATH holding logrus, GO111MODULE=off).
package main

import (
	"encoding/json"
	"errors"
	"os"
	"time"

	"github.com/sirupsen/logrus"
)

func main() {
	var messages []string
	if err := json.Unmarshal([]byte(os.Args[2]), &messages); err != nil {
		panic(err)
	}
	log := logrus.New()
	log.Out = os.Stdout
	if os.Args[1] == "json" {
		log.Formatter = &logrus.JSONFormatter{TimestampFormat: time.RFC3339Nano}
	} else {
		log.Formatter = &logrus.TextFormatter{DisableColors: true, TimestampFormat: time.RFC3339Nano}
	}
	// A fixed time, so that a run gives the same files.
	at := time.Date(2026, 11, 29, 17, 20, 35, 1000, time.UTC)
	for _, m := range messages {
		log.WithTime(at).
			WithField("component", "mqtt").
			WithError(errors.New("client \"c-1\" <gone>")).
			Error(m)
	}
}
