package selection

import (
	"slices"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// rules2022 follows section 6 "Benchmark selection" of the 2022 rules for
// one logic. Step 1 ("remove inappropriate benchmarks") is the organizers'
// call: leave those out of the candidates.
func (s *selector) rules2022(m []int) {
	var elig []int
	for _, i := range m {
		if why := s.filter2022(&s.cands[i]); why != "" {
			s.drop(why, 1)
			continue
		}
		elig = append(elig, i)
	}
	// Step 4: "Let n be the number of benchmarks in an SMT-LIB logic";
	// n counts the benchmarks steps 1-3 left, as the official tool does.
	n := len(elig)
	var want int
	switch {
	case n <= lower2022: // "(a) if n ≤ 300, all instances will be selected"
		want = n
	case n <= upper2022: // "(b) if 300 < n ≤ 600, a subset of 300"
		want = lower2022
	default: // "(c) if n > 600, 50% of the benchmarks", rounded down as int() does in the tool
		want = n * percent2022 / 100
	}
	if want >= n {
		s.keepAll(elig, All)
		return
	}
	// "... by first picking randomly one benchmark from each new benchmark
	// family. The rest of the benchmarks will be chosen randomly from the
	// remaining benchmarks using a uniform distribution." New families in
	// name order, each drawn from its eligible benchmarks in path order.
	// More new families than want: all their picks stay, as in the tool.
	families := map[string][]int{}
	var names []string
	for _, i := range elig {
		c := &s.cands[i]
		if !c.NewFamily {
			continue
		}
		f := benchmark.Family(c.Path, 2022)
		if _, ok := families[f]; !ok {
			names = append(names, f)
		}
		families[f] = append(families[f], i)
	}
	slices.Sort(names)
	picked := make(map[int]bool, len(names))
	for _, f := range names {
		i := choose(s.r, families[f], 1)[0]
		picked[i] = true
		s.keep(i, s.cands[i].CheckSats, NewFamily)
	}
	rest := elig
	if len(picked) > 0 {
		rest = slices.DeleteFunc(slices.Clone(elig), func(i int) bool { return picked[i] })
	}
	s.draw(rest, max(want-len(picked), 0), Drawn)
}

// filter2022 returns why steps 2 and 3 remove a benchmark, or "".
func (s *selector) filter2022(c *Candidate) Reason {
	switch s.opts.Track {
	case benchmark.SingleQuery:
		// "All benchmarks that were solved by all solvers (including
		// non-competitive solvers) in less than one second in the
		// corresponding track in 2018, 2019, and 2020": removed when that
		// holds in any one of the years, as the official tool filters
		// year by year (and only with at least two solvers).
		for _, y := range s.opts.PriorYears {
			p, ok := c.Prior[y]
			if solvedByAll(p, ok, minSolvers2022, easyTime2022) {
				return Easy
			}
		}
	case benchmark.UnsatCore, benchmark.Proof:
		// Unsat core: "All benchmarks with only a single assertion"; the
		// tool removes fewer than two, so none too.
		if s.opts.Track == benchmark.UnsatCore && c.Asserts < 2 {
			return SingleAssertion
		}
		// "All benchmarks with status sat are removed. We further remove
		// benchmarks with status unknown for which no sound solver
		// reported them to be unsat."
		if c.Status == benchmark.Sat || (c.Status != benchmark.Unsat && !c.SoundUnsat) {
			return WrongStatus
		}
	case benchmark.ModelValidation:
		// "All benchmarks with status unsat are removed, as well as
		// benchmarks with status unknown for which no sound solver
		// reported them to be sat."
		if c.Status == benchmark.Unsat || (c.Status != benchmark.Sat && !c.SoundSat) {
			return WrongStatus
		}
	}
	return ""
}
