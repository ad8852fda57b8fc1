(benchmark connectives
  :source { flet, if_then_else, iff, implies, xor, ite and 0-ary predicates. }
  :notes "Written for the \"1.2 to 2.6\" translation tests."
  :status sat
  :category { crafted }
  :logic QF_UFLIA
  :extrafuns ((x Int) (g Int Int))
  :extrapreds ((p Int) (q) (r))
  :assumption (implies q (p x))
  :assumption (iff r (not q))
  :formula
  (flet ($a (p (g x)))
  (flet ($b (xor q r $a))
  (and $b
       (if_then_else q (= (ite $a x (g x)) 1) (> x 0))
       (not $a)
       (or q))))
)
