package score

import (
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
)

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

// The model-validation divisions each text calls experimental, by their
// logics (a division is experimental when it holds such a logic). The texts
// do not say how an experimental division is scored; the 2023 text (§1
// "Model-Validation Track.") says of last year's that "this year these
// divisions will be officially counted and no longer be experimental", so
// an experimental division is scored and shown but not officially counted:
// it names no winner and is left out of the biggest lead and largest
// contribution rankings and the new-entrant commendations.
//
// 2020 §4.5: "all but the first [QF_BV] are experimental": QF_IDL, QF_RDL,
// QF_LIA, QF_LRA, QF_LIRA.
func experimentalMV2020(logic string) bool {
	switch logic {
	case "QF_IDL", "QF_RDL", "QF_LIA", "QF_LRA", "QF_LIRA":
		return true
	}
	return false
}

// 2022 §1 "Model-Validation Track.": the UF divisions of 2021 "will no
// longer be experimental" and QF_FPArith is the new experimental division
// (the 2023 text's §1 confirms it); §5.5's "all divisions with UF logics
// are experimental", left from 2021, is read as superseded by §1.
func experimentalMV2022(logic string) bool {
	return strings.Contains(strings.TrimPrefix(logic, "QF_"), "FP")
}

// 2023 and 2024 §5.5: "all divisions with non-linear arithmetic, arrays,
// and datatypes are experimental": logics with arrays (A first, as SMT-LIB
// names them), datatypes (DT) or non-linear arithmetic (NIA, NRA, NIRA).
func experimentalMV2023(logic string) bool {
	l := strings.TrimPrefix(logic, "QF_")
	return (strings.HasPrefix(l, "A") && l != "ALL") || strings.Contains(l, "DT") ||
		strings.Contains(l, "NIA") || strings.Contains(l, "NRA") || strings.Contains(l, "NIRA")
}

// experimental says whether a division (or one logic of it) of these logics
// is experimental by the rules text as written.
func (s *scorer) experimental(logics []LogicSize) bool {
	if s.doc == nil || s.doc.experimental == nil || s.o.Track != benchmark.ModelValidation {
		return false
	}
	for _, l := range logics {
		if s.doc.experimental(l.Logic) {
			return true
		}
	}
	return false
}
