package smtlib

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// roundTrip parses src, prints it, parses the print and checks that the two
// trees are equal and that printing is a fixed point.
func roundTrip(t *testing.T, name string, src []byte) {
	t.Helper()
	s1, err := Parse(name, src, 0)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var out1 bytes.Buffer
	if err := s1.Print(&out1); err != nil {
		t.Fatal(err)
	}
	s2, err := Parse(name+" (printed)", out1.Bytes(), 0)
	if err != nil {
		t.Fatalf("re-parse of the printed script: %v\n%s", err, head(out1.Bytes()))
	}
	if d := ScriptDiff(s1, s2); d != "" {
		t.Fatalf("printed script parses to another tree: %s", d)
	}
	var out2 bytes.Buffer
	s2.Print(&out2)
	if !bytes.Equal(out1.Bytes(), out2.Bytes()) {
		t.Fatalf("printing is not a fixed point")
	}
}

func head(b []byte) string {
	if len(b) > 2000 {
		b = b[:2000]
	}
	return string(b)
}

func TestRoundTripSharedBenchmarks(t *testing.T) {
	dir := testenv.Shared(t, "benchmarks")
	files := testenv.Files(t, dir, ".smt2")
	if len(files) < 300 {
		t.Fatalf("found only %d benchmarks under %s", len(files), dir)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, rel, src)
		})
	}
}
