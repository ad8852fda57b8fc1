package smtlib

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// convertOK converts src and checks that the result parses as SMT-LIB 2.6.
func convertOK(t *testing.T, name string, src []byte) []byte {
	t.Helper()
	out, err := ConvertV1(name, src)
	if err != nil {
		t.Fatalf("ConvertV1: %v", err)
	}
	if _, err := Parse(name+"2", out, 0); err != nil {
		t.Fatalf("the translation does not parse as SMT-LIB 2.6: %v\n%s", err, clip(string(out)))
	}
	return out
}

// TestConvertV1Golden converts each testdata/v1/*.smt and compares the
// result with the .smt2 beside it; -update rewrites those.
func TestConvertV1Golden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "v1", "*.smt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no 1.2 benchmarks under testdata/v1: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out := convertOK(t, path, src)
			golden := path + "2"
			if *update {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("translation differs from %s (run with -update to accept it)\ngot:\n%s\nwant:\n%s", golden, out, want)
			}
		})
	}
}

var statusRE = regexp.MustCompile(`(?m)^\s*:status\s+(sat|unsat|unknown)\b`)

// TestConvertV1Z3 runs z3 on every translated test benchmark and checks that
// its answer is the benchmark's 1.2 :status: the translation keeps meaning,
// not just syntax.
func TestConvertV1Z3(t *testing.T) {
	z3, err := exec.LookPath("z3")
	if err != nil {
		testenv.Skipf(t, "needs z3 on PATH: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "v1", "*.smt"))
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m := statusRE.FindSubmatch(src)
			if m == nil {
				t.Fatal("benchmark has no :status")
			}
			out := convertOK(t, path, src)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, z3, "-T:30", "-in")
			cmd.Stdin = bytes.NewReader(out)
			res, err := cmd.CombinedOutput()
			if err != nil && ctx.Err() != nil {
				t.Fatalf("z3 timed out: %v", err)
			}
			got := strings.TrimSpace(string(res))
			if got != string(m[1]) {
				t.Errorf("z3 says %q, the benchmark's status is %s\n%s", got, m[1], out)
			}
		})
	}
}

// bench wraps attributes into a 1.2 benchmark.
func bench(logic, attrs string) string {
	return "(benchmark t :status sat :logic " + logic + "\n" + attrs + "\n)"
}

