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

// TestProgressBars: on a terminal a bar per track, redrawn in place, in
// the order compete runs the tracks; they end cleanly, as they are, also
// when the run is interrupted before a track is done.
func TestProgressBars(t *testing.T) {
	var out bytes.Buffer
	p := newPairProgress(&out, true, map[benchmark.Track]int{benchmark.SingleQuery: 10, benchmark.Incremental: 4}, nil)
	for i := 0; i < 6; i++ {
		r := store.Result{Status: "complete"}
		if i == 2 {
			r.Status = "error"
		}
		p.onPair(store.Pair{Track: "single-query"}, r)
	}
	p.finish() // interrupted: 6 of 10, 0 of 4
	p.finish() // a second call does nothing
	got := out.String()
	if !strings.Contains(got, "\x1b[2A") {
		t.Errorf("the bars are not redrawn over the first ones: %q", got)
	}
	// The last drawing: after the last cursor move up.
	last := got[strings.LastIndex(got, "\x1b[2A")+len("\x1b[2A"):]
	lines := strings.Split(strings.TrimSuffix(last, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("last drawing has %d lines, want 2: %q", len(lines), last)
	}
	wantBar := "[" + strings.Repeat("=", 24) + strings.Repeat(" ", 16) + "]"
	for i, want := range []string{"single-query 6/10 " + wantBar, "incremental  0/4 [" + strings.Repeat(" ", 40) + "] ETA -, 0 wrong, 0 errors"} {
		if l := strings.TrimPrefix(lines[i], "\r\x1b[2K"); !strings.HasPrefix(l, want) {
			t.Errorf("bar %d = %q, want it to start with %q", i, l, want)
		}
	}
	if !strings.Contains(lines[0], "0 wrong, 1 errors") {
		t.Errorf("bar lacks the counts: %q", lines[0])
	}
}
