(benchmark aufbv_memory
  :source { Byte-addressed memory Array[32:8] as in the QF_AUFBV division. }
  :status unsat
  :category { industrial }
  :logic QF_AUFBV
  :extrafuns ((mem Array[32:8]) (addr BitVec[32]) (v BitVec[8]))
  :formula
  (not (= (select (store mem addr v) addr) v))
)
