(benchmark idl_negative_cycle
  :source { Difference logic: a negative cycle x - y < 2, y - z < -3, z - x < 1. }
  :status unsat
  :category { crafted }
  :logic QF_IDL
  :extrafuns ((x Int) (y Int) (z Int))
  :formula
  (and (< (- x y) 2)
       (< (- y z) (~ 3))
       (< (- z x) 1))
)
