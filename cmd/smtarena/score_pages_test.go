package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
)

// TestWriteWebJSONError: the pages are written, and one that cannot be
// written is an error naming it.
func TestWriteWebJSONError(t *testing.T) {
	rows := []score.Row{
		{Solver: "a", Benchmark: "non-incremental/QF_UF/f/1.smt2", Result: "sat", Answer: "sat", Expected: "sat", CPU: 1, Wall: 1},
		{Solver: "b", Benchmark: "non-incremental/QF_UF/f/1.smt2", Result: "unknown", CPU: 2, Wall: 2},
		{Solver: "a", Benchmark: "non-incremental/QF_LIA/f/2.smt2", Result: "unsat", Answer: "unsat", Expected: "unsat", CPU: 1, Wall: 1},
	}
	rep, err := score.Score(rows, score.Options{Rules: 2024, Year: 2024, Track: benchmark.Cloud, Compat: score.Official})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := score.WebPages(rep, "2024-07-08")
	if err != nil || len(pages) < 3 {
		t.Fatalf("%d pages, %v", len(pages), err)
	}
	dir := t.TempDir()
	var out strings.Builder
	if err := writeWebJSON(streams{strings.NewReader(""), &out, io.Discard}, dir, rep, "2024-07-08"); err != nil || !strings.Contains(out.String(), "wrote") {
		t.Fatalf("%v %q", err, out.String())
	}
	for _, p := range pages {
		if data, err := os.ReadFile(filepath.Join(dir, p.Name)); err != nil || string(data) != p.Text {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
	// A directory where a page goes.
	dir = t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, pages[1].Name), 0o755); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	err = writeWebJSON(streams{strings.NewReader(""), &out, io.Discard}, dir, rep, "2024-07-08")
	if err == nil || !strings.Contains(err.Error(), pages[1].Name) || out.Len() != 0 {
		t.Fatalf("a page that cannot be written: %v %q", err, out.String())
	}
}
