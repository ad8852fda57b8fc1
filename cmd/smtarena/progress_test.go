package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
)

// TestProgressSummary: off a terminal, compete prints a summary line every
// few seconds and one at the end, not a line per pair.
func TestProgressSummary(t *testing.T) {
	var out bytes.Buffer
	p := newPairProgress(&out, false, map[benchmark.Track]int{benchmark.SingleQuery: 100, benchmark.Incremental: 4}, map[string]int{"incremental": 4})
	for i := 0; i < 100; i++ {
		r := store.Result{Status: "complete", Answer: "sat"}
		switch {
		case i%10 == 0:
			r.Status = "error"
		case i%25 == 1:
			r.Extra = `{"wrong":true}`
		}
		p.onPair(store.Pair{Track: "single-query"}, r)
	}
	p.finish()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines for 100 pairs in well under 5 s:\n%s", len(lines), out.String())
	}
	for _, want := range []string{"single-query 100/100 ETA done, 4 wrong, 10 errors", "incremental 4/4 ETA done, 0 wrong, 0 errors"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("summary %q lacks %q", lines[0], want)
		}
	}
	if strings.Index(lines[0], "single-query") > strings.Index(lines[0], "incremental") {
		t.Errorf("tracks not in the order compete runs them: %s", lines[0])
	}
}

// TestProgressBars: on a terminal the bars are mpb's; they end cleanly also
// when the run is interrupted before a track is done.
func TestProgressBars(t *testing.T) {
	var out bytes.Buffer
	p := newPairProgress(&out, true, map[benchmark.Track]int{benchmark.SingleQuery: 10, benchmark.Incremental: 4}, nil)
	for i := 0; i < 6; i++ {
		p.onPair(store.Pair{Track: "single-query"}, store.Result{Status: "complete"})
	}
	p.finish() // interrupted: 6 of 10, 0 of 4
	if p.by["single-query"].done != 6 || !p.by["single-query"].bar.Aborted() {
		t.Errorf("after an interruption: %d done, aborted %v", p.by["single-query"].done, p.by["single-query"].bar.Aborted())
	}
}
