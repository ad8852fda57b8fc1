package smtlib

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseResponses checks that no input makes the response reader panic,
// that every byte of the input belongs to a response or lies between them as
// white space or comments, that garbage has a position inside the input, and
// that printing a well-formed response and reading the print gives the same
// answer with equal terms.
func FuzzParseResponses(f *testing.F) {
	outs, _ := filepath.Glob(filepath.Join("testdata", "responses", "*.out"))
	for _, p := range outs {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"sat\nunsat\nunknown\nsuccess\nunsupported\n",
		`(error "a ""b"" c")` + "\n" + `(error "z3 \"style\"")` + "\n(error \"raw \"q\" \n\")\n",
		"((x 1) ((f x) (- 2)) (a ((as const (Array Int Int)) 0)) (b (lambda ((y Int)) y)))",
		"(:name \"Z3\" :flag :nested (a (b)))\n(a1 |a 2|)\n()\n(model)\n",
		"(model (define-fun x () Int 1) (declare-sort U 0) (define-funs-rec ((f ((n Int)) Int)) ((f n))))",
		"((declare-fun U!val!0 () U) (forall ((x U)) (= x U!val!0)) (define-fun-rec g ((n Int)) Int n))",
		"junk 12abc \x00\xff )))\n(error\n\"unterminated\n|quoted\n",
		"\"hi \\\"there\\\"\"\n(:authors \"a \\\"b\\\" (c)\")\n",
		"((x (let ((y 1)) (! y :named n))) (z (match l ((nil 0) ((cons h t) h)))))",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		rs, errs := ParseResponses("fuzz", src)
		checkCoverage(t, src, rs)
		n := 0
		for _, r := range rs {
			if r.Kind != RespGarbage {
				checkSameResponse(t, r, reparse(t, r))
				continue
			}
			n++
			e, ok := r.Err().(*Error)
			if !ok || e.Pos.Offset < r.Pos.Offset || e.Pos.Offset > r.End.Offset || e.Pos.Line < 1 {
				t.Fatalf("garbage [%d,%d) with error at %v", r.Pos.Offset, r.End.Offset, r.Err())
			}
		}
		if n != len(errs) {
			t.Fatalf("%d garbage responses, %d errors", n, len(errs))
		}
	})
}

// reparse reads the canonical print of r.
func reparse(t *testing.T, r Response) Response {
	t.Helper()
	text := formatResponse(r)
	rs, errs := ParseResponses("printed", []byte(text))
	if len(rs) != 1 || len(errs) != 0 {
		t.Fatalf("the print of a %s response reads as %d responses (%v):\n%s", r.Kind, len(rs), errs, text)
	}
	return rs[0]
}
