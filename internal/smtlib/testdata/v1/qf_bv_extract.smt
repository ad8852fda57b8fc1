(benchmark bv_extract_concat
  :source {
    Bit-vector benchmark in the style of the SMT-COMP 2006 QF_BV division:
    extract, concat, indexed constants, bit0/bit1, bvbin/bvhex constants.
  }
  :status unsat
  :category { industrial }
  :logic QF_BV
  :extrafuns ((x BitVec[32]))
  :extrafuns ((y BitVec[8]) (z BitVec[16]))
  :assumption (= (extract[7:0] x) bv255[8])
  :assumption (= y (bvnand (extract[15:8] x) bvhex0F))
  :assumption (= z (concat (zero_extend[4] (extract[3:0] y)) (sign_extend[4] (extract[3:0] y))))
  :assumption (= (rotate_left[3] y) (rotate_right[5] y))
  :assumption (= (repeat[2] (extract[7:0] z)) (extract[15:0] (concat z z)))
  :assumption (= (extract[0:0] x) bit1)
  :formula
  (and (= (concat (extract[31:8] x) (extract[7:0] x)) x)
       (bvult (bvadd y bvbin00000001) bv0[8])
       (= (bvand x bv1[32]) bv0[32]))
)
