package selection

import (
	"cmp"
	"math"
	"slices"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// quintileShares2014 are the cumulative shares of N the quintiles fill,
// hardest first: "N*40% ... from the top quintile", then the second "to
// produce N*60%", the third to 75%, the fourth to 90%, and "any remaining
// needed benchmarks are taken from the bottom quintile".
var quintileShares2014 = [5]int{40, 60, 75, 90, 100}

// rules2014 follows section 5.1 (main track) and 5.2 (application track)
// of the 2014 rules for one division (logic).
func (s *selector) rules2014(m []int) {
	if s.opts.Track == benchmark.Incremental {
		// "A random selection of all the available benchmarks ... If the
		// organizers determine that there is adequate time ..., all of the
		// benchmarks will be used. Otherwise an unbiased random subset."
		s.drawN(m, s.opts.N)
		return
	}
	year, haveYear := 0, len(s.opts.PriorYears) == 1
	if haveYear {
		year = s.opts.PriorYears[0]
	}
	// "Retire very easy benchmarks. Eliminate benchmarks for which all of
	// the current solvers in SMT-EVAL-2013 solved the benchmark in under 5
	// seconds, unless doing so reduces the pool of benchmarks for the
	// division to less than 300." Read as all or nothing: either every easy
	// benchmark goes, or (when that would leave fewer than 300) none does;
	// the text names no order in which to retire only some.
	var easy, rest []int
	for _, i := range m {
		p, ok := s.cands[i].Prior[year]
		if haveYear && solvedByAll(p, ok, 1, easyTime2014) {
			easy = append(easy, i)
		} else {
			rest = append(rest, i)
		}
	}
	pool := m
	if len(easy) > 0 && len(rest) >= minPool2014 {
		pool = rest
		s.drop(Easy, len(easy))
	}
	n, want := len(pool), s.opts.N
	if want <= 0 || want >= n {
		s.keepAll(pool, All)
		return
	}

	// "The benchmarks are divided into quintiles according to the
	// difficulty measure", "the CPU time taken by the best performing
	// solver" (Prior.MinTime). A benchmark nobody solved, or without a
	// result that year, counts as hardest. Hardest first, ties by path;
	// quintile q is positions [q·n/5, (q+1)·n/5) of that order.
	type ranked struct {
		i    int
		diff float64
	}
	rank := make([]ranked, n)
	for k, i := range pool {
		rank[k] = ranked{i, math.Inf(1)}
		if p, ok := s.cands[i].Prior[year]; haveYear && ok && p.SolvedBy > 0 {
			rank[k].diff = p.MinTime
		}
	}
	slices.SortStableFunc(rank, func(a, b ranked) int { return cmp.Compare(b.diff, a.diff) })
	byDiff := make([]int, n)
	for k, r := range rank {
		byDiff[k] = r.i
	}
	taken, left := 0, 0
	for q, share := range quintileShares2014 {
		quint := byDiff[q*n/5 : (q+1)*n/5]
		slices.SortFunc(quint, func(a, b int) int { return cmp.Compare(s.cands[a].Path, s.cands[b].Path) })
		k := min(max(percent(want, share)-taken, 0), len(quint))
		left += len(quint) - k
		s.drawIndustrial(quint, k)
		taken += k
	}
	// The quintiles are equal (±1) and their shares of N fall (40, 20, 15,
	// 15, 10 %), so what a quintile cannot give, those below it can: taken
	// is N (TestN2014 checks every N below pools up to 60).
	s.drop(NotDrawn, left)
}

// drawIndustrial draws k benchmarks from a quintile (sorted by path). "If
// the industrial benchmarks comprise less than 85% of the benchmarks in
// that quintile, 85% will be chosen from the industrial benchmarks (if a
// sufficient number are available), and the others from the population of
// random and crafted benchmarks; if [they] comprise at least 85% ..., the
// benchmarks are chosen at random from the population of industrial,
// random and crafted benchmarks." 85% of k is rounded to the nearest
// integer (halves up); when the others are too few, industrial benchmarks
// fill their place. Check benchmarks and those without a category count
// with crafted and random, so that none is ineligible by omission.
// Industrial benchmarks are drawn first, then the others.
func (s *selector) drawIndustrial(quint []int, k int) {
	var ind, other []int
	for _, i := range quint {
		if s.cands[i].Category == benchmark.Industrial {
			ind = append(ind, i)
		} else {
			other = append(other, i)
		}
	}
	if 100*len(ind) >= 85*len(quint) {
		s.keepAll(choose(s.r, quint, k), Drawn)
		return
	}
	kInd := min(percent(k, 85), len(ind))
	kOther := k - kInd
	if kOther > len(other) {
		kInd += kOther - len(other)
		kOther = len(other)
	}
	s.keepAll(choose(s.r, ind, kInd), Drawn)
	s.keepAll(choose(s.r, other, kOther), Drawn)
}

// drawN takes n of the benchmarks at random, or all of them when n is 0.
func (s *selector) drawN(m []int, n int) {
	if n <= 0 || n >= len(m) {
		s.keepAll(m, All)
		return
	}
	s.draw(m, n, Drawn)
}
