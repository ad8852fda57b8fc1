package score

import (
	"math"
	"sort"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// recognitions fills the competition-wide rankings and awards.
func (s *scorer) recognitions(rep *Report, divs []*divData) {
	switch s.rules {
	case 2022:
		rep.BiggestLead = map[Kind][]Lead{}
		rep.LargestContribution = map[Kind][]Contribution{}
		for _, k := range s.kinds {
			rep.BiggestLead[k] = s.biggestLead(k, divs)
			rep.LargestContribution[k] = s.largestContribution(k, divs)
		}
		rep.Recognitions = append(rep.Recognitions, s.newEntrants2022(divs)...)
	case 2018:
		rep.CompetitionWide = map[Kind][]WideScore{}
		for _, k := range s.kinds {
			rep.CompetitionWide[k] = s.wide(k, divs)
		}
		rep.Recognitions = append(rep.Recognitions, s.recognitions2018(rep, divs)...)
	case 2014:
		rep.Recognitions = append(rep.Recognitions, s.recognitions2014(divs)...)
	case 2006:
		for _, n := range sortedKeys(s.dq) {
			rep.Recognitions = append(rep.Recognitions, Recognition{Name: "disqualified", Solver: n, Division: s.dq[n],
				Note: "more than three wrong answers in a division (2006 §2.3)"})
		}
	}
}

// biggestLead is 2022 §7.3.1: in each competitive division, the winner's
// lead over the next competitive solver, (n1+1)/(n2+1), ties broken by
// the time rank (c2+1)/(c1+1) (sequential) or (w2+1)/(w1+1).
// Officially: divisions with two competitive names, and only where the
// first solved something.
func (s *scorer) biggestLead(k Kind, divs []*divData) []Lead {
	var out []Lead
	for _, dd := range divs {
		d := &dd.div
		if !d.Competitive || d.Experimental {
			continue
		}
		r := d.Ranking(k)
		var comp []*Entry
		for i := range r.Entries {
			if r.Entries[i].Competitive {
				comp = append(comp, &r.Entries[i])
			}
		}
		if len(comp) < 2 {
			continue
		}
		first, second := comp[0], comp[1]
		if s.official && first.Correct == 0 {
			continue
		}
		t1, t2 := first.Wall, second.Wall
		if k == Sequential {
			t1, t2 = first.CPU, second.CPU
		}
		out = append(out, Lead{Division: d.Name, First: first.Solver, Second: second.Solver,
			Correctness: (first.Correct + 1) / (second.Correct + 1), Time: (t2 + 1) / (t1 + 1)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Correctness != out[j].Correctness {
			return out[i].Correctness > out[j].Correctness
		}
		return out[i].Time > out[j].Time
	})
	return out
}

// lcDiv is a division's part of the largest contribution ranking.
type lcDiv struct {
	skip       bool
	pairs      int // n_D
	countPairs bool
	best       Contribution
	has        bool
}

// lcDivision computes a division's largest contribution (2022 §7.3.2):
// for each sound competitive solver s, 1 - vbss_n(D, S-s)/vbss_n(D, S)
// and 1 - vbss_t(D, S)/vbss_t(D, S-s), where the virtual best solver takes
// per benchmark the largest n among solvers with n > 0 and the least time
// among them (T when none). The division's best solver is kept.
func (s *scorer) lcDivision(m *mode, v *view, bsc []bscore) *lcDiv {
	out := &lcDiv{}
	T := s.o.TimeLimit
	nBench := len(v.bench)
	inDiv := make([]bool, len(s.solvers))
	errs := make([]float64, len(s.solvers))
	for j, i := range v.idx {
		r := &s.recs[i]
		if !bsc[j].in || !s.solvers[r.solver].Competitive {
			continue
		}
		inDiv[r.solver] = true
		errs[r.solver] += bsc[j].e
		if !s.official {
			out.pairs++
		}
	}
	all := map[int32]bool{}
	sound := map[int32]bool{}
	for sv, ok := range inDiv {
		if ok {
			all[int32(sv)] = true
			if errs[sv] == 0 {
				sound[int32(sv)] = true
			}
		}
	}
	if s.official {
		// The script counts division size × competitive solvers, and only
		// for divisions it ranks.
		out.pairs = nBench * len(all)
	}
	out.countPairs = !s.official
	if len(sound) < 3 {
		out.skip = true
		return out
	}
	out.countPairs = true
	type cand struct {
		solver int32
		n, t   float64
	}
	// top2 keeps, per benchmark, the best two candidates of different
	// solvers by an order.
	type top2 struct {
		best, second cand
		k            int
	}
	push := func(tp *top2, c cand, better func(a, b cand) bool) {
		switch {
		case tp.k == 0:
			tp.best, tp.k = c, 1
		case better(c, tp.best):
			tp.second, tp.best, tp.k = tp.best, c, 2
		case tp.k == 1 || better(c, tp.second):
			tp.second, tp.k = c, 2
		}
	}
	// Officially the virtual best solver takes, per benchmark, the run
	// with the largest n and among those the least time (the time limit
	// when it did not solve the benchmark); as written, the largest n and
	// the least time of the runs with n > 0 are taken separately.
	byBoth := func(a, b cand) bool {
		if a.n != b.n {
			return a.n > b.n
		}
		return a.t < b.t
	}
	byN := func(a, b cand) bool { return a.n > b.n }
	byT := func(a, b cand) bool { return a.t < b.t }
	type tops struct{ n, t top2 }
	per := make([]tops, nBench)
	has := make([]bool, nBench)
	isSound := make([]bool, len(s.solvers))
	for sv := range sound {
		isSound[sv] = true
	}
	for j, i := range v.idx {
		r := &s.recs[i]
		if !bsc[j].in {
			continue
		}
		tp := &per[v.loc[j]]
		has[v.loc[j]] = true
		if !isSound[r.solver] {
			continue
		}
		b := &bsc[j]
		t := b.w
		if m.seq {
			t = b.c
		}
		c := cand{solver: r.solver, n: b.n, t: t}
		if s.official {
			unsolved := b.n == 0
			if s.o.Track == benchmark.Incremental {
				unsolved = r.correct < r.checks
			}
			if unsolved {
				c.t = T
			}
			push(&tp.n, c, byBoth)
			continue
		}
		if b.n > 0 {
			push(&tp.n, c, byN)
			push(&tp.t, c, byT)
		}
	}
	// vbss with everyone, and the change when a solver is left out
	var vn, vt float64
	dn, dt := map[int32]float64{}, map[int32]float64{}
	for l := range per {
		if !has[l] {
			continue
		}
		tp := &per[l]
		if s.official {
			// A benchmark nobody is left on adds nothing.
			best, second := cand{}, cand{}
			if tp.n.k >= 1 {
				best = tp.n.best
			}
			if tp.n.k >= 2 {
				second = tp.n.second
			}
			vn += best.n
			vt += best.t
			if tp.n.k >= 1 {
				dn[best.solver] += best.n - second.n
				dt[best.solver] += best.t - second.t
			}
			continue
		}
		// max{} of nothing is 0, min{} of nothing the time limit.
		if tp.n.k >= 1 {
			vn += tp.n.best.n
			second := 0.0
			if tp.n.k >= 2 {
				second = tp.n.second.n
			}
			dn[tp.n.best.solver] += tp.n.best.n - second
		}
		if tp.t.k == 0 {
			vt += T
			continue
		}
		vt += tp.t.best.t
		second := T
		if tp.t.k >= 2 {
			second = tp.t.second.t
		}
		dt[tp.t.best.solver] += tp.t.best.t - second
	}
	if vn == 0 {
		out.skip = true
		return out
	}
	var cands []Contribution
	for sv := range sound {
		cn, ct := vn-dn[sv], vt-dt[sv]
		c := Contribution{Division: "", Solver: s.solvers[sv].Name, Correctness: 1 - cn/vn, Solvers: len(all)}
		if ct != 0 {
			c.Time = 1 - vt/ct
		}
		cands = append(cands, c)
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.Correctness != b.Correctness {
			return a.Correctness > b.Correctness
		}
		if a.Time != b.Time {
			return a.Time > b.Time
		}
		if s.official {
			return a.Solver > b.Solver // Python's sorted(..., reverse=True) on the tuple
		}
		return a.Solver < b.Solver
	})
	out.best, out.has = cands[0], true
	return out
}

// largestContribution normalises each division's best by n_D/N and ranks
// them.
func (s *scorer) largestContribution(k Kind, divs []*divData) []Contribution {
	total := 0
	for _, dd := range divs {
		if lc := dd.lc[k]; lc != nil && lc.countPairs && !dd.div.Experimental {
			total += lc.pairs
		}
	}
	var out []Contribution
	for _, dd := range divs {
		lc := dd.lc[k]
		if lc == nil || lc.skip || !lc.has || total == 0 || dd.div.Experimental {
			continue
		}
		c := lc.best
		c.Division, c.Pairs = dd.div.Name, lc.pairs
		w := float64(lc.pairs) / float64(total)
		c.Correctness *= w
		c.Time *= w
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Correctness != out[j].Correctness {
			return out[i].Correctness > out[j].Correctness
		}
		return out[i].Time > out[j].Time
	})
	return out
}

