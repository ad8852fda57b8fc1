package lint

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// findings lints src and returns its findings as "line:col: kind: msg"
// (notes as "line:col: note kind: msg").
func findings(t *testing.T, src string, opts Options) []string {
	t.Helper()
	if err := opts.Validate(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range Source("f", []byte(src), opts).Findings {
		kind := f.Kind
		if f.Severity == NotChecked {
			kind = "note " + kind
		}
		out = append(out, strings.TrimPrefix(f.Pos.String(), "f:")+": "+kind+": "+f.Msg)
	}
	return out
}

func TestLint(t *testing.T) {
	sq := Options{Track: benchmark.SingleQuery, Rules: 2022}
	inc := Options{Track: benchmark.Incremental, Rules: 2022}
	uc := Options{Track: benchmark.UnsatCore, Rules: 2022}
	for _, tc := range []struct {
		name string
		opts Options
		src  string
		want []string // prefixes "line:col: kind"
	}{
		{"clean", sq, "(set-info :smt-lib-version 2.6)\n(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> (* 2 x) 1))\n(check-sat)\n(exit)\n", nil},
		{"no logic", sq, "(declare-fun x () Bool)\n(assert x)\n(check-sat)\n", []string{"1:1: set-logic"}},
		{"logic not first", sq, "(set-option :produce-models true)\n(declare-fun x () Bool)\n(set-logic QF_UF)\n(check-sat)\n",
			[]string{"1:1: set-option: set-option :produce-models is not allowed", "3:1: set-logic"}},
		{"two check-sat", sq, "(set-logic QF_UF)\n(check-sat)\n(check-sat)\n", []string{"3:1: check-sat: second check-sat"}},
		{"no check-sat", sq, "(set-logic QF_UF)\n", []string{"2:1: check-sat: no check-sat"}},
		{"push in single query", sq, "(set-logic QF_UF)\n(push 1)\n(check-sat)\n", []string{"2:1: push-pop"}},
		{"push 2", inc, "(set-logic QF_UF)\n(push 2)\n(check-sat)\n(exit)\n", []string{"2:1: push-pop: only (push 1)"}},
		{"pop underflow", inc, "(set-logic QF_UF)\n(push 1)\n(pop 1)\n(pop 1)\n(check-sat)\n(exit)\n", []string{"4:1: push-pop: pop without"}},
		{"incremental needs exit", inc, "(set-logic QF_UF)\n(check-sat)\n(check-sat)\n", []string{"4:1: exit"}},
		{"print-success false incremental", inc, "(set-option :print-success false)\n(set-logic QF_UF)\n(check-sat)\n(exit)\n", []string{"1:1: set-option: the incremental track must not disable"}},
		{"after exit", sq, "(set-logic QF_UF)\n(check-sat)\n(exit)\n(check-sat)\n", []string{"4:1: exit", "4:1: check-sat"}},
		{"other command", sq, "(set-logic QF_UF)\n(check-sat)\n(get-value (true))\n", []string{"3:1: command: get-value is not allowed"}},
		{"named outside uc", sq, "(set-logic QF_UF)\n(assert (! true :named a))\n(check-sat)\n", []string{"2:17: named"}},
		{"named nested", uc, "(set-info :status unsat)\n(set-logic QF_UF)\n(assert (not (! true :named a)))\n(check-sat)\n(get-unsat-core)\n", []string{"3:22: named: named term inside"}},
		{"uc ok", uc, "(set-option :produce-unsat-cores true)\n(set-logic QF_UF)\n(set-info :status unsat)\n(assert (! false :named a))\n(check-sat)\n(get-unsat-core)\n", nil},
		{"uc sat", uc, "(set-logic QF_UF)\n(set-info :status sat)\n(check-sat)\n", []string{"2:1: status"}},
		{"uc no status", uc, "(set-logic QF_UF)\n(check-sat)\n", []string{"1:1: note status"}},
		{"get-model in uc", uc, "(set-logic QF_UF)\n(set-info :status unsat)\n(check-sat)\n(get-model)\n", []string{"4:1: get: get-model is not allowed"}},
		{"get not after check-sat", uc, "(set-logic QF_UF)\n(set-info :status unsat)\n(get-unsat-core)\n(check-sat)\n", []string{"3:1: get: get-unsat-core must directly follow"}},
		{"sort arity", sq, "(set-logic QF_UF)\n(declare-sort U 1)\n(check-sat)\n", []string{"2:17: arity"}},
		{"define-sort params", sq, "(set-logic QF_UF)\n(define-sort S (X) X)\n(check-sat)\n", []string{"2:16: arity"}},
		{"uf in LIA", sq, "(set-logic QF_LIA)\n(declare-fun f (Int) Int)\n(declare-sort U 0)\n(check-sat)\n", []string{"2:14: uf", "3:1: uf"}},
		{"arrays in QF_LIA", sq, "(set-logic QF_LIA)\n(declare-fun a () (Array Int Int))\n(check-sat)\n", []string{"2:20: logic: sort Array (ArraysEx) is not in logic QF_LIA"}},
		{"array sort AUFLIA", sq, "(set-logic QF_AUFLIA)\n(declare-fun a () (Array Int Bool))\n(check-sat)\n", []string{"2:14: array: array sort (Array Int Bool) in logic QF_AUFLIA, which allows only (Array Int Int)"}},
		{"quantifier in QF", sq, "(set-logic QF_LIA)\n(assert (exists ((x Int)) (> x 0)))\n(check-sat)\n", []string{"2:9: logic: quantifier"}},
		{"nonlinear", sq, "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> (* x x) (* 2 x (- 3)) (* x (let ((c 4)) c))))\n(check-sat)\n", []string{"3:13: linear: nonlinear multiplication"}},
		{"div in LIA", sq, "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> (div x 2) (mod x 3) (abs x)))\n(check-sat)\n", []string{"3:13: linear", "3:23: linear", "3:33: linear"}},
		{"division in LRA", sq, "(set-logic QF_LRA)\n(declare-fun x () Real)\n(assert (> (/ x 2) (* (/ 1 3) x) (* (- 2.5) x)))\n(check-sat)\n", []string{"3:13: linear: division of a non-constant"}},
		{"nonlinear logic", sq, "(set-logic QF_NIA)\n(declare-fun x () Int)\n(assert (> (* x x) (div x 2)))\n(check-sat)\n", nil},
		{"idl ok", sq, "(set-logic QF_IDL)\n(declare-fun x () Int)\n(declare-fun y () Int)\n(assert (let ((d (- x y))) (and (<= d 3) (> (- x y) (- 2)) (= x y) (distinct (- y x) 0))))\n(check-sat)\n", nil},
		{"idl bad", sq, "(set-logic QF_IDL)\n(declare-fun x () Int)\n(declare-fun y () Int)\n(assert (and (<= (+ x y) 3) (< x 5) (= (ite (< x y) x y) x)))\n(check-sat)\n",
			[]string{"4:15: difference-logic: atom is not", "4:19: difference-logic: '+' term outside", "4:30: difference-logic: atom is not", "4:38: difference-logic: atom is not", "4:41: difference-logic: 'ite' term outside"}},
		{"rdl ok", sq, "(set-logic QF_RDL)\n(declare-fun x () Real)\n(declare-fun y () Real)\n(assert (and (<= (- x y) (/ (- 3) 2)) (< (- (+ x x) (+ y y)) 1) (= x y)))\n(check-sat)\n", nil},
		{"ufidl", sq, "(set-logic QF_UFIDL)\n(declare-fun f (Int) Int)\n(declare-fun x () Int)\n(assert (and (< (+ x 1) (f x)) (< (- x) (+ x x)) (< (* 2 x) 0)))\n(check-sat)\n",
			[]string{"4:36: difference-logic: '-' with 1 arguments", "4:42: difference-logic: '+' without a numeral", "4:54: difference-logic: '*' is not in the signature"}},
		{"2014 commands", Options{Track: benchmark.SingleQuery, Rules: 2014}, "(set-logic QF_LIA)\n(set-info :status sat)\n(set-info :status sat)\n(declare-const x Int)\n(define-fun y () Int 1)\n(check-sat)\n",
			[]string{"3:1: command: second set-info :status", "4:1: command: declare-const is not allowed", "5:1: command: define-fun is not allowed", "7:1: exit"}},
		{"2014 check-sat needs assert", Options{Track: benchmark.Incremental, Rules: 2014}, "(set-option :print-success true)\n(set-logic QF_UF)\n(assert true)\n(check-sat)\n(push 1)\n(check-sat)\n(exit)\n",
			[]string{"6:1: check-sat: check-sat without an assert"}},
		{"2018 print-success", Options{Track: benchmark.SingleQuery, Rules: 2018}, "(set-option :print-success false)\n(set-logic QF_UF)\n(check-sat)\n", nil},
		{"scrambled ok", Options{Track: benchmark.ModelValidation, Rules: 2022, Scrambled: true},
			"(set-option :print-success false)\n(set-option :produce-models true)\n(set-logic QF_UF)\n(declare-fun x () Bool)\n(assert x)\n(check-sat)\n(get-model)\n(exit)\n",
			[]string{"1:1: note status"}},
		{"scrambled missing", Options{Track: benchmark.ModelValidation, Rules: 2022, Scrambled: true},
			"(set-info :status sat)\n(set-logic QF_UF)\n(check-sat)\n",
			[]string{"1:1: command: set-info in a scrambled", "1:1: set-option: a scrambled benchmark starts", "1:1: set-option: the model-validation track has", "2:1: set-logic: set-logic must be the first", "3:1: get: check-sat must be followed by get-model"}},
		{"syntax", sq, "(set-logic QF_UF)\n(assert (and true)\n(check-sat)\n", []string{"3:1: syntax: expected ')'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := findings(t, tc.src, tc.opts)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("finding %d:\ngot  %s\nwant %s...", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestValidate(t *testing.T) {
	for _, o := range []Options{{Track: benchmark.UnsatCore, Rules: 2014}, {Track: benchmark.Proof, Rules: 2018}, {Track: benchmark.SingleQuery, Rules: 2019}} {
		if err := o.Validate(); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestSharedBenchmarks lints every shared benchmark (non-incremental ones
// as single-query, incremental ones as incremental) under each year's rules
// and compares the findings with golden files, which were reviewed: every
// error in them is a real violation of the rules.
func TestSharedBenchmarks(t *testing.T) {
	dir := testenv.Shared(t, "benchmarks")
	for _, year := range Years {
		t.Run(strconv.Itoa(year), func(t *testing.T) {
			var b strings.Builder
			for _, f := range testenv.Files(t, dir, ".smt2") {
				rel, _ := filepath.Rel(dir, f)
				track := benchmark.SingleQuery
				if strings.HasPrefix(rel, "incremental") {
					track = benchmark.Incremental
				}
				res, err := File(f, Options{Track: track, Rules: year})
				if err != nil {
					t.Fatal(err)
				}
				// A file's first findings show the kinds; the rest are
				// counted, which keeps the 2014 golden file small.
				const shown = 5
				for i, fd := range res.Findings {
					if i == shown {
						fmt.Fprintf(&b, "%s: ... and %d more\n", rel, len(res.Findings)-shown)
						break
					}
					b.WriteString(strings.Replace(fd.String(), f, rel, 1))
					b.WriteByte('\n')
				}
			}
			golden := filepath.Join("testdata", "shared-"+strconv.Itoa(year)+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("findings differ from %s (run with -update and review the diff)", golden)
			}
		})
	}
}
