package validate

import (
	"github.com/smtarena/smtarena/internal/smtlib"
)

// CoreState is what followed a solver's check-sat answer on the
// unsat-core track.
type CoreState string

// The states of a core.
const (
	CoreList      CoreState = "list"      // a parenthesised list of names
	CoreMissing   CoreState = "missing"   // nothing: the output ended
	CoreError     CoreState = "error"     // (error "...") or unsupported
	CoreMalformed CoreState = "malformed" // anything else
)

// Response is a solver's output on the unsat-core track, as the rules read
// it: its answer to check-sat, then its answer to get-unsat-core.
type Response struct {
	// Answer is sat, unsat or unknown, or "" when the output has none.
	Answer string
	Core   CoreState
	// Names are the core's names in the order given, duplicates kept.
	Names []string
	// Message is the solver's error message, or what is wrong with a
	// malformed core.
	Message string
}

// ReadResponse reads a solver's output: success lines are skipped (2018
// and 2022 rules), the first sat, unsat or unknown is the answer, and the
// response after it answers get-unsat-core.
func ReadResponse(output []byte) Response {
	rs, _ := smtlib.ParseResponses("output", output)
	var out Response
	i := 0
	for ; i < len(rs); i++ {
		if rs[i].IsCheckSatAnswer() {
			out.Answer = rs[i].Status()
			i++
			break
		}
	}
	if out.Answer == "" {
		out.Core = CoreMissing
		return out
	}
	for i < len(rs) && rs[i].Kind == smtlib.RespSuccess {
		i++
	}
	if i == len(rs) {
		out.Core = CoreMissing
		return out
	}
	r := rs[i]
	switch r.Kind {
	case smtlib.RespError:
		out.Core, out.Message = CoreError, r.Message
		return out
	case smtlib.RespUnsupported:
		out.Core, out.Message = CoreError, "unsupported"
		return out
	case smtlib.RespGarbage:
		out.Core, out.Message = CoreMalformed, r.Message
		return out
	}
	c, err := r.As(smtlib.RespUnsatCore)
	if err != nil {
		out.Core, out.Message = CoreMalformed, "not a list of names: "+clip(r.Text)
		return out
	}
	out.Core, out.Names = CoreList, append([]string{}, c.Core...)
	return out
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
