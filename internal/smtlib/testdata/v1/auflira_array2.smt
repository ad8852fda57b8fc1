(benchmark auflira_nested_arrays
  :source { Array1 (Int -> Real) and Array2 (Int -> Array1) of theory Int_Int_Real_Array_ArraysEx. }
  :status unsat
  :category { crafted }
  :logic AUFLIRA
  :extrafuns ((a1 Array1) (a2 Array2) (i Int) (r Real))
  :formula
  (and (= (select (select a2 i) 0) r)
       (= a1 (select a2 i))
       (forall (?k Int) (>= (select a1 ?k) 1.0))
       (< r 0.5))
)
