package model

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

const fuzzBench = `(set-logic ALL)
(declare-sort U 0)
(declare-fun x () Int)
(declare-fun r () Real)
(declare-fun v () (_ BitVec 8))
(declare-fun a () (Array Int Int))
(declare-fun f (Int U) Int)
(declare-fun u () U)
(declare-datatypes ((List 1) (Pair 2)) ((par (T) ((nil) (cons (head T) (tail (List T))))) (par (A B) ((mkpair (fst A) (snd B))))))
(declare-fun l () (List Int))
(assert (let ((s (+ x 1))) (or (> s (div x 2)) (= (select a x) (f x u)))))
(assert (=> (bvult v #x10) (< r (/ 1 3))))
(check-sat)
`

// FuzzValidateResponse: any solver output gets a verdict, never a panic.
func FuzzValidateResponse(f *testing.F) {
	f.Add("sat\n((define-fun x () Int 1) (define-fun r () Real 0.0) (define-fun v () (_ BitVec 8) #x01) (define-fun a () (Array Int Int) ((as const (Array Int Int)) 0)) (define-fun f ((p Int) (q U)) Int 0) (define-fun u () U (as @U_0 U)) (define-fun l () (List Int) (cons 1 nil)))")
	f.Add("sat\n((define-fun l () (List Int) ((as cons (List Int)) 2 (as nil (List Int)))) (define-fun x () Int (head l)))")
	f.Add("sat\n((define-fun a () (Array Int Int) (_ as-array k!0)) (define-fun k!0 ((x!0 Int)) Int (ite (= x!0 1) 2 3)))")
	f.Add("sat\n((define-fun a () (Array Int Int) (lambda ((z Int)) (ite (= z 1) 2 (f z u)))))")
	f.Add("unsat\n")
	f.Add("sat\n(model (define-fun x () Int (- 1)) (define-fun div0 ((a Int) (b Int)) Int a))")
	f.Fuzz(func(t *testing.T, resp string) {
		res, err := Validate(context.Background(), "b", strings.NewReader(fuzzBench), "r", strings.NewReader(resp), Options{NeededOnly: len(resp)%2 == 0})
		if err != nil {
			t.Fatalf("a response gave an error: %v", err)
		}
		if res.Verdict != Valid && res.Verdict != Invalid && res.Verdict != Unknown {
			t.Fatalf("no verdict: %+v", res)
		}
		if res.Verdict == Unknown && res.Reason == ReasonNone {
			t.Fatalf("UNKNOWN without a reason: %+v", res)
		}
	})
}

// FuzzEvaluate: any assertion of the benchmark is evaluated under a fixed
// model without a panic (a benchmark that does not parse is an error).
func FuzzEvaluate(f *testing.F) {
	f.Add("(= (bvsdiv v #x00) (bvneg v))")
	f.Add("(> (to_int (/ r 0.0)) (mod x 0))")
	f.Add("(= (store a 1 2) (store a 2 1))")
	f.Add("(distinct u (as @U_1 U) (as @U_0 U))")
	f.Add("(= ((_ extract 3 1) ((_ repeat 3) v)) ((_ rotate_left 9) #b101))")
	f.Add("(and (= (tail l) nil) (is-cons l) ((_ is nil) (tail l)) (= ((as cons (List Int)) x nil) l))")
	f.Add("(match l ((nil false) ((cons h t) (= (mkpair h t) (mkpair 1 (as nil (List Int)))))))")
	resp := "sat\n((define-fun x () Int 7) (define-fun r () Real (/ 1 3)) (define-fun v () (_ BitVec 8) #xf0) (define-fun a () (Array Int Int) (store ((as const (Array Int Int)) 0) 7 1)) (define-fun f ((p Int) (q U)) Int (ite (= q (as @U_0 U)) p 0)) (define-fun u () U (as @U_0 U)) (define-fun l () (List Int) (cons 1 nil)))"
	f.Fuzz(func(t *testing.T, assertion string) {
		bench := strings.Replace(fuzzBench, "(check-sat)", "(assert "+assertion+")\n(check-sat)", 1)
		var buf bytes.Buffer
		buf.WriteString(bench)
		res, err := Validate(context.Background(), "b", &buf, "r", strings.NewReader(resp), Options{})
		if err == nil && res.Verdict == Unknown && res.Reason == ReasonNone {
			t.Fatalf("UNKNOWN without a reason: %+v", res)
		}
	})
}
