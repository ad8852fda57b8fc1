package smtlib

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestConvertV1Deep converts formulas nested a million levels deep with the
// Go stack limited to 1 MB, so any recursion on depth would overflow it, and
// checks that the 2.6 parser reads the result.
func TestConvertV1Deep(t *testing.T) {
	if testing.Short() {
		t.Skip("deep nesting takes a few seconds")
	}
	old := debug.SetMaxStack(1 << 20)
	defer debug.SetMaxStack(old)
	const depth = 1_000_000
	nest := func(open, core, close string) string {
		return strings.Repeat(open, depth) + core + strings.Repeat(close, depth)
	}
	cases := map[string]struct{ logic, formula, wantPrefix string }{
		"not":     {"QF_LIA", nest("(not ", "(= x 0)", ")"), "(assert (not (not "},
		"plus":    {"QF_LIA", "(= 0 " + nest("(+ 1 ", "(~ x)", ")") + ")", "(assert (= 0 (+ 1 (+ 1 "},
		"let":     {"QF_LIA", nest("(let (?y x) ", "(= ?y 0)", ")"), "(assert (let ((?y x)) (let ((?y x)) "},
		"let-val": {"QF_LIA", "(let (?y " + nest("(~ ", "x", ")") + ") (= ?y 0))", "(assert (let ((?y (- (- "},
		"flet":    {"QF_LIA", nest("(flet ($p (= x 0)) ", "$p", ")"), "(assert (let (($p (= x 0))) (let (($p "},
		"iff":     {"QF_LIA", nest("(iff (= x 0) ", "true", " :a {b})"), "(assert (= (= x 0) (= (= x 0) "},
		"ite":     {"QF_LIA", "(= x " + nest("(ite (= x 0) 1 ", "x", ")") + ")", "(assert (= x (ite (= x 0) 1 (ite "},
		"forall":  {"AUFLIA", nest("(forall (?y Int) ", "(= ?y 0)", " :pat { (f ?y) })"), "(assert (forall ((?y Int)) (! (forall "},
		"pattern": {"AUFLIA", "(forall (?y Int) (= (f ?y) 0) :pat { " + nest("(f ", "?y", ")") + " })", "(assert (forall ((?y Int)) (! (= (f ?y) 0) :pattern ((f (f "},
		"and":     {"QF_LIA", nest("(and ", "(= x 0)", ")"), "(assert (= x 0))"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			src := "(benchmark deep :logic " + tc.logic + " :extrafuns ((x Int) (f Int Int)) :formula " + tc.formula + ")"
			out := convertOK(t, "deep.smt", []byte(src))
			if i := strings.Index(string(out), "(assert "); i < 0 || !strings.HasPrefix(string(out[i:]), tc.wantPrefix) {
				t.Errorf("translation does not start with %q: %s", tc.wantPrefix, clip(string(out[max(i, 0):])))
			}
		})
	}
}
