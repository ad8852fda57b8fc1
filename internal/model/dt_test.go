package model

import (
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// pdtDecls declares parametric datatypes as the SMT-LIB 2.6 standard's
// examples do (§4.2.3): lists, pairs, options, a mutually recursive tree
// and forest, a non-parametric datatype whose field is an instance of a
// parametric one declared with it, and a datatype with an array field.
const pdtDecls = `(set-logic ALL)
(declare-datatypes ((List 1)) ((par (T) ((nil) (cons (head T) (tail (List T)))))))
(declare-datatypes ((Pair 2)) ((par (A B) ((mkpair (fst A) (snd B))))))
(declare-datatypes ((Option 1)) ((par (T) ((none) (some (val T))))))
(declare-datatypes ((Tree 1) (Forest 1)) ((par (T) ((node (value T) (children (Forest T))))) (par (T) ((leaf) (grow (first (Tree T)) (rest (Forest T)))))))
(declare-datatypes ((Expr 0) (Args 1)) (((num (n Int)) (app (fn Int) (args (Args Expr)))) (par (T) ((anil) (acons (ahd T) (atl (Args T)))))))
(declare-datatypes ((Store 1)) ((par (T) ((mk (arr (Array Int T)))))))
(define-sort IntList () (List Int))
(declare-const l (List Int))
(declare-const lb (List Bool))
(declare-const ll (List (List Int)))
(declare-const p (Pair Int Bool))
(declare-const o (Option (List Bool)))
(declare-const t (Tree Int))
(declare-const x Expr)
(declare-const s (Store Bool))
(declare-fun f (Int) (List Int))
(declare-fun g ((List Int)) Int)
`

// pdtModel is a model of every constant of pdtDecls, in z3's way of
// printing (constructors qualified only where their sort is not implied).
const pdtModel = `(define-fun l () (List Int) (cons 1 (cons 2 (as nil (List Int)))))
(define-fun lb () (List Bool) (as nil (List Bool)))
(define-fun ll () (List (List Int)) (cons (as nil (List Int)) (cons (cons 3 nil) (as nil (List (List Int))))))
(define-fun p () (Pair Int Bool) (mkpair 7 true))
(define-fun o () (Option (List Bool)) (some (as nil (List Bool))))
(define-fun t () (Tree Int) (node 0 (grow (node 1 leaf) leaf)))
(define-fun x () Expr (app 5 (acons (num 2) anil)))
(define-fun s () (Store Bool) (mk (store ((as const Array) true) 4 false)))
(define-fun f ((x!0 Int)) (List Int) (ite (= x!0 2) (cons 3 (as nil (List Int))) (as nil (List Int))))
(define-fun g ((x!0 (List Int))) Int (ite (= x!0 (as nil (List Int))) 10 (head x!0)))
`

// pdtModelCVC5 is the same model as cvc5 prints it: every constructor
// application qualified with its sort.
const pdtModelCVC5 = `(define-fun l () (List Int) ((as cons (List Int)) 1 ((as cons (List Int)) 2 (as nil (List Int)))))
(define-fun lb () (List Bool) (as nil (List Bool)))
(define-fun ll () (List (List Int)) ((as cons (List (List Int))) (as nil (List Int)) ((as cons (List (List Int))) ((as cons (List Int)) 3 (as nil (List Int))) (as nil (List (List Int))))))
(define-fun p () (Pair Int Bool) ((as mkpair (Pair Int Bool)) 7 true))
(define-fun o () (Option (List Bool)) ((as some (Option (List Bool))) (as nil (List Bool))))
(define-fun t () (Tree Int) ((as node (Tree Int)) 0 ((as grow (Forest Int)) ((as node (Tree Int)) 1 (as leaf (Forest Int))) (as leaf (Forest Int)))))
(define-fun x () Expr (app 5 ((as acons (Args Expr)) (num 2) (as anil (Args Expr)))))
(define-fun s () (Store Bool) ((as mk (Store Bool)) (store ((as const (Array Int Bool)) true) 4 false)))
(define-fun f ((_arg_1 Int)) (List Int) (ite (= _arg_1 2) ((as cons (List Int)) 3 (as nil (List Int))) (as nil (List Int))))
(define-fun g ((_arg_1 (List Int))) Int (ite (= _arg_1 (as nil (List Int))) 10 (head _arg_1)))
`

// pdtCase checks one assertion over pdtDecls under a model.
func pdtCase(t *testing.T, assertion, model, want string) {
	t.Helper()
	res := check(t, pdtDecls+"(assert "+assertion+")\n(check-sat)\n", "sat\n("+model+")", Options{})
	if res.String() != want {
		t.Errorf("%s: got %s (%s), want %s", assertion, res, res.Detail, want)
	}
}

// TestParametricDatatypes: every datatype operator on instances of
// parametric datatypes, on cases that follow the SMT-LIB 2.6 theory of
// datatypes (constructors are injective and disjoint, testers tell them
// apart, selectors invert constructors and are unspecified on the other
// constructors, match takes the first pattern that matches).
func TestParametricDatatypes(t *testing.T) {
	cases := [][2]string{
		// constructors, equality and distinct of instances
		{"(= l (cons 1 (cons 2 (as nil (List Int)))))", "VALID"},
		{"(= l ((as cons (List Int)) 1 ((as cons (List Int)) 2 (as nil (List Int)))))", "VALID"},
		{"(= l (cons 1 (cons 2 nil)))", "VALID"},
		{"(= l (cons 1 (cons 3 nil)))", "INVALID bad-model"},
		{"(= l (cons 1 nil))", "INVALID bad-model"},
		{"(= lb (as nil (List Bool)))", "VALID"},
		{"(= lb nil)", "VALID"},
		{"(= lb (cons true nil))", "INVALID bad-model"},
		{"(distinct l (as nil (List Int)) (cons 1 nil) (cons 2 (cons 1 nil)))", "VALID"},
		{"(distinct l (as nil (List Int)) (cons 1 (cons 2 nil)))", "INVALID bad-model"},
		{"(= ll (cons nil (cons (cons 3 nil) nil)))", "VALID"},
		{"(= ll (cons (as nil (List Int)) (cons (cons 4 nil) nil)))", "INVALID bad-model"},
		{"(= (as nil IntList) (tail (tail l)))", "VALID"},
		{"(= p (mkpair 7 true))", "VALID"},
		{"(= p ((as mkpair (Pair Int Bool)) 7 false))", "INVALID bad-model"},
		{"(= o (some nil))", "VALID"},
		{"(= o (as none (Option (List Bool))))", "INVALID bad-model"},
		{"(= o (some (cons false nil)))", "INVALID bad-model"},
		// selectors, and their partiality
		{"(and (= (head l) 1) (= (head (tail l)) 2) (= (tail (tail l)) nil))", "VALID"},
		{"(= (head l) 2)", "INVALID bad-model"},
		{"(and (= (fst p) 7) (snd p))", "VALID"},
		{"(not (snd p))", "INVALID bad-model"},
		{"(= (head (head (tail ll))) 3)", "VALID"},
		{"(= (val o) nil)", "VALID"},
		{"(= (head (tail (tail l))) 5)", "UNKNOWN partial-function"},
		{"(= (head (tail (tail l))) (head (tail (tail l))))", "VALID"},
		{"(or (= (head lb) true) (= (head l) 1))", "VALID"},
		{"(= (+ (head (tail (tail l))) 1) (head (tail (tail l))))", "UNKNOWN partial-function"},
		{"(= (cons (head lb) nil) (cons (head lb) (cons true nil)))", "UNKNOWN partial-function"},
		{"(= (tail (tail lb)) (tail lb))", "UNKNOWN partial-function"},
		{"(= (match (head lb) ((z z))) (head lb))", "UNKNOWN partial-function"},
		{"(= (g (tail (head ll))) (g (tail (head ll))))", "UNKNOWN partial-function"}, // true, but not derived
		{"(= (g (tail (head ll))) (head (tail (head ll))))", "UNKNOWN partial-function"},
		{"(and (= (head lb) true) (= (head l) 2))", "INVALID bad-model"},
		// testers, both spellings
		{"(and (is-cons l) ((_ is cons) (tail l)) ((_ is nil) (tail (tail l))) (is-nil lb))", "VALID"},
		{"((_ is nil) l)", "INVALID bad-model"},
		{"(and (is-some o) (not ((_ is none) o)) (is-nil (head ll)))", "VALID"},
		// match
		{"(= (match l ((nil 0) ((cons h r) h))) 1)", "VALID"},
		{"(= (match l ((nil 0) ((cons h r) h))) 2)", "INVALID bad-model"},
		{"(= (match lb (((cons h r) 1) (nil 0))) 0)", "VALID"},
		{"(= (match (tail l) (((cons h r) (+ h (match r ((nil 0) (y 9))))) (nil 0))) 2)", "VALID"},
		{"(match p (((mkpair a b) (and (= a 7) b))))", "VALID"},
		{"(= (match o ((none 0) ((some v) (match v ((nil 1) (z 2)))))) 1)", "VALID"},
		{"(= (match l (((cons h) 0) (z 1))) 1)", "UNKNOWN sort-error"},
		// functions of the model and of the benchmark over instances
		{"(and (= (f 2) (cons 3 nil)) (= (f 1) nil))", "VALID"},
		{"(= (f 0) (cons 3 nil))", "INVALID bad-model"},
		{"(and (= (g nil) 10) (= (g l) 1) (= (g (cons 4 nil)) 4))", "VALID"},
		{"(= (g (as nil (List Int))) 11)", "INVALID bad-model"},
		// mutually recursive parametric datatypes, and a non-parametric
		// one with an instance field
		{"(and (= (value t) 0) (is-grow (children t)) (= (value (first (children t))) 1) (is-leaf (rest (children t))))", "VALID"},
		{"(= t (node 0 (grow (node 1 leaf) leaf)))", "VALID"},
		{"(= t (node 0 (grow (node 2 leaf) leaf)))", "INVALID bad-model"},
		{"(= (children (first (children t))) (as leaf (Forest Int)))", "VALID"},
		{"(and (= (fn x) 5) (= (n (ahd (args x))) 2) (= (atl (args x)) anil))", "VALID"},
		{"(= x (app 5 (acons (num 3) anil)))", "INVALID bad-model"},
		// array fields
		{"(and (select (arr s) 3) (not (select (arr s) 4)))", "VALID"},
		{"(= (arr s) (store ((as const (Array Int Bool)) true) 4 false))", "VALID"},
		{"(select (arr s) 4)", "INVALID bad-model"},
		// sorts that cannot be determined, or do not match
		{"(= nil nil)", "UNKNOWN sort-error"},
		{"(= (cons nil nil) (cons nil nil))", "UNKNOWN sort-error"},
		{"(= l (as nil (List Bool)))", "UNKNOWN sort-error"},
		{"(= l (cons true nil))", "UNKNOWN sort-error"},
		{"(= l ((as cons (List Bool)) 1 nil))", "UNKNOWN sort-error"},
		{"(= l (as nil Int))", "UNKNOWN sort-error"},
		{"(is-cons p)", "UNKNOWN sort-error"},
		{"(= (head p) 1)", "UNKNOWN sort-error"},
	}
	for _, c := range cases {
		pdtCase(t, c[0], pdtModel, c[1])
		pdtCase(t, c[0], pdtModelCVC5, c[1])
	}
	// An Int where a Real is expected is converted, in instances too, as
	// z3 reads it (cvc5 rejects such a benchmark).
	real := "(set-logic ALL)\n(declare-datatypes ((List 1)) ((par (T) ((nil) (cons (head T) (tail (List T)))))))\n" +
		"(declare-const l (List Real))\n(declare-const r Real)\n"
	for _, c := range [][2]string{
		{"(and (= l (cons 1 (as nil (List Real)))) (= (head l) (+ r 0.5)))", "VALID"},
		{"(= l (cons (/ 1 2) (as nil (List Real))))", "INVALID bad-model"},
		{"(= (cons r (cons 1.0 nil)) (cons 0.5 (cons 1 (as nil (List Real)))))", "VALID"},
		// (cons 1 nil) alone is a (List Int): not converted
		{"(= l (cons 1.0 (cons 1 nil)))", "UNKNOWN sort-error"},
		{"(= (cons (cons 1 nil) (as nil (List (List Real)))) (as nil (List (List Real))))", "UNKNOWN sort-error"},
	} {
		res := check(t, real+"(assert "+c[0]+")\n(check-sat)\n", "sat\n((define-fun r () Real (/ 1.0 2.0)) (define-fun l () (List Real) (cons 1.0 nil)))", Options{})
		if res.String() != c[1] {
			t.Errorf("%s: got %s (%s), want %s", c[0], res, res.Detail, c[1])
		}
	}
	// Models whose values have the wrong instance, or none.
	for _, c := range [][3]string{
		{"l", "(define-fun l () (List Int) (as nil (List Bool)))", "UNKNOWN sort-error"},
		{"l", "(define-fun l () (List Int) (cons true nil))", "UNKNOWN sort-error"},
		{"l", "(define-fun l () (List Bool) (as nil (List Bool)))", "UNKNOWN sort-error"},
		{"l", "(define-fun l () (List Int) nil)", "INVALID bad-model"},
		{"s", "(define-fun s () (Store Bool) (mk ((as const Array) 1)))", "UNKNOWN sort-error"},
		{"ll", "(define-fun ll () (List (List Int)) (cons nil nil))", "VALID"},
		{"ll", "(define-fun ll () (List (List Int)) nil)", "INVALID bad-model"},
		{"ll", "(define-fun ll () (List (List Int)) (cons (cons false nil) nil))", "UNKNOWN sort-error"},
	} {
		model := replaceDef(pdtModel, c[0], c[1])
		pdtCase(t, "(and (is-cons l) (is-cons ll) (select (arr s) 3))", model, c[2])
	}
	t.Logf("%d assertions x 2 model styles, 8 models with wrong or undetermined sorts", len(cases))
}

// replaceDef replaces the definition of name in a model text.
func replaceDef(model, name, def string) string {
	var out []string
	for _, line := range strings.Split(model, "\n") {
		if strings.HasPrefix(line, "(define-fun "+name+" ") {
			line = def
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// TestParametricDatatypeDecls: the cvc4 way (the model repeats the
// declarations), a declaration whose arity does not match its par, and a
// sort that grows with the depth of a value of a nested datatype.
func TestParametricDatatypeDecls(t *testing.T) {
	res := check(t, pdtDecls+"(assert (= (head l) 1))\n(check-sat)\n",
		"sat\n(model\n(declare-datatypes ((List 1)) ((par (T)((nil) (cons (head T) (tail (List T)))))))\n"+pdtModelCVC5+")", Options{})
	if res.String() != "VALID" {
		t.Errorf("cvc4 style: got %s (%s)", res, res.Detail)
	}
	bad := "(declare-datatypes ((List 2)) ((par (T) ((nil) (cons (head T) (tail (List T)))))))\n(declare-const l (List Int))\n(assert (is-nil l))\n(check-sat)\n"
	if _, err := Validate(t.Context(), "b.smt2", strings.NewReader(bad), "r", strings.NewReader("sat\n((define-fun l () (List Int) nil))"), Options{}); err == nil ||
		!strings.Contains(err.Error(), "declared with 2 parameters and defined with 1") {
		t.Errorf("arity mismatch: got error %v", err)
	}
	nest := "(declare-datatypes ((Nest 1)) ((par (T) ((flat (v T)) (deep (d (Nest (List T))))))))\n" +
		"(declare-datatypes ((List 1)) ((par (T) ((nil) (cons (head T) (tail (List T)))))))\n" +
		"(declare-const n (Nest Int))\n(assert (is-deep n))\n(assert (and (is-flat (d (d n))) (is-nil (v (d (d n))))))\n(check-sat)\n"
	for _, c := range []struct {
		depth int
		want  string
	}{{2, "VALID"}, {3, "INVALID bad-model"}, {5000, "UNKNOWN resource"}} {
		val := strings.Repeat("(deep ", c.depth) + "(flat nil)" + strings.Repeat(")", c.depth)
		res = check(t, nest, "sat\n((define-fun n () (Nest Int) "+val+"))", Options{})
		if res.String() != c.want {
			t.Errorf("nested datatype, depth %d: got %s (%s), want %s", c.depth, res, res.Detail, c.want)
		}
	}
}

// TestParametricDatatypeHostile: deep values of instances are typed,
// compared, keyed and explained in time linear in their size, and a deep
// value whose sort its context gives is typed as deep as it goes.
func TestParametricDatatypeHostile(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	const n = 200000
	bench := "(set-logic ALL)\n(declare-datatypes ((List 1)) ((par (T) ((nil) (cons (head T) (tail (List T)))))))\n" +
		"(declare-const l (List Int))\n(declare-const a (Array (List Int) Int))\n(declare-const ll (List (List Int)))\n"
	typed := "(define-fun l () (List Int) " + strings.Repeat("(cons 1 ", n) + "(as nil (List Int))" + strings.Repeat(")", n) + ")\n" +
		"(define-fun a () (Array (List Int) Int) (store ((as const (Array (List Int) Int)) 0) l 5))"
	untyped := "(define-fun l () (List Int) " + strings.Repeat("(cons 1 ", n) + "nil" + strings.Repeat(")", n) + ")\n" +
		"(define-fun a () (Array (List Int) Int) ((as const (Array (List Int) Int)) 0))"
	nils := "(define-fun l () (List Int) nil) (define-fun ll () (List (List Int)) " + strings.Repeat("(cons nil ", n) + "nil" + strings.Repeat(")", n) + ")\n" +
		"(define-fun a () (Array (List Int) Int) ((as const (Array (List Int) Int)) 0))"
	typed += "(define-fun ll () (List (List Int)) nil)"
	untyped += "(define-fun ll () (List (List Int)) nil)"
	for _, c := range []struct{ name, assertion, model, want string }{
		{"typed", "(and (= l l) (distinct l (tail l)) (= (select a l) 5) (= (select a (tail l)) 0))", typed, "VALID"},
		{"typed false", "(= (head (tail l)) 2)", typed, "INVALID bad-model"},
		{"typed by context", "(and (= l l) (is-cons (tail l)))", untyped, "VALID"},
		{"deep, typed by context", "(and (is-nil l) (= (head (tail ll)) nil) (distinct ll (tail ll)))", nils, "VALID"},
		{"deep, wrong sort", "(is-nil l)", strings.Replace(nils, "(List (List Int)) (cons", "(List Int) (cons", 1), "UNKNOWN sort-error"},
	} {
		start := time.Now()
		res := check(t, bench+"(assert "+c.assertion+")\n(check-sat)\n", "sat\n("+c.model+")", Options{})
		if res.String() != c.want {
			t.Errorf("%s: got %s (%s), want %s", c.name, res, clip(res.Detail, 200), c.want)
		}
		t.Logf("%s: %s in %v", c.name, res, time.Since(start))
	}
}

// pdtUBench has instances over an uninterpreted sort, over bit-vectors, a
// parametric define-sort and instances as array indices; pdtUZ3 and
// pdtUCVC5 are the models z3 4.8.12 and cvc5 print for it.
const pdtUBench = `(set-logic ALL)
(set-option :produce-models true)
(declare-sort U 0)
(declare-datatypes ((Lst 1)) ((par (T) ((lnil) (lcons (hd T) (tl (Lst T)))))))
(declare-datatypes ((Pair 2)) ((par (A B) ((mkpair (fst A) (snd B))))))
(define-sort L (X) (Lst X))
(declare-const l (L U))
(declare-const m (Lst (_ BitVec 4)))
(declare-const p (Pair U (Lst U)))
(declare-fun f (U) (Lst U))
(declare-const a (Array (Lst Int) Int))
(assert (is-lcons l))
(assert (is-lcons (tl l)))
(assert (distinct (hd l) (hd (tl l))))
(assert (= (f (hd l)) (tl l)))
(assert (= (snd p) (f (fst p))))
(assert (is-lcons m))
(assert (bvugt (hd m) #x3))
(assert (= (select a (as lnil (Lst Int))) 3))
(assert (= (select a (lcons 1 (as lnil (Lst Int)))) 4))
(check-sat)
`

const pdtUZ3 = `sat
(
  ;; universe for U:
  ;;   U!val!2 U!val!1 U!val!0 
  ;; -----------
  ;; definitions for universe elements:
  (declare-fun U!val!2 () U)
  (declare-fun U!val!1 () U)
  (declare-fun U!val!0 () U)
  ;; cardinality constraint:
  (forall ((x U)) (or (= x U!val!2) (= x U!val!1) (= x U!val!0)))
  ;; -----------
  (define-fun a () (Array (Lst Int) Int)
    (store ((as const (Array (Lst Int) Int)) 4) (as lnil (Lst Int)) 3))
  (define-fun p () (Pair U (Lst U))
    (mkpair U!val!0 (as lnil (Lst U))))
  (define-fun l () (Lst U)
    (lcons U!val!1 (lcons U!val!2 (as lnil (Lst U)))))
  (define-fun m () (Lst (_ BitVec 4))
    (lcons #x4 (as lnil (Lst (_ BitVec 4)))))
  (define-fun f ((x!0 U)) (Lst U)
    (ite (= x!0 U!val!0) (as lnil (Lst U))
      (lcons U!val!2 (as lnil (Lst U)))))
)
`

const pdtUCVC5 = `sat
(
; cardinality of U is 3
; rep: (as @U_0 U)
; rep: (as @U_1 U)
; rep: (as @U_2 U)
(define-fun l () (Lst U) ((as lcons (Lst U)) (as @U_0 U) ((as lcons (Lst U)) (as @U_1 U) ((as lcons (Lst U)) (as @U_0 U) (as lnil (Lst U))))))
(define-fun m () (Lst (_ BitVec 4)) ((as lcons (Lst (_ BitVec 4))) #b0100 (as lnil (Lst (_ BitVec 4)))))
(define-fun p () (Pair U (Lst U)) ((as mkpair (Pair U (Lst U))) (as @U_2 U) (as lnil (Lst U))))
(define-fun f ((_arg_1 U)) (Lst U) (ite (= (as @U_2 U) _arg_1) (as lnil (Lst U)) ((as lcons (Lst U)) (as @U_1 U) ((as lcons (Lst U)) (as @U_0 U) (as lnil (Lst U))))))
(define-fun a () (Array (Lst Int) Int) (store (store ((as const (Array (Lst Int) Int)) 0) (as lnil (Lst Int)) 3) ((as lcons (Lst Int)) 1 (as lnil (Lst Int))) 4))
)
`

// TestParametricDatatypeSolverModels: the models z3 and cvc5 print for
// instances over abstract values and bit-vectors are VALID, and with two
// elements of a list made equal INVALID.
func TestParametricDatatypeSolverModels(t *testing.T) {
	for _, c := range []struct{ name, model, from, to string }{
		{"z3", pdtUZ3, "(lcons U!val!1 (lcons U!val!2", "(lcons U!val!2 (lcons U!val!2"},
		{"cvc5", pdtUCVC5, "(as @U_0 U) ((as lcons (Lst U)) (as @U_1 U)", "(as @U_1 U) ((as lcons (Lst U)) (as @U_1 U)"},
	} {
		if res := check(t, pdtUBench, c.model, Options{}); res.String() != "VALID" {
			t.Errorf("%s: got %s (%s)", c.name, res, res.Detail)
		}
		bad := strings.Replace(c.model, c.from, c.to, 1)
		if bad == c.model {
			t.Fatalf("%s: no change", c.name)
		}
		if res := check(t, pdtUBench, bad, Options{}); res.String() != "INVALID bad-model" {
			t.Errorf("%s changed: got %s (%s)", c.name, res, res.Detail)
		}
	}
}
