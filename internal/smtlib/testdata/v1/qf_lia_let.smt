; Linear integer arithmetic with the 1.2 unary minus ~ and let.
(benchmark lia_let
  :source { Hand-written; exercises ~ (unary minus), - (binary minus) and let. }
  :status sat
  :category { crafted }
  :logic QF_LIA
  :extrafuns ((x Int))
  :extrafuns ((y Int) (z Int))
  :formula
  (let (?s (+ x y))
  (let (?d (- x y))
  (and (= ?s (~ 3))
       (>= x 2)
       (<= y (~ 6))
       (= z (* 2 ?d))
       (distinct x y z))))
)
