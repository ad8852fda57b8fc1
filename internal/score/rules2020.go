package score

// illFormedCore is the benchmark score ⟨e, n⟩ of an unsat answer whose core
// is not well-formed (names a formula not asserted, does not parse): an
// error by the 2018 rules (§5.4) and the 2020 text (§4.4
// "Result." (ii): "the returned unsatisfiable core is not well-formed";
// §7.1.4: e = 1 if erroneous), no answer by the 2022, 2023 and 2024 texts
// (§7.1.4: e = 0 and n = 0 if "the result of the get-unsat-core command is
// not wellformed"; their §5.4 drops the case from the erroneous ones).
func (s *scorer) illFormedCore() (e, n float64, solved bool) {
	if s.rules == 2018 || (s.doc != nil && s.doc.year == 2020) {
		return 1, 0, false
	}
	return 0, 0, false
}
