package score

import (
	"math"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// mode is one division score's view of a run: the time limit, which clock
// decides, and which benchmarks count.
type mode struct {
	kind  Kind
	limit float64
	seq   bool // CPU time decides (sequential scores)
	// virtual: the limit is not the one the runs had (24 s, 2018's 10 s),
	// so answers given after it do not count.
	virtual bool
	filter  uint8 // aSat or aUnsat: the sat and unsat scores
}

// bscore is a benchmark score ⟨e, n, w, c⟩ with what the pages count.
type bscore struct {
	e, n, w, c      float64
	in              bool // the benchmark counts for this score
	solved          bool // answered correctly
	sat, unsat      bool // ... with sat, unsat
	answered        bool // 2006: sat or unsat, in time
	timeout, memout bool
	unsolved        int32
}

func (s *scorer) modeOf(k Kind) mode {
	m := mode{kind: k, limit: s.o.TimeLimit}
	switch k {
	case Sequential:
		m.seq = true
	case Parallel:
		if s.rules == 2014 {
			m.limit = s.o.TimeLimit / s.cores // 2014 §6.1: a timeout of T/C wall-clock seconds
		}
		if s.virtual > 0 {
			m.limit, m.virtual = s.virtual, true
		}
	case Sat:
		m.filter = aSat
	case Unsat:
		m.filter = aUnsat
	case TwentyFour:
		m.limit, m.virtual = 24, true
	}
	return m
}

// benchScore scores a run; inSet says whether its benchmark is one the
// sat or unsat score considers.
func (s *scorer) benchScore(r *rec, m *mode, inSet bool) bscore {
	if s.legacy() {
		return s.legacyScore(r, m)
	}
	if s.official {
		return s.officialScore(r, m, inSet)
	}
	switch s.rules {
	case 2006:
		return s.score2006(r, m)
	case 2014:
		return s.score2014(r, m)
	}
	if s.doc != nil && s.doc.solvedTimes {
		return s.score2023(r, m, inSet)
	}
	return s.scoreAsWritten(r, m, inSet)
}

// officialScore is a row as SMT-COMP's scoring script (tools/scoring/
// score.py) scores it: a memout costs the full limit in both times; a run
// over the limit on the deciding clock becomes a timeout with no answer
// and both times set to the limit; the sat and unsat scores zero the
// times of the other benchmarks; incremental rows count their correct and
// wrong answers whatever happened.
func (s *scorer) officialScore(r *rec, m *mode, inSet bool) (b bscore) {
	L := m.limit
	cpu, wall, st, ans := r.cpu, r.wall, r.status, r.answer
	if st == stMemout {
		cpu, wall = L, L
	}
	t := wall
	if m.seq {
		t = cpu
	}
	if t > L {
		cpu, wall, st, ans = L, L, stTimeout, aUnknown
	}
	b.in = true
	b.timeout, b.memout = st == stTimeout, st == stMemout
	if s.o.Track == benchmark.Incremental {
		b.n, b.e = float64(r.correct), float64(r.wrong)
		b.unsolved = r.checks - r.correct
		b.solved = r.checks > 0 && r.correct == r.checks
		b.c, b.w = cpu, wall
		return b
	}
	if m.filter == aUnknown {
		inSet = true
	} else {
		neg := aSat + aUnsat - m.filter
		if !inSet && ans != m.filter {
			cpu, wall, ans = 0, 0, aUnknown
		}
		// From 2021 the script judges a wrong answer by the answer, not by
		// the benchmark's status.
		if (s.o.Year >= 2021 && ans == neg) || (s.o.Year < 2021 && r.expected == neg) {
			cpu, wall, ans = 0, 0, aUnknown
		}
	}
	solved := decided(ans) && (r.expected == aUnknown || ans == r.expected)
	switch s.o.Track {
	case benchmark.UnsatCore:
		if solved {
			b.n, b.solved = float64(r.reduct), true
			if r.coreErr {
				b.e = 1
			}
		}
	case benchmark.ModelValidation:
		// 2019: only a sat answer's INVALID model is an error; a crash or
		// a timeout is validated INVALID too, and does not count. From
		// 2020 every INVALID verdict is, whatever the answer and time,
		// unless the validator's exception says the solver gave no model
		// (officialModelError, official2020.go).
		if s.o.Year >= 2020 {
			if solved && ans == aSat && r.model == mValid {
				b.n, b.solved, b.sat = 1, true, true
			}
			if r.mvErr {
				b.e = 1
			}
		} else if solved && ans == aSat {
			switch r.model {
			case mValid:
				b.n, b.solved, b.sat = 1, true, true
			case mInvalid:
				b.e = 1
			}
		}
	default:
		if solved {
			b.n, b.solved = 1, true
			b.sat, b.unsat = ans == aSat, ans == aUnsat
		}
		if ans != aUnknown && r.expected != aUnknown && ans != r.expected {
			b.e = 1
		}
	}
	// Up to 2020 the script counted every run without a correct answer
	// as unsolved in the sat and unsat scores too; later (the 2022 pages,
	// and 2021 with the script's other change of that year above) only
	// those of the score's benchmarks. The 2019 challenge pages: the unsat
	// score of QF_BV, whose 7 benchmarks are sat, has 7 unsolved for every
	// solver; the 2020 single-query pages: unsolved = n_benchmarks less
	// the correct answers (ABVFP: 30 = 2 + 28).
	if b.n == 0 && (inSet || s.o.Year < 2021) {
		b.unsolved = 1
	}
	b.c, b.w = cpu, wall
	if s.timeOnlySolved() && !b.solved {
		b.c, b.w = 0, 0
	}
	return b
}

// judge is a run's ⟨e, n⟩ under the 2018 and 2022 rules (2022 §7.1.2-5,
// 2018 §7.2), before any time limit is applied.
func (s *scorer) judge(r *rec) (e, n float64, solved bool) {
	switch s.o.Track {
	case benchmark.Incremental:
		// e = 1 and n = 0 on any wrong answer; else the correct answers.
		if r.wrong > 0 {
			return 1, 0, false
		}
		return 0, float64(r.correct), r.checks > 0 && r.correct == r.checks
	case benchmark.UnsatCore:
		// Erroneous: a sat answer, or a core the validators refute
		// (§5.4); else the reduction.
		switch {
		case r.answer == aSat, r.answer == aUnsat && r.expected == aSat:
			return 1, 0, false
		case r.answer == aUnsat && r.coreBad:
			return s.illFormedCore()
		case r.answer == aUnsat && r.coreErr:
			return 1, 0, false
		case r.answer == aUnsat:
			return 0, float64(r.reduct), true
		}
		return 0, 0, false
	case benchmark.ModelValidation:
		// The validator's verdict (§7.1.5); an unsat answer is erroneous
		// too (§5.5).
		switch {
		case r.model == mInvalid:
			return 1, 0, false
		case r.model == mValid:
			return 0, 1, true
		case r.answer == aUnsat && r.expected == aSat:
			return 1, 0, false
		}
		return 0, 0, false
	}
	if r.answer == aUnknown {
		return 0, 0, false
	}
	if r.expected != aUnknown && r.answer != r.expected {
		return 1, 0, false
	}
	return 0, 1, true
}

// scoreAsWritten is the 2018 raw score and the 2022 parallel score, and
// their sequential scores: w ∈ [0, T], c ∈ [0, mT]; an answer counts even
// when the run ended abnormally or over the limit (2022 §7.1.2, 2018
// §7.2), except under a virtual limit: the sequential score's CPU limit T
// (2022 §7.1.1, 2018 §7.3) and the 24-seconds score's wall limit.
func (s *scorer) scoreAsWritten(r *rec, m *mode, inSet bool) (b bscore) {
	T := m.limit
	if m.filter != aUnknown && !inSet {
		return b
	}
	b.in = true
	b.memout, b.timeout = r.status == stMemout, r.status == stTimeout || r.wall > T
	b.w, b.c = math.Min(r.wall, T), math.Min(r.cpu, s.cores*T)
	counts := true
	if m.seq {
		b.c = math.Min(r.cpu, T)
		if r.cpu > T {
			counts, b.timeout = false, true
		}
	}
	if m.virtual && r.wall > T {
		counts, b.timeout = false, true
	}
	if counts {
		b.e, b.n, b.solved = s.judge(r)
		if b.solved && s.o.Track != benchmark.Incremental {
			b.sat, b.unsat = r.answer == aSat, r.answer == aUnsat
		}
	}
	if s.o.Track == benchmark.Incremental {
		b.unsolved = max(r.checks-int32(b.n), 0)
	} else if !b.solved {
		b.unsolved = 1
	}
	return b
}

// score2014 is 2014 §6.1's ⟨e, n, m⟩: m is CPU time up to T in the
// sequential mode, wall-clock time up to T/C in the parallel one (stored
// in c and w); a timeout scores as unknown. Application benchmarks score
// their wrong and correct answers, m = T on a timeout.
func (s *scorer) score2014(r *rec, m *mode) (b bscore) {
	L := m.limit
	b.in = true
	b.memout = r.status == stMemout
	if s.o.Track == benchmark.Incremental {
		to := r.status == stTimeout || r.cpu > L
		b.e, b.n, b.timeout = float64(r.wrong), float64(r.correct), to
		b.c, b.w = r.cpu, math.Min(r.wall, L)
		if to {
			b.c = L
		}
		b.unsolved = max(r.checks-r.correct, 0)
		b.solved = r.checks > 0 && r.correct == r.checks
		return b
	}
	t := r.wall
	if m.seq {
		t = r.cpu
	}
	to := r.status == stTimeout || t > L
	b.timeout = to
	if m.seq {
		b.c, b.w = math.Min(r.cpu, L), r.wall
	} else {
		b.c, b.w = r.cpu, math.Min(r.wall, L)
	}
	// Benchmarks of unknown status were not used in 2014; an answer on one
	// cannot be judged and scores as unknown.
	if !to && r.answer != aUnknown && r.expected != aUnknown {
		if r.answer == r.expected {
			b.n, b.solved = 1, true
			b.sat, b.unsat = r.answer == aSat, r.answer == aUnsat
		} else {
			b.e = 1
		}
	}
	if !b.solved {
		b.unsolved = 1
	}
	return b
}

// score2006 is Figure 1 of the 2006 paper: +1 for a correct answer, -8 for
// a wrong one (n and e here), 0 for unknown and timeout; the CPU limit T.
func (s *scorer) score2006(r *rec, m *mode) (b bscore) {
	T := m.limit
	b.in = true
	to := r.status == stTimeout || r.cpu > T
	b.timeout, b.memout = to, r.status == stMemout
	b.c, b.w = math.Min(r.cpu, T), math.Min(r.wall, T)
	if !to && r.answer != aUnknown && r.expected != aUnknown {
		b.answered = true
		if r.answer == r.expected {
			b.n, b.solved = 1, true
			b.sat, b.unsat = r.answer == aSat, r.answer == aUnsat
		} else {
			b.e = 1
		}
	}
	if !b.solved {
		b.unsolved = 1
	}
	return b
}