// newEntrants2022 is 2022 §7.4: new entrants that beat an existing solver
// in some division (by the parallel division score).
func (s *scorer) newEntrants2022(divs []*divData) []Recognition {
	isNew := map[string]bool{}
	for _, sv := range s.solvers {
		if sv.New {
			isNew[sv.Name] = true
		}
	}
	if len(isNew) == 0 {
		return nil
	}
	var out []Recognition
	for _, dd := range divs {
		if !dd.div.Competitive || dd.div.Experimental {
			continue
		}
		r := dd.div.Ranking(Parallel)
		if r == nil {
			continue
		}
		for i, e := range r.Entries {
			if !isNew[e.Solver] || !e.Competitive {
				continue
			}
			var beaten []string
			for _, f := range r.Entries[i+1:] {
				if !isNew[f.Solver] && s.compare(&mode{kind: Parallel}, &e, &f) < 0 {
					beaten = append(beaten, f.Solver)
				}
			}
			if len(beaten) > 0 {
				out = append(out, Recognition{Name: "new entrant", Kind: Parallel, Solver: e.Solver, Division: dd.div.Name,
					Value: float64(len(beaten)), Note: "beat " + joinNames(beaten)})
			}
		}
	}
	return out
}

func joinNames(ns []string) string {
	out := ""
	for i, n := range ns {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// wide is 2018 §7.5's competition-wide score of each solver:
// Σ (e_i = 0 ? (n_i/N_i)² : -4) · ln N_i over the competitive divisions it
// entered.
func (s *scorer) wide(k Kind, divs []*divData) []WideScore {
	return wideOf(k, divs, func(dd *divData) int { return dd.div.Benchmarks })
}

func wideOf(k Kind, divs []*divData, size func(*divData) int) []WideScore {
	sc := map[string]*WideScore{}
	var names []string
	for _, dd := range divs {
		if !dd.div.Competitive {
			continue
		}
		N := float64(size(dd))
		if N < 1 {
			continue
		}
		r := dd.div.Ranking(k)
		if r == nil {
			continue
		}
		for _, e := range r.Entries {
			w := sc[e.Solver]
			if w == nil {
				w = &WideScore{Solver: e.Solver, Competitive: e.Competitive}
				sc[e.Solver] = w
				names = append(names, e.Solver)
			}
			w.Divisions++
			if e.Error == 0 {
				w.Score += (e.Correct / N) * (e.Correct / N) * math.Log(N)
			} else {
				w.Score -= 4 * math.Log(N)
			}
		}
	}
	out := make([]WideScore, 0, len(names))
	for _, n := range names {
		out = append(out, *sc[n])
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Solver < out[j].Solver
	})
	return out
}

// recognitions2018 are 2018 §7.5's three best solvers, §7.6's best new
// entrant, and the special recognitions the 2018 rules list: best
// complementary solver, most unique solver, the prophet, the 10-second
// wonder (judged on the parallel, i.e. raw, scores).
func (s *scorer) recognitions2018(rep *Report, divs []*divData) []Recognition {
	var out []Recognition
	k := Parallel
	best := func(name string, ws []WideScore, pred func(WideScore) bool, n int, note string) {
		for _, w := range ws {
			if n == 0 {
				break
			}
			if w.Competitive && (pred == nil || pred(w)) {
				out = append(out, Recognition{Name: name, Kind: k, Solver: w.Solver, Value: w.Score, Note: note})
				n--
			}
		}
	}
	track := map[benchmark.Track]string{benchmark.SingleQuery: "competition-wide", benchmark.Incremental: "best application track solver",
		benchmark.UnsatCore: "best unsat-core track solver"}[s.o.Track]
	for _, kk := range s.kinds {
		k = kk
		best(track, rep.CompetitionWide[kk], nil, 3, "2018 §7.5")
	}
	k = Parallel
	isNew := map[string]bool{}
	for _, sv := range s.solvers {
		if sv.New {
			isNew[sv.Name] = true
		}
	}
	best("best new entrant", rep.CompetitionWide[k], func(w WideScore) bool { return isNew[w.Solver] }, 1, "2018 §7.6")
	if s.o.Track != benchmark.SingleQuery {
		return out
	}
	// Rescore subsets of the benchmarks, or with a 10 s limit.
	w := s.newWorker()
	rescore := func(filter func(dd *divData, i int32) bool, limit float64) []*divData {
		var sub []*divData
		for _, dd := range divs {
			var idx []int32
			for _, i := range dd.idx {
				if filter == nil || filter(dd, i) {
					idx = append(idx, i)
				}
			}
			if len(idx) == 0 {
				continue
			}
			saveKinds := s.kinds
			s.kinds, s.virtual = []Kind{Parallel}, limit
			x := s.division(w, dd.div.Name, idx)
			s.kinds, s.virtual = saveKinds, 0
			x.div.Competitive = dd.div.Competitive
			sub = append(sub, x)
		}
		return sub
	}
	solvedBy := func(dd *divData) map[int32]map[int32]bool { // bench -> solvers that solved it
		out := map[int32]map[int32]bool{}
		m := s.modeOf(Parallel)
		for _, i := range dd.idx {
			r := &s.recs[i]
			if b := s.benchScore(r, &m, true); b.solved {
				if out[r.bench] == nil {
					out[r.bench] = map[int32]bool{}
				}
				out[r.bench][r.solver] = true
			}
		}
		return out
	}
	// Best complementary solver: every division without the benchmarks its
	// winner solved.
	solved := map[*divData]map[int32]map[int32]bool{}
	for _, dd := range divs {
		solved[dd] = solvedBy(dd)
	}
	winnerOf := map[*divData]string{}
	for _, dd := range divs {
		if r := dd.div.Ranking(Parallel); r != nil {
			winnerOf[dd] = r.Winner
		}
	}
	comp := rescore(func(dd *divData, i int32) bool {
		w := winnerOf[dd]
		if w == "" {
			return true
		}
		for sv := range solved[dd][s.recs[i].bench] {
			if s.solvers[sv].Name == w {
				return false
			}
		}
		return true
	}, 0)
	best("best complementary solver", wideOf(k, comp, func(dd *divData) int { return dd.div.Benchmarks }), nil, 1,
		"competition-wide score without the benchmarks each division's winner solved")
	// Most unique solver: benchmarks only one solver solved.
	unique := map[string]float64{}
	for _, dd := range divs {
		if !dd.div.Competitive {
			continue
		}
		for _, svs := range solved[dd] {
			if len(svs) == 1 {
				for sv := range svs {
					unique[s.solvers[sv].Name]++
				}
			}
		}
	}
	var us []WideScore
	for _, sv := range s.solvers {
		if n := unique[sv.Name]; n > 0 && sv.Competitive {
			us = append(us, WideScore{Solver: sv.Name, Competitive: true, Score: n})
			unique[sv.Name] = 0
		}
	}
	sort.Slice(us, func(i, j int) bool {
		if us[i].Score != us[j].Score {
			return us[i].Score > us[j].Score
		}
		return us[i].Solver < us[j].Solver
	})
	best("most unique solver", us, nil, 1, "benchmarks solved by it alone")
	// The prophet: benchmarks of unknown status.
	prophet := rescore(func(dd *divData, i int32) bool { return s.recs[i].expected == aUnknown }, 0)
	best("the prophet", wideOf(k, prophet, func(dd *divData) int { return dd.div.Benchmarks }), nil, 1,
		"competition-wide score on the benchmarks of unknown status")
	// The 10 second wonder.
	ten := rescore(nil, 10)
	best("the 10 second wonder", wideOf(k, ten, func(dd *divData) int { return dd.div.Benchmarks }), nil, 1,
		"competition-wide score with a 10 s limit")
	return out
}

// timeRatios sums, per solver of a division, its time over the winner's on
// each benchmark (2014 §6.2's best new entrant measure, sequential times).
func (s *scorer) timeRatios(idx []int32, bsc []bscore, winner string) map[string][2]float64 {
	win := map[int32]float64{}
	for j, i := range idx {
		r := &s.recs[i]
		if s.solvers[r.solver].Name == winner {
			win[r.bench] = bsc[j].c
		}
	}
	out := map[string][2]float64{}
	for j, i := range idx {
		r := &s.recs[i]
		sv := &s.solvers[r.solver]
		if !sv.New {
			continue
		}
		wt, ok := win[r.bench]
		if !ok {
			continue
		}
		x := out[sv.Name]
		x[0] += math.Max(bsc[j].c, 0.001) / math.Max(wt, 0.001)
		x[1]++
		out[sv.Name] = x
	}
	return out
}

// recognitions2014 are 2014 §6.2's: the best open-source solver of each
// division, and the best new entrant by its mean time ratio to the
// division winners.
func (s *scorer) recognitions2014(divs []*divData) []Recognition {
	var out []Recognition
	open := map[string]bool{}
	for _, sv := range s.solvers {
		if sv.OpenSource {
			open[sv.Name] = true
		}
	}
	for _, dd := range divs {
		if !dd.div.Competitive {
			continue
		}
		for _, k := range s.kinds {
			r := dd.div.Ranking(k)
			for _, e := range r.Entries {
				if e.Competitive && open[e.Solver] {
					out = append(out, Recognition{Name: "open source", Kind: k, Solver: e.Solver, Division: dd.div.Name, Value: e.Correct})
					break
				}
			}
		}
	}
	sum := map[string][2]float64{}
	for _, dd := range divs {
		for n, x := range dd.ratio {
			y := sum[n]
			y[0] += x[0]
			y[1] += x[1]
			sum[n] = y
		}
	}
	bestName, bestMean := "", math.Inf(1)
	for _, n := range sortedKeys(sum) {
		if m := sum[n][0] / sum[n][1]; m < bestMean {
			bestName, bestMean = n, m
		}
	}
	if bestName != "" {
		out = append(out, Recognition{Name: "best new entrant", Kind: Sequential, Solver: bestName, Value: bestMean,
			Note: "mean of its time over the division winner's, per benchmark"})
	}
	return out
}
