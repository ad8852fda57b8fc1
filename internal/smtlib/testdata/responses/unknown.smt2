; A quantified problem that solvers give up on: unknown and :reason-unknown.
(set-logic ALL)
(set-option :produce-models true)
(set-option :timeout 300)
(declare-fun f (Int) Int)
(assert (forall ((x Int)) (> (f x) (* x x))))
(assert (forall ((x Int) (y Int)) (=> (< x y) (< (f x) (f y)))))
(check-sat)
(get-info :reason-unknown)
