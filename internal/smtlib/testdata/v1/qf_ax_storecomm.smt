(benchmark storecomm
  :source { Store commutativity, as in the QF_AX storecomm family. }
  :status unsat
  :difficulty { 0 }
  :category { crafted }
  :logic QF_AX
  :extrafuns ((a1 Array))
  :extrafuns ((i1 Index) (i2 Index))
  :extrafuns ((e1 Element) (e2 Element))
  :assumption (not (= i1 i2))
  :formula
  (not (= (store (store a1 i1 e1) i2 e2) (store (store a1 i2 e2) i1 e1)))
)
