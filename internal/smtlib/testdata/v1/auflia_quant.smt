(benchmark auflia_quantifiers
  :source { Quantified axioms with patterns, as in the 2006 AUFLIA division. }
  :status unsat
  :category { industrial }
  :logic AUFLIA
  :extrafuns ((f Int Int) (a Array) (n Int))
  :extrapreds ((pos Int))
  :assumption (forall (?x Int) (= (f ?x) (+ ?x 1)) :pat { (f ?x) })
  :assumption (forall (?x Int) (?y Int)
                (implies (and (pos ?x) (< ?x ?y)) (pos ?y))
                :pat { (pos ?x) (pos ?y) } :nopat { (< ?x ?y) })
  :assumption (forall (?i Int) (= (select a ?i) (f ?i)) :pat { (select a ?i) })
  :assumption (exists (?x Int) (and (pos ?x) (< ?x 0)))
  :formula (or (not (= (select a 3) 4)) (not (pos 5)))
)
