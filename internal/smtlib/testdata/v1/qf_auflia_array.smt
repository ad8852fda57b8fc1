(benchmark auflia_store_select
  :source { Read-over-write with integer arrays and an uninterpreted function. }
  :status unsat
  :category { crafted }
  :logic QF_AUFLIA
  :extrafuns ((a Array) (b Array) (i Int) (j Int) (f Int Int))
  :assumption (= b (store a i (f j)))
  :formula
  (and (= i j)
       (not (= (select b j) (f i))))
)
