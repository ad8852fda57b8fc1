package smtlib

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzConvertV1 checks that no input makes ConvertV1 panic, that every
// error is an ErrorList whose positions lie inside the input, and that
// whatever converts parses as SMT-LIB 2.6.
func FuzzConvertV1(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "v1", "*.smt"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`(benchmark b :logic QF_BV :extrafuns ((x BitVec[8]) (a|b U) (x[1] U) (div Int)) :formula (flet ($p (= bv1[8] x)) (let (?v (extract[3:0] x)) (and $p (forall (?y Int) (p ?y) :pat { (p (f ?y)) }) (iff $p (bvult x bvbin1))))))`))
	f.Add([]byte("(benchmark b :source {a \\} {b}} :notes \"x\\\"\" :logic QF_LRA :formula (< 1/3 0.5 007 (~ 2)))"))
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := ConvertV1("fuzz.smt", src)
		if err != nil {
			var el ErrorList
			if !errors.As(err, &el) || len(el) == 0 {
				t.Fatalf("error is not a non-empty ErrorList: %T %v", err, err)
			}
			for _, e := range el {
				if e.Pos.Offset < 0 || e.Pos.Offset > len(src) || e.Pos.Line < 1 {
					t.Fatalf("error outside the input: %v", e)
				}
			}
			return
		}
		if _, err := Parse("converted.smt2", out, 0); err != nil {
			t.Fatalf("the translation does not parse: %v\ninput:\n%s\noutput:\n%s", err, src, out)
		}
	})
}
