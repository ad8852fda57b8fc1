package smtlib

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes the parser panic, that every error
// has a position inside the input, and that the canonical print of whatever
// parsed re-parses to the same tree.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "benchmarks", "*", "*", "*", "*.smt2"))
	for i, p := range seeds {
		if i%8 != 0 {
			continue
		}
		if b, err := os.ReadFile(p); err == nil && len(b) < 8<<10 {
			f.Add(b)
		}
	}
	f.Add([]byte("(assert (let ((x 1)) (forall ((y Int)) (! (match x ((a b) ((c d e) f))) :named n))))"))
	f.Add([]byte("(set-info :x (a |b| \"c\" #x1 1.0 :k))(declare-datatypes ((L 1)) ((par (T) ((n) (c (h T))))))"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := Parse("fuzz", src, AllErrors)
		if s == nil {
			t.Fatal("nil script")
		}
		if el, ok := err.(ErrorList); ok {
			for _, e := range el {
				if e.Pos.Offset < 0 || e.Pos.Offset > len(src) || e.Pos.Line < 1 {
					t.Fatalf("error outside the input: %v", e)
				}
			}
		}
		var out bytes.Buffer
		if err := s.Print(&out); err != nil {
			t.Fatal(err)
		}
		s2, err := Parse("printed", out.Bytes(), AllErrors)
		if err != nil {
			t.Fatalf("the print of a parsed script does not parse: %v\n%s", err, out.Bytes())
		}
		if d := ScriptDiff(s, s2); d != "" {
			t.Fatalf("print changes the tree: %s\n%s", d, out.Bytes())
		}
	})
}
