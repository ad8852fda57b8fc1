package model

import (
	"github.com/smtarena/smtarena/internal/smtlib"
)

// Rounding modes, in the order of rmNames.
const (
	rmRNE = iota
	rmRNA
	rmRTP
	rmRTN
	rmRTZ
)

var rmNames = [...]string{"RNE", "RNA", "RTP", "RTN", "RTZ"}

var rmByName = map[string]int{
	"RNE": rmRNE, "roundNearestTiesToEven": rmRNE,
	"RNA": rmRNA, "roundNearestTiesToAway": rmRNA,
	"RTP": rmRTP, "roundTowardPositive": rmRTP,
	"RTN": rmRTN, "roundTowardNegative": rmRTN,
	"RTZ": rmRTZ, "roundTowardZero": rmRTZ,
}

// fpVal is a floating-point value.
type fpVal struct {
	eb, sb int
}

func (f *fpVal) key() string     { return "fp" }
func (f *fpVal) literal() string { return "fp" }

func fpStructEq(v, w value) bool { return v.p.(*fpVal).key() == w.p.(*fpVal).key() }

var fpOps = map[string]opInfo{}

func (e *evaluator) applyFP(f *frame, args []value) value {
	return undefVal(ReasonUnsupported, "floating point")
}

func (e *evaluator) fpSpecial(s *smtlib.Script, name string, idx smtlib.Term, nidx int) value {
	return undefVal(ReasonUnsupported, "floating point")
}
