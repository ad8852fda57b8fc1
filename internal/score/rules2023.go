package score

import (
	"math"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// score2023 is the benchmark score of the 2023 and 2024 rules (§7.1 of
// both; the 2023 text's "Scoring." change): e and n as in 2022, but the
// wall-clock time score w is the actual wall-clock time only when the
// benchmark was correctly solved by a run that ended within T (0 when
// e = 1, the run did not end within T, or it gave no answer), and the CPU
// time score c the actual CPU time only when correctly solved within mT.
// A response still counts after the limit (§7.1.2), so a correct answer
// from a run stopped at T has n = 1 and w = 0. The incremental track's w
// and c are the times until its last sat/unsat answer, 0 when it gave
// none. The sequential score (§7.1.1) is ⟨e, n, c⟩ of a run whose CPU time
// is within T and ⟨0, 0, 0⟩ otherwise; "c > T" there is read as the actual
// CPU time, as the prose above it says ("only if the solver process
// terminates within this CPU time limit") — the score c of a wrong answer
// is 0, which would otherwise keep every late error.
func (s *scorer) score2023(r *rec, m *mode, inSet bool) (b bscore) {
	T := m.limit
	if m.filter != aUnknown && !inSet {
		return b
	}
	b.in = true
	b.memout = r.status == stMemout
	late := r.status == stTimeout || r.wall > T // did not end within T
	b.timeout = late
	counts := true
	if m.seq && r.cpu > T {
		counts, b.timeout = false, true
	}
	if m.virtual && r.wall > T {
		counts = false // 24 s: answers after the virtual limit do not count
	}
	if counts {
		b.e, b.n, b.solved = s.judge(r)
	}
	if s.o.Track == benchmark.Incremental {
		// The data has the run's total times, not the time of its last
		// answer: a run that answered and ended within T gave its last
		// answer just before it ended; one stopped at the limit is given
		// its times up to the limit (an upper bound).
		if counts && r.correct+r.wrong > 0 {
			b.w, b.c = math.Min(r.wall, T), math.Min(r.cpu, s.cores*T)
		}
		b.unsolved = max(r.checks-int32(b.n), 0)
		return b
	}
	if b.solved {
		b.sat, b.unsat = r.answer == aSat, r.answer == aUnsat
		if !late {
			b.w = r.wall
		}
		limC := s.cores * T
		if m.seq {
			limC = T
		}
		if r.cpu <= limC {
			b.c = r.cpu
		}
	} else {
		b.unsolved = 1
	}
	return b
}
