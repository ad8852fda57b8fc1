(benchmark congruence_chain
  :source {
    Congruence closure example in the style of the 2005 QF_UF "eq_diamond"
    family.  Path: C:\bench\uf|old (bars and backslashes must not survive).
  }
  :status unsat
  :difficulty { 1 }
  :category { crafted }
  :logic QF_UF
  :extrasorts (A)
  :extrafuns ((a U) (b U) (c U) (f U U) (g U A) (k A))
  :extrapreds ((p A))
  :assumption (= a b)
  :assumption (= (f a) c)
  :formula
  (and (p (g c))
       (not (p (g (f b))))
  )
)
