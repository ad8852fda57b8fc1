(benchmark lra_rationals
  :source { Real arithmetic with decimals and d/n rationals. }
  :status sat
  :category { crafted }
  :logic QF_LRA
  :extrafuns ((x Real) (y Real))
  :formula
  (and (= (* 3 x) 1)
       (< x 0.34)
       (> x 1/4)
       (= y (+ x (~ 1.5)))
       (< y 0))
)
