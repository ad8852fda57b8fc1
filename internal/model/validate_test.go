package model

import (
	"bytes"
	"context"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func check(t *testing.T, bench, resp string, opts Options) Result {
	t.Helper()
	res, err := Validate(context.Background(), "b.smt2", strings.NewReader(bench), "r", strings.NewReader(resp), opts)
	if err != nil {
		t.Fatalf("validate: %v", err)
	}
	return res
}

// TestVerdicts: each verdict class on a constructed case.
func TestVerdicts(t *testing.T) {
	lia := "(set-logic QF_LIA)\n(declare-fun x () Int)\n(declare-fun y () Int)\n(assert (> x y))\n(check-sat)\n"
	uf := "(set-logic QF_UF)\n(declare-sort U 0)\n(declare-fun a () U)\n(declare-fun b () U)\n(declare-fun f (U) U)\n(assert (distinct a b))\n(assert (= (f a) b))\n(check-sat)\n"
	nia := "(set-logic QF_NIA)\n(declare-fun x () Int)\n(assert (= (div x 0) 3))\n(check-sat)\n"
	for _, tt := range []struct {
		name, bench, resp, want string
		opts                    Options
	}{
		{"valid", lia, "sat\n((define-fun x () Int 3) (define-fun y () Int (- 2)))", "VALID", Options{}},
		{"model keyword", lia, "sat\n(model (define-fun x () Int 3) (define-fun y () Int 2))", "VALID", Options{}},
		{"bad", lia, "sat\n((define-fun x () Int 1) (define-fun y () Int 2))", "INVALID bad-model", Options{}},
		{"unsat", lia, "unsat\n", "INVALID unsat", Options{}},
		{"unknown", lia, "unknown\n", "UNKNOWN unknown-answer", Options{}},
		{"no output", lia, "", "UNKNOWN no-output", Options{}},
		{"success only", lia, "success\nsuccess\n", "UNKNOWN no-output", Options{}},
		{"sat no model", lia, "sat\n", "UNKNOWN no-output", Options{}},
		{"error model", lia, "sat\n(error \"no model\")\n", "UNKNOWN no-output", Options{}},
		{"garbage", lia, "sat\n)x(\n", "UNKNOWN parse-error", Options{}},
		{"not a model", lia, "sat\n(foo bar)\n", "UNKNOWN parse-error", Options{}},
		{"truncated", lia, "sat\n((define-fun x () Int 3) (define-fun y () Int", "UNKNOWN truncated", Options{}},
		{"missing", lia, "sat\n((define-fun x () Int 3))", "UNKNOWN missing-definition", Options{}},
		{"missing, needed", lia, "sat\n((define-fun x () Int 3))", "UNKNOWN missing-definition", Options{NeededOnly: true}},
		{"missing, decided", lia, "sat\n((define-fun x () Int 3))", "UNKNOWN missing-definition", Options{}},
		{"twice", lia, "sat\n((define-fun x () Int 3) (define-fun y () Int 1) (define-fun y () Int 1))", "UNKNOWN extra-definition", Options{}},
		{"wrong sort", lia, "sat\n((define-fun x () Real 3.0) (define-fun y () Int 1))", "UNKNOWN sort-error", Options{}},
		{"cycle", lia, "sat\n((define-fun x () Int y) (define-fun y () Int x))", "UNKNOWN cyclic-definition", Options{}},
		{"partial", nia, "sat\n((define-fun x () Int 3))", "UNKNOWN partial-function", Options{}},
		{"div0", nia, "sat\n((define-fun x () Int 3) (define-fun div0 ((a Int) (b Int)) Int 3))", "VALID", Options{}},
		{"div0 wrong", nia, "sat\n((define-fun x () Int 3) (define-fun div0 ((a Int) (b Int)) Int 4))", "INVALID bad-model", Options{}},
		{"div shadow", nia, "sat\n((define-fun x () Int 3) (define-fun div ((a Int) (b Int)) Int (ite (= b 0) 3 (div a b))))", "VALID", Options{}},
		{"z3 universe", uf, "sat\n((declare-fun U!val!0 () U) (declare-fun U!val!1 () U) (forall ((x U)) (or (= x U!val!0) (= x U!val!1))) (define-fun a () U U!val!0) (define-fun b () U U!val!1) (define-fun f ((x!0 U)) U U!val!1))", "VALID", Options{}},
		{"cvc5 abstract", uf, "sat\n((define-fun a () U (as @U_0 U)) (define-fun b () U (as @U_1 U)) (define-fun f ((x U)) U (ite (= x (as @U_0 U)) (as @U_1 U) (as @U_0 U))))", "VALID", Options{}},
		{"cvc4 abstract", uf, "sat\n(model (declare-sort U 0) (define-fun a () U @uc_U_0) (define-fun b () U @uc_U_1) (define-fun f ((x U)) U @uc_U_1))", "VALID", Options{}},
		{"abstract equal", uf, "sat\n((define-fun a () U (as @U_0 U)) (define-fun b () U (as @U_0 U)) (define-fun f ((x U)) U (as @U_0 U)))", "INVALID bad-model", Options{}},
		{"quantifier", "(declare-fun x () Int)\n(assert (forall ((y Int)) (> x y)))\n(check-sat)\n", "sat\n((define-fun x () Int 1))", "UNKNOWN unsupported", Options{}},
		{"kleene", "(declare-fun x () Int)\n(declare-fun z () Int)\n(assert (or (> x 0) (= z 1)))\n(check-sat)\n", "sat\n((define-fun x () Int 1))", "VALID", Options{NeededOnly: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := check(t, tt.bench, tt.resp, tt.opts)
			if res.String() != tt.want {
				t.Errorf("got %s (%s), want %s", res, res.Detail, tt.want)
			}
		})
	}
}

func bvCase(t *testing.T, decls, assertion, model, want string) {
	t.Helper()
	res := check(t, "(set-logic ALL)\n"+decls+"(assert "+assertion+")\n(check-sat)\n", "sat\n("+model+")", Options{})
	if res.String() != want {
		t.Errorf("%s: got %s (%s), want %s", assertion, res, res.Detail, want)
	}
}

// TestTheories: operators of each theory on cases that follow the theory's
// text.
func TestTheories(t *testing.T) {
	for _, c := range [][2]string{
		{"(= (div (- 7) 2) (- 4))", "VALID"}, {"(= (mod (- 7) 2) 1)", "VALID"}, {"(= (div 7 (- 2)) (- 3))", "VALID"},
		{"(= (mod 7 (- 2)) 1)", "VALID"}, {"(= (to_int (- 1.5)) (- 2))", "VALID"}, {"(is_int 2.0)", "VALID"},
		{"(= (/ 1 3) (/ 2 6))", "VALID"}, {"(= (abs (- 5)) 5)", "VALID"}, {"(< 1 2 3)", "VALID"}, {"(< 1 3 2)", "INVALID bad-model"},
		{"(= (* 99999999999 99999999999 99999999999) 999999999970000000000299999999999)", "VALID"},
		{"(= (+ 9223372036854775807 1) 9223372036854775808)", "VALID"},
		{"((_ divisible 3) 9)", "VALID"}, {"(xor true false true)", "INVALID bad-model"}, {"(=> true false true)", "VALID"},
		{"(distinct 1 2 3 1)", "INVALID bad-model"},
		// bit-vectors: the total semantics of division by zero, signed operators
		{"(= (bvudiv #x07 #x00) #xff)", "VALID"}, {"(= (bvurem #x07 #x00) #x07)", "VALID"},
		{"(= (bvsdiv #xf9 #x00) #x01)", "VALID"}, {"(= (bvsdiv #x07 #x00) #xff)", "VALID"},
		{"(= (bvsrem #xf9 #x02) #xff)", "VALID"}, {"(= (bvsmod #xf9 #x02) #x01)", "VALID"}, {"(= (bvsmod #x07 #xfe) #xff)", "VALID"},
		{"(= (bvsmod #xf9 #x00) #xf9)", "VALID"}, {"(= (bvashr #x80 #x09) #xff)", "VALID"}, {"(= (bvshl #x01 #x08) #x00)", "VALID"},
		{"(= ((_ extract 7 4) #xa5) #xa)", "VALID"}, {"(= (concat #b1 #x0) #b10000)", "VALID"}, {"(= ((_ repeat 3) #b10) #b101010)", "VALID"},
		{"(= ((_ sign_extend 4) #x8) #xf8)", "VALID"}, {"(= ((_ zero_extend 4) #x8) #x08)", "VALID"},
		{"(= ((_ rotate_left 1) #x81) #x03)", "VALID"}, {"(= ((_ rotate_right 1) #x81) #xc0)", "VALID"},
		{"(= (bvcomp #x01 #x01) #b1)", "VALID"}, {"(= (bv2nat #xff) 255)", "VALID"}, {"(= ((_ nat2bv 4) 17) #x1)", "VALID"},
		{"(bvslt #x80 #x7f)", "VALID"}, {"(bvult #x80 #x7f)", "INVALID bad-model"}, {"(= (_ bv5 8) #x05)", "VALID"},
		{"(= (bvmul #xffffffffffffffffffff #x00000000000000000002) #xfffffffffffffffffffe)", "VALID"},
		{"(= (bvudiv #x00000000000000000000 #x00000000000000000000) #xffffffffffffffffffff)", "VALID"},
		// arrays
		{"(= (select (store ((as const (Array Int Int)) 0) 1 5) 1) 5)", "VALID"},
		{"(= (store ((as const (Array Int Int)) 0) 1 0) ((as const (Array Int Int)) 0))", "VALID"},
		{"(= (store (store ((as const (Array Bool Int)) 0) true 1) false 1) ((as const (Array Bool Int)) 1))", "VALID"},
		{"(= (store ((as const (Array Int Int)) 0) 1 1) ((as const (Array Int Int)) 0))", "INVALID bad-model"},
	} {
		bvCase(t, "", c[0], "", c[1])
	}
	// z3's as-array and lambda forms against a store chain
	bvCase(t, "(declare-fun a () (Array Int Int))\n", "(= a (store ((as const (Array Int Int)) 7) 3 5))",
		"(define-fun a () (Array Int Int) (_ as-array k!0)) (define-fun k!0 ((x!0 Int)) Int (ite (= x!0 3) 5 7))", "VALID")
	bvCase(t, "(declare-fun a () (Array Int Int))\n", "(= a (store ((as const (Array Int Int)) 7) 3 5))",
		"(define-fun a () (Array Int Int) (lambda ((x Int)) (ite (= x 3) 5 7)))", "VALID")
	bvCase(t, "(declare-fun a () (Array Int Int))\n", "(= (select a 4) 8)",
		"(define-fun a () (Array Int Int) (lambda ((x Int)) (+ x 4)))", "VALID")
	// datatypes
	dt := "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))\n(declare-fun l () L)\n"
	bvCase(t, dt, "(and ((_ is cons) l) (= (hd l) 1) (= (tl l) nil))", "(define-fun l () L (cons 1 nil))", "VALID")
	bvCase(t, dt, "(= (hd (tl l)) 1)", "(define-fun l () L (cons 1 nil))", "UNKNOWN partial-function")
	bvCase(t, dt, "(= (match l ((nil 0) ((cons h t) h))) 1)", "(define-fun l () L (cons 1 nil))", "VALID")
	// strings and floating point are not evaluated: never a wrong verdict
	bvCase(t, "(declare-fun s () String)\n", "(= s \"a\")", "(define-fun s () String \"a\")", "UNKNOWN unsupported")
}

// TestHostile: responses meant to break a validator get a verdict or a
// clear UNKNOWN, within the limits, with a small Go stack.
func TestHostile(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	lia := "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> x 0))\n(check-sat)\n"
	deep := func(n int) string {
		var b strings.Builder
		b.WriteString("sat\n((define-fun x () Int ")
		for range n {
			b.WriteString("(ite (= 1 1) ")
		}
		b.WriteString("5")
		for range n {
			b.WriteString(" 0)")
		}
		b.WriteString("))")
		return b.String()
	}
	deepCond := func(n int) string {
		var b strings.Builder
		b.WriteString("sat\n((define-fun x () Int (ite ")
		for range n {
			b.WriteString("(not ")
		}
		b.WriteString("true")
		for range n {
			b.WriteString(")")
		}
		b.WriteString(" 1 0)))")
		return b.String()
	}
	for _, tt := range []struct {
		name, bench, resp, want string
		opts                    Options
	}{
		{"million-deep ite", lia, deep(1_000_000), "VALID", Options{}},
		{"million-deep condition", lia, deepCond(1_000_000), "VALID", Options{}},
		{"million digits", lia, "sat\n((define-fun x () Int " + strings.Repeat("7", 1_000_000) + "))", "UNKNOWN resource", Options{}},
		{"width 2^20", "(declare-fun v () (_ BitVec 1048576))\n(assert (= (bvadd v v) (bvshl v (_ bv1 1048576))))\n(check-sat)\n",
			"sat\n((define-fun v () (_ BitVec 1048576) (_ bv12345 1048576)))", "VALID", Options{}},
		{"calls itself", "(declare-fun f (Int) Int)\n(assert (= (f 1) 1))\n(check-sat)\n",
			"sat\n((define-fun f ((a Int)) Int (f a)))", "UNKNOWN cyclic-definition", Options{}},
		{"garbage", lia, "\x00\x01\xff((((", "UNKNOWN parse-error", Options{}},
		{"other benchmark", lia, "sat\n((define-fun y () Int 1))", "UNKNOWN missing-definition", Options{}},
		{"too large", lia, "sat\n((define-fun x () Int 1)" + strings.Repeat(" ", 2<<20) + ")", "UNKNOWN resource", Options{MaxResponse: 1 << 20}},
		{"huge repeat", "(declare-fun v () (_ BitVec 8))\n(assert (= ((_ repeat 100000000) v) ((_ repeat 100000000) v)))\n(check-sat)\n",
			"sat\n((define-fun v () (_ BitVec 8) #x01))", "UNKNOWN resource", Options{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res := check(t, tt.bench, tt.resp, tt.opts)
			if res.String() != tt.want {
				t.Errorf("got %s (%s), want %s", res, res.Detail, tt.want)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Logf("took %s", d)
			}
		})
	}
}

// TestTimeout: the validator's own time limit gives UNKNOWN resource.
func TestTimeout(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("(declare-fun x () Int)\n")
	for range 20000 {
		b.WriteString("(assert (> (* x x x x x x x x) 0))\n")
	}
	b.WriteString("(check-sat)\n")
	res := check(t, b.String(), "sat\n((define-fun x () Int 12345678901234567890))", Options{Timeout: time.Nanosecond})
	if res.Reason != ReasonResource {
		t.Errorf("got %s, want UNKNOWN resource", res)
	}
}

// TestPositions: a false assertion is named with its line and column
// also in a benchmark read in several chunks.
func TestPositions(t *testing.T) {
	var b strings.Builder
	b.WriteString("(declare-fun x () Int)\n")
	for b.Len() < 3*chunkSize {
		b.WriteString("(assert (> x 0))\n")
	}
	lines := strings.Count(b.String(), "\n")
	b.WriteString("  (assert (< x 0))\n(check-sat)\n")
	res := check(t, b.String(), "sat\n((define-fun x () Int 1))", Options{})
	want := "b.smt2:" + itoa(lines+1) + ":3"
	if res.String() != "INVALID bad-model" || res.Position != want {
		t.Errorf("got %s at %s, want INVALID bad-model at %s", res, res.Position, want)
	}
}

// TestChunkGuess: a quoted symbol with lines that start with '(' across the
// end of a chunk is not taken for the end of a command.
func TestChunkGuess(t *testing.T) {
	var b strings.Builder
	b.WriteString("(declare-fun x () Int)\n")
	for b.Len() < chunkSize-200 {
		b.WriteString("(assert (> x 0))\n")
	}
	b.WriteString("(set-info :source |notes\n")
	for range 40 {
		b.WriteString("(assert false)\n")
	}
	b.WriteString("|)\n(set-info :note \"a\n(assert false)\n\")\n")
	for b.Len() < 2*chunkSize+500 {
		b.WriteString("(assert (> x 0))\n")
	}
	lines := strings.Count(b.String(), "\n")
	b.WriteString("(assert (< x 5))\n(check-sat)\n")
	res := check(t, b.String(), "sat\n((define-fun x () Int 1))", Options{})
	if res.String() != "VALID" {
		t.Fatalf("got %s (%s) at %s", res, res.Detail, res.Position)
	}
	res = check(t, b.String(), "sat\n((define-fun x () Int 7))", Options{})
	if want := "b.smt2:" + itoa(lines+1) + ":1"; res.String() != "INVALID bad-model" || res.Position != want {
		t.Errorf("got %s at %s, want INVALID bad-model at %s", res, res.Position, want)
	}
}

// TestRecursion: a benchmark's recursive function is evaluated, an endless
// one ends in UNKNOWN resource; a model's define-fun-rec may not recurse.
func TestRecursion(t *testing.T) {
	fact := "(define-fun-rec fact ((n Int)) Int (ite (<= n 0) 1 (* n (fact (- n 1)))))\n(declare-fun x () Int)\n(assert (= (fact x) 120))\n(check-sat)\n"
	if res := check(t, fact, "sat\n((define-fun x () Int 5))", Options{}); res.String() != "VALID" {
		t.Errorf("fact: %s (%s)", res, res.Detail)
	}
	loop := "(define-fun-rec f ((n Int)) Int (f (+ n 1)))\n(declare-fun x () Int)\n(assert (= (f x) 1))\n(check-sat)\n"
	if res := check(t, loop, "sat\n((define-fun x () Int 5))", Options{}); res.String() != "UNKNOWN resource" {
		t.Errorf("endless: %s (%s)", res, res.Detail)
	}
	rec := "(declare-fun g (Int) Int)\n(assert (= (g 3) 3))\n(check-sat)\n"
	if res := check(t, rec, "sat\n((define-fun-rec g ((n Int)) Int (ite (= n 0) 0 (+ 1 (g (- n 1))))))", Options{}); res.String() != "UNKNOWN cyclic-definition" {
		t.Errorf("model recursion: %s (%s)", res, res.Detail)
	}
}

// TestUnspecified: an unspecified value is one value: the same
// application twice is equal to itself, whatever the value.
func TestUnspecified(t *testing.T) {
	for _, c := range [][2]string{
		{"(= (div x 0) (div x 0))", "VALID"},
		{"(= (div x 0) (div (+ x 0) 0))", "VALID"},
		{"(distinct (div x 0) (div x 0))", "INVALID bad-model"},
		{"(= (div x 0) (div (+ x 1) 0))", "UNKNOWN partial-function"},
		{"(= (fp.to_real (_ +oo 3 5)) (fp.to_real (fp #b0 #b111 #b0000)))", "VALID"},
		{"(= (ite (> x 0) (div x 0) (div x 0)) (div x 0))", "VALID"},
		// an application to an unspecified value is not that value
		{"(= (+ (div x 0) 1) (div x 0))", "UNKNOWN partial-function"},
		{"(= (* (div x 0) 1) (div x 0))", "UNKNOWN partial-function"},
		{"(let ((y (div x 0))) (= y (div x 0)))", "VALID"},
	} {
		bvCase(t, "(declare-fun x () Int)\n", c[0], "(define-fun x () Int 3)", c[1])
	}
}

// TestQuickIntOverflow: linear integer terms at the int64 limits give what
// exact arithmetic gives, whether the int64 fast path or math/big computes
// them, also nested, with let-bound and Real operands.
func TestQuickIntOverflow(t *testing.T) {
	const max, min = "9223372036854775807", "9223372036854775808" // 2^63-1, 2^63
	bench := "(set-logic QF_LIA)\n(declare-fun x () Int)\n(declare-fun y () Int)\n(declare-fun z () Int)\n(assert (and (= x x) (= y y) (= z z)))\n(assert %s)\n(check-sat)\n"
	resp := "sat\n((define-fun x () Int " + max + ") (define-fun y () Int (- " + min + ")) (define-fun z () Int (- 1)))"
	for _, tt := range []struct{ assert, want string }{
		{"(= (+ x 1) " + min + ")", "VALID"},
		{"(= (+ x 1) (- " + min + "))", "INVALID bad-model"},
		{"(= (- y 1) (- 9223372036854775809))", "VALID"},
		{"(= (- y) " + min + ")", "VALID"},
		{"(= (* y z) " + min + ")", "VALID"},
		{"(= (* z y) " + min + ")", "VALID"},
		{"(= (* x x) 85070591730234615847396907784232501249)", "VALID"},
		{"(= (+ (* 2 x) (* (- 2) x) z) (- 1))", "VALID"},
		{"(= (- (+ x x) x x) 0)", "VALID"},
		{"(= (+ y (- 1) 1) y)", "VALID"},
		{"(let ((v (+ x 1))) (= (- v 1) x))", "VALID"},
		{"(let ((v (+ x z))) (and (<= v x) (>= (+ v 2) x) (= (* v 1) 9223372036854775806)))", "VALID"},
		{"(= (+ (+ (+ (+ (+ x 1) 1) 1) 1) 1) 9223372036854775812)", "VALID"},
		{"(= (+ x 1) (+ x 2))", "INVALID bad-model"},
	} {
		t.Run(tt.assert, func(t *testing.T) {
			res := check(t, strings.Replace(bench, "%s", tt.assert, 1), resp, Options{})
			if res.String() != tt.want {
				t.Errorf("%s: got %s (%s), want %s", tt.assert, res, res.Detail, tt.want)
			}
		})
	}
}
