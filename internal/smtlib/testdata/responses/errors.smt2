; Errors whose messages quote symbols with '"' in their names: z3 escapes
; them as \", cvc4 and cvc5 print them raw along with the source line.
(set-logic QF_LIA)
(declare-fun |a"b| () Int)
(assert (= |a"b| |c"d|))
(set-option :no-such-option "q""q")
(get-info :version)
(check-sat)
(get-unsat-core)
(get-value (|a"b|))
(echo "he said ""hi""")