// assertsOf returns the declarations and assertions of a translation, one
// per line, without the fixed header and trailer.
func assertsOf(out []byte) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if strings.HasPrefix(l, "(declare-") || strings.HasPrefix(l, "(assert ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestConvertV1Translations checks the translation of each construct.
func TestConvertV1Translations(t *testing.T) {
	for _, tc := range []struct {
		name, logic, attrs, want string
	}{
		{"connectives", "QF_UF", ":extrapreds ((a) (b) (c)) :formula (and (implies a b) (iff b c) (if_then_else a b c) (xor a b c) (not (or a)))",
			"(declare-sort U 0)\n(declare-fun a () Bool)\n(declare-fun b () Bool)\n(declare-fun c () Bool)\n" +
				"(assert (and (=> a b) (= b c) (ite a b c) (xor a b c) (not a)))"},
		{"single and", "QF_UF", ":extrapreds ((a)) :formula (and (xor a) :note {x})", "(declare-sort U 0)\n(declare-fun a () Bool)\n(assert a)"},
		{"true false", "QF_LIA", ":formula (or true false)", "(assert (or true false))"},
		{"parenthesized atoms", "QF_LIA", ":extrafuns ((x Int)) :extrapreds ((p)) :formula (and (p) (p :a {1}) (= (x) (?y :b)))",
			"(declare-fun x () Int)\n(declare-fun p () Bool)\n(assert (and p p (= x ?y)))"},
		{"let flet", "QF_LIA", ":extrafuns ((x Int)) :formula (flet ($p (> x 0)) (let (?y (~ x)) (and $p (= ?y (- 0 x)))))",
			"(declare-fun x () Int)\n(assert (let (($p (> x 0))) (let ((?y (- x))) (and $p (= ?y (- 0 x))))))"},
		{"ite term", "QF_LIA", ":extrafuns ((x Int)) :formula (= x (ite (> x 0) 1 (~ 1)))",
			"(declare-fun x () Int)\n(assert (= x (ite (> x 0) 1 (- 1))))"},
		{"numerals", "QF_LRA", ":extrafuns ((x Real)) :formula (= x (+ 007 00.50 1/3 010/02))",
			"(declare-fun x () Real)\n(assert (= x (+ 7 0.50 (/ 1.0 3.0) (/ 10.0 2.0))))"},
		{"numeral declaration", "QF_LIA", ":extrafuns ((0 Int) (x Int)) :formula (= x 0)", "(declare-fun x () Int)\n(assert (= x 0))"},
		{"distinct", "QF_LIA", ":extrafuns ((x Int) (y Int)) :formula (distinct x y 3)",
			"(declare-fun x () Int)\n(declare-fun y () Int)\n(assert (distinct x y 3))"},
		{"bit vectors", "QF_BV", ":extrafuns ((x BitVec[8])) :formula (= (concat bit0 (extract[6:0] x)) (bvnot (bvxnor bvbin00001111 bvhexaB)) bv017[08])",
			"(declare-fun x () (_ BitVec 8))\n(assert (= (concat #b0 ((_ extract 6 0) x)) (bvnot (bvxnor #b00001111 #xaB)) (_ bv17 8)))"},
		{"old bit-vector names", "QF_UFBV[32]", ":extrafuns ((x BitVec[32])) :formula (and (bvlt x x) (bvleq x x) (bvgt x x) (bvgeq x x) (bvsleq x x) (bvsgeq x x))",
			"(declare-fun x () (_ BitVec 32))\n(assert (and (bvult x x) (bvule x x) (bvugt x x) (bvuge x x) (bvsle x x) (bvsge x x)))"},
		{"bv arrays", "QF_AUFBV", ":extrafuns ((m Array[32:8]) (a BitVec[32])) :formula (= (select m a) bv0[8])",
			"(declare-fun m () (Array (_ BitVec 32) (_ BitVec 8)))\n(declare-fun a () (_ BitVec 32))\n(assert (= (select m a) (_ bv0 8)))"},
		{"int arrays", "QF_AUFLIA", ":extrafuns ((a Array)) :formula (= (select a 0) 1)",
			"(declare-fun a () (Array Int Int))\n(assert (= (select a 0) 1))"},
		{"QF_AX arrays", "QF_AX", ":extrafuns ((a Array) (i Index)) :formula (= (select a i) (select a i))",
			"(declare-sort Index 0)\n(declare-sort Element 0)\n(declare-fun a () (Array Index Element))\n(declare-fun i () Index)\n(assert (= (select a i) (select a i)))"},
		{"AUFLIRA arrays", "AUFLIRA", ":extrafuns ((a Array1) (b Array2)) :formula (= (select b 0) a)",
			"(declare-fun a () (Array Int Real))\n(declare-fun b () (Array Int (Array Int Real)))\n(assert (= (select b 0) a))"},
		{"U declared by the benchmark", "QF_UF", ":extrasorts (U) :extrafuns ((c U)) :formula (= c c)",
			"(declare-sort U 0)\n(declare-fun c () U)\n(assert (= c c))"},
		{"quantifiers and patterns", "AUFLIA", ":extrafuns ((f Int Int)) :formula (forall (?x Int) (?y Int) (exists (?z Int) (= (f ?x) ?z) :pat {}) :pat { (f ?x) (f ?y) } :pat {(f (f ?x))} :nopat { (f ?y) } :weight { 2 })",
			"(declare-fun f (Int) Int)\n(assert (forall ((?x Int) (?y Int)) (! (exists ((?z Int)) (= (f ?x) ?z)) :pattern ((f ?x) (f ?y)) :pattern ((f (f ?x))))))"},
		{"quantifier over a body in parentheses", "AUFLIA", ":extrapreds ((p Int)) :formula (forall (?x Int) (p ?x))",
			"(declare-fun p (Int) Bool)\n(assert (forall ((?x Int)) (p ?x)))"},
		{"quoted names", "QF_UF", ":extrafuns ((x' U) (a.b U) (c#1 U)) :formula (= x' a.b c#1)",
			"(declare-sort U 0)\n(declare-fun |x'| () U)\n(declare-fun a.b () U)\n(declare-fun |c#1| () U)\n(assert (= |x'| a.b |c#1|))"},
		{"2.6 reserved words", "QF_UF", ":extrapreds ((assert) (par)) :formula (and assert par)",
			"(declare-sort U 0)\n(declare-fun |assert| () Bool)\n(declare-fun |par| () Bool)\n(assert (and |assert| |par|))"},
		{"clashes with 2.6 theory symbols", "QF_UFLIA", ":extrasorts (Bool) :extrafuns ((div Int Int) (div_1 Int) (select Bool)) :formula (= (div div_1) div_1)",
			"(declare-sort Bool_1 0)\n(declare-fun div_2 (Int) Int)\n(declare-fun div_1 () Int)\n(declare-fun select_1 () Bool_1)\n(assert (= (div_2 div_1) div_1))"},
		{"names 2.6 cannot quote", "QF_UF", ":extrafuns ((a|b U)) :formula (= a|b a|b)",
			"(declare-sort U 0)\n(declare-fun a_b_1 () U)\n(assert (= a_b_1 a_b_1))"},
		{"indexed user symbols", "QF_UF", ":extrafuns ((x[3] U)) :formula (= x[3] x[3])",
			"(declare-sort U 0)\n(declare-fun |x[3]| () U)\n(assert (= |x[3]| |x[3]|))"},
		{"declared name hides a 1.2 built-in", "QF_UF", ":extrafuns ((bit0 U)) :formula (= bit0 bit0)",
			"(declare-sort U 0)\n(declare-fun bit0 () U)\n(assert (= bit0 bit0))"},
		{"assumptions in order", "QF_LIA", ":extrafuns ((x Int)) :assumption (> x 0) :formula (< x 2) :assumption (= x 1)",
			"(declare-fun x () Int)\n(assert (> x 0))\n(assert (< x 2))\n(assert (= x 1))"},
		{"declaration annotations", "QF_LIA", ":extrafuns ((x Int :origin {s})) :extrapreds ((p Int :x)) :formula (p x)",
			"(declare-fun x () Int)\n(declare-fun p (Int) Bool)\n(assert (p x))"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := convertOK(t, "t.smt", []byte(bench(tc.logic, tc.attrs)))
			if got := assertsOf(out); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestConvertV1Header checks the info commands made from the benchmark's
// attributes.
func TestConvertV1Header(t *testing.T) {
	src := `; comment
(benchmark b
  :source { a {nested} \} brace, a | bar and a \ backslash }
  :notes "say \"hi\""
  :category { random }
  :difficulty { 3 }
  :logic QF_UFBV[32]
  :formula true)`
	want := `(set-info :smt-lib-version 2.6)
(set-logic QF_UFBV)
(set-info :source |a {nested} } brace, a / bar and a / backslash|)
(set-info :notes |say "hi"|)
(set-info :status unknown)
(set-info :category "random")
(assert true)
(check-sat)
(exit)
`
	if got := string(convertOK(t, "b.smt", []byte(src))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestConvertV1Errors checks messages and positions.
func TestConvertV1Errors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"", "e.smt:1:1: expected '(benchmark' to start an SMT-LIB 1.2 benchmark, found end of file"},
		{"(set-logic QF_UF)", "e.smt:1:2: expected 'benchmark', found 'set-logic'"},
		{"(benchmark b :logic QF_LIA :formula (and true\n", "e.smt:2:1: expected a formula or term, found end of file"},
		{"(benchmark b :logic QF_LIA\n :formula (not true true))", "e.smt:2:11: 'not' takes 1 argument, found 2"},
		{"(benchmark b :logic QF_LIA :formula (implies true))", "e.smt:1:37: 'implies' takes 2 arguments, found 1"},
		{"(benchmark b :logic QF_LIA :formula (= 1))", "e.smt:1:37: '=' takes at least 2 arguments, found 1"},
		{"(benchmark b :logic QF_LIA :formula (not))", "e.smt:1:38: 'not' needs at least 1 argument"},
		{"(benchmark b :logic QF_LIA :formula (let ($p true) $p))", "e.smt:1:43: expected a term variable such as ?x, found '$p'"},
		{"(benchmark b :logic QF_LIA :formula (flet (?x 1) true))", "e.smt:1:44: expected a formula variable such as $p, found '?x'"},
		{"(benchmark b :logic QF_LIA :formula (forall x true))", "e.smt:1:45: expected a sorted variable such as (?x Int), found 'x'"},
		{"(benchmark b :logic QF_LIA :formula (forall (?x) true))", "e.smt:1:48: expected a sort, found ')'"},
		{"(benchmark b :logic QF_LIA :formula (and true :a {x} false))", "e.smt:1:54: expected an annotation or ')', found 'false'"},
		{"(benchmark b :logic AUFLIA :formula (forall (?x Int) true :pat { (f ?x) ))", "e.smt:1:73: expected a term or '}' to end the pattern, found ')'"},
		{"(benchmark b :logic QF_LIA :formula (< 1 1/0))", "e.smt:1:42: rational \"1/0\" divides by zero"},
		{"(benchmark b :logic QF_BV :formula (= x extract[7:]))", "e.smt:1:51: expected a numeral in the indices of \"extract[7:\""},
		{"(benchmark b :logic QF_BV :formula (= x extract[7,0]))", "e.smt:1:50: expected ':' or ']' in the indices of \"extract[7\""},
		{"(benchmark b :source { open\n", "e.smt:1:22: user value not terminated: missing '}'"},
		{"(benchmark b :notes \"open\n", "e.smt:1:21: string not terminated: missing '\"'"},
		{"(benchmark b :logic QF_LIA :formula (< ? 1))", "e.smt:1:40: expected a variable name after '?'"},
		{"(benchmark b :logic QF_LIA : formula true)", "e.smt:1:28: expected an attribute name after ':'"},
		{"(benchmark b :logic QF_LIA :formula (< x, 1))", "e.smt:1:41: unexpected character ','"},
		{"(benchmark b :status maybe)", "e.smt:1:22: expected sat, unsat or unknown, found 'maybe'"},
		{"(benchmark b :logic A :logic B)", "e.smt:1:23: second :logic; a benchmark has one"},
		{"(benchmark b :logic a|b :formula true)", "e.smt:1:21: logic name \"a|b\" cannot be written in SMT-LIB 2.6"},
		{"(benchmark b :formula true)", "e.smt:1:2: the benchmark has no :logic"},
		{"(benchmark b :logic QF_UF)", "e.smt:1:2: the benchmark has no :formula"},
		{"(benchmark b :logic QF_UF :formula true) x", "e.smt:1:42: expected end of file after the benchmark, found 'x'"},
		{"(benchmark b :logic QF_UF :extrafuns ((f)) :formula true)", "e.smt:1:41: expected a sort, found ')'"},
		{"(benchmark b :logic QF_UF :extrapreds ((1)) :formula true)", "e.smt:1:41: expected a predicate symbol, found '1'"},
		{"(benchmark b :logic QF_BV :formula (= (bit1 x) ( bvhexF 1)))", "e.smt:1:39: constant 'bit1' cannot be applied to arguments"},
		{"(benchmark b :logic QF_UF :formula ((f x)))", "e.smt:1:37: expected a function, predicate or connective, found '('"},
	} {
		_, err := ConvertV1("e.smt", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error, want %s", tc.src, tc.want)
			continue
		}
		var el ErrorList
		if !errors.As(err, &el) || len(el) != 1 {
			t.Errorf("%q: error %T %v, want one entry of an ErrorList", tc.src, err, err)
			continue
		}
		if got := err.Error(); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// BenchmarkConvertV1 translates a generated 1.2 QF_UFLIA benchmark of about
// 16 MB: the speed of converting the large industrial 1.2 files.
func BenchmarkConvertV1(b *testing.B) {
	var src bytes.Buffer
	const vars = 3000
	src.WriteString("(benchmark big :status unknown :logic QF_UFLIA\n:extrafuns ((f Int Int)")
	for i := range vars {
		fmt.Fprintf(&src, " (x%d Int)", i)
	}
	src.WriteString(")\n:formula (and\n")
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; src.Len() < 16<<20; i++ {
		a, c, d := rng.IntN(vars), rng.IntN(vars), rng.IntN(vars)
		fmt.Fprintf(&src, " (or (< (+ x%d (~ x%d)) %d) (= (f x%d) (ite (> x%d 0) 1 x%d)) (let (?y (f x%d)) (> ?y 3)))\n", a, c, i, d, a, c, d)
	}
	src.WriteString("))\n")
	b.SetBytes(int64(src.Len()))
	for b.Loop() {
		if _, err := ConvertV1("big.smt", src.Bytes()); err != nil {
			b.Fatal(err)
		}
	}
}
