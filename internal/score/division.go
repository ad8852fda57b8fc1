package score

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// divData is a division's scores with what the competition-wide rankings
// need of its benchmark scores.
type divData struct {
	div Division
	idx []int32
	// largest contribution candidates (2022 §7.3.2), per kind
	lc map[Kind]*lcDiv
	// 2014 best new entrant: sums of time ratios to the division winner
	ratio map[string][2]float64
}

// view is a set of rows with their benchmarks numbered from 0.
type view struct {
	idx   []int32 // rows
	loc   []int32 // the local number of each row's benchmark
	bench []int32 // the benchmark of each local number
}

// worker holds scratch space, so that divisions can be scored in parallel.
type worker struct {
	localOf []int32 // benchmark -> local number, -1 when unseen
}

func (s *scorer) newWorker() *worker {
	w := &worker{localOf: make([]int32, len(s.benches))}
	for i := range w.localOf {
		w.localOf[i] = -1
	}
	return w
}

func (s *scorer) viewOf(w *worker, idx []int32) view {
	v := view{idx: idx, loc: make([]int32, len(idx))}
	for j, i := range idx {
		b := s.recs[i].bench
		l := w.localOf[b]
		if l < 0 {
			l = int32(len(v.bench))
			w.localOf[b] = l
			v.bench = append(v.bench, b)
		}
		v.loc[j] = l
	}
	for _, b := range v.bench {
		w.localOf[b] = -1
	}
	return v
}

type acc struct {
	e, n, w, c                                    float64
	solved, sat, unsat, unsolved, timeout, memout int
	rows                                          int
	points, time, tie                             float64
	unknown, wrong                                int
	seen                                          bool
}

// division scores the rows idx (one division, or one logic of it).
func (s *scorer) division(w *worker, name string, idx []int32) *divData {
	dd := &divData{idx: idx, lc: map[Kind]*lcDiv{}}
	d := &dd.div
	d.Name = name
	v := s.viewOf(w, idx)
	d.Benchmarks = len(v.bench)
	perLogic := map[int32]int{}
	for _, b := range v.bench {
		perLogic[s.benches[b].logic]++
	}
	for li, n := range perLogic {
		d.Logics = append(d.Logics, LogicSize{Logic: s.logics[li], Benchmarks: n})
	}
	sort.Slice(d.Logics, func(a, b int) bool { return d.Logics[a].Logic < d.Logics[b].Logic })
	d.Competitive = s.competitive(idx)
	if s.legacy() && s.legacyNonCompeting(name) {
		d.Competitive = false
	}
	d.Experimental = s.experimental(d.Logics)
	weights := s.weights(&v)
	var bsc []bscore
	for _, k := range s.kinds {
		m := s.modeOf(k)
		var r Ranking
		r, bsc = s.rank(&m, &v, weights, bsc)
		if (!d.Competitive || d.Experimental) && !s.official {
			r.Winner = ""
		}
		if s.legacy() {
			r.Winner = legacyWinner(&r, d.Competitive)
		}
		d.Rankings = append(d.Rankings, r)
		if s.rules == 2022 {
			dd.lc[k] = s.lcDivision(&m, &v, bsc)
		}
		if s.rules == 2014 && k == Sequential && r.Winner != "" {
			dd.ratio = s.timeRatios(idx, bsc, r.Winner)
		}
	}
	return dd
}

// competitive says whether a division is competitive: two competitive
// solvers of different teams (2018 §7.1, 2022 §6), or of any teams before
// 2018 (2014 §4: two entrants). Officially: two competitive names.
func (s *scorer) competitive(idx []int32) bool {
	teams := map[string]bool{}
	seen := make([]bool, len(s.solvers))
	for _, i := range idx {
		si := s.recs[i].solver
		if seen[si] {
			continue
		}
		seen[si] = true
		sv := &s.solvers[si]
		if !sv.Competitive {
			continue
		}
		t := sv.Team
		if (s.official || s.rules < 2018) && !(s.legacy() && s.o.Year == 2015) {
			// 2015's programs wanted two teams (competition.ml's
			// families, confirm_winner); 2016-2018's two solvers.
			t = sv.Name
		}
		teams[t] = true
		if len(teams) > 1 {
			return true
		}
	}
	return false
}

// weights are 2018 §7.4's family weights: α_b = (1 + ln F_b)/F_b,
// normalised to α'_b = α_b / Σ α_b', per local benchmark (times N for e
// and n, applied by rank). Nil when the rules weigh nothing.
func (s *scorer) weights(v *view) []float64 {
	if s.legacy() {
		if !legacyWeighted(s.o.Year, s.o.Track) {
			return nil
		}
	} else if s.rules != 2018 || s.o.Track == benchmark.Incremental {
		return nil
	}
	famSize := map[int32]int{}
	for _, b := range v.bench {
		famSize[s.benches[b].family]++
	}
	sum := 0.0
	for _, f := range famSize {
		sum += float64(f) * (1 + math.Log(float64(f))) / float64(f)
	}
	w := make([]float64, len(v.bench))
	for l, b := range v.bench {
		f := float64(famSize[s.benches[b].family])
		w[l] = (1 + math.Log(f)) / f / sum
	}
	return w
}

// markSet says which benchmarks a sat or unsat score considers: those of
// that status, and those of unknown status that (sound) solvers answered
// so. The official script decides on the answers left after its time
// limit.
func (s *scorer) markSet(m *mode, v *view) []bool {
	set := make([]bool, len(v.bench))
	unsound := make([]bool, len(s.solvers))
	if !s.official {
		for _, i := range v.idx {
			r := &s.recs[i]
			if e, _, _ := s.judge(r); e > 0 && r.expected != aUnknown {
				unsound[r.solver] = true
			}
		}
	}
	for j, i := range v.idx {
		r := &s.recs[i]
		if r.expected == m.filter {
			set[v.loc[j]] = true
			continue
		}
		if r.expected != aUnknown {
			continue
		}
		ans := r.answer
		if s.official {
			t := r.wall
			if r.status == stMemout {
				t = m.limit
			}
			if t > m.limit {
				ans = aUnknown
			}
		} else if unsound[r.solver] {
			continue
		}
		if ans == m.filter {
			set[v.loc[j]] = true
		}
	}
	return set
}

// rank computes one division score of every solver and orders them; buf
// is reused for the benchmark scores it returns.
func (s *scorer) rank(m *mode, v *view, weights []float64, buf []bscore) (Ranking, []bscore) {
	var set []bool
	inSet := len(v.bench)
	if m.filter != aUnknown {
		set = s.markSet(m, v)
		inSet = 0
		for _, x := range set {
			if x {
				inSet++
			}
		}
	}
	nBench := float64(len(v.bench))
	bsc := buf[:0]
	if cap(bsc) < len(v.idx) {
		bsc = make([]bscore, 0, len(v.idx))
	}
	accs := make([]acc, len(s.solvers))
	var order []int32
	for j, i := range v.idx {
		r := &s.recs[i]
		b := s.benchScore(r, m, set == nil || set[v.loc[j]])
		bsc = append(bsc, b)
		a := &accs[r.solver]
		if !a.seen {
			a.seen = true
			order = append(order, r.solver)
		}
		if !b.in {
			continue
		}
		a.rows++
		if weights != nil {
			wt := weights[v.loc[j]]
			a.e += b.e * (wt * nBench)
			a.n += b.n * (wt * nBench)
			a.w += b.w * wt
			a.c += b.c * wt
		} else {
			a.e += b.e
			a.n += b.n
			a.w += b.w
			a.c += b.c
		}
		if b.solved {
			a.solved++
		}
		if b.sat {
			a.sat++
		}
		if b.unsat {
			a.unsat++
		}
		a.unsolved += int(b.unsolved)
		if b.timeout {
			a.timeout++
		}
		if b.memout {
			a.memout++
		}
		if s.rules == 2006 {
			a.points += b.n - 8*b.e
			if b.answered {
				a.time += r.cpu
			}
			if !b.timeout {
				a.tie += r.cpu
				if !b.answered {
					a.unknown++
				}
			}
			a.wrong += int(b.e)
		}
	}
	rk := Ranking{Kind: m.kind}
	for _, si := range order {
		a, sv := &accs[si], &s.solvers[si]
		e := Entry{Solver: sv.Name, Competitive: sv.Competitive, key: sv.key,
			Error: a.e, Correct: a.n, CPU: a.c, Wall: a.w, Solved: a.solved, SolvedSat: a.sat, SolvedUnsat: a.unsat,
			Unsolved: a.unsolved, Abstained: max(inSet-a.rows, 0), Timeout: a.timeout, Memout: a.memout,
			Points: a.points, Time: a.time, TieTime: a.tie, Unknown: a.unknown, Wrong: a.wrong}
		if s.legacy() && s.o.Track != benchmark.Incremental {
			// competition.ml: not_solved = the division's benchmarks
			// less the solver's correct answers.
			e.Unsolved = len(v.bench) - e.Solved
		}
		if s.logicPages() {
			// md_get_div_score_details: the page's benchmarks less the
			// solved and unsolved rows; incremental: the check-sats less
			// the correct and unanswered ones, always 0.
			e.Abstained = len(v.bench) - (e.Solved + e.Unsolved)
			if s.o.Track == benchmark.Incremental {
				e.Abstained = 0
			}
		}
		rk.Entries = append(rk.Entries, e)
	}
	s.order(m, &rk)
	if inSet == 0 {
		rk.Winner = "" // no benchmark to win on (a sat or unsat score)
	}
	return rk, bsc
}

// order sorts a ranking by the rules' lexicographic order, ranks it and
// names the winner.
func (s *scorer) order(m *mode, rk *Ranking) {
	es := rk.Entries
	if s.rules == 2006 {
		s.disqualify(es)
	}
	cmp := func(a, b *Entry) int { return s.compare(m, a, b) }
	sort.SliceStable(es, func(i, j int) bool {
		if c := cmp(&es[i], &es[j]); c != 0 {
			return c < 0
		}
		if s.official {
			return keyLess(es[i].key, es[j].key)
		}
		return es[i].Solver < es[j].Solver
	})
	if s.official {
		rank := 1
		for i := range es {
			es[i].Rank = rank
			if es[i].Competitive {
				rank++
			}
		}
		for i := range es {
			if es[i].Competitive {
				if es[i].Correct > 0 {
					rk.Winner = es[i].Solver
				}
				break
			}
		}
		return
	}
	rank, better := 0, 0
	var prev *Entry
	for i := range es {
		if !es[i].Competitive {
			continue
		}
		if prev == nil || cmp(prev, &es[i]) != 0 {
			rank = better + 1
		}
		es[i].Rank = rank
		better++
		prev = &es[i]
	}
	var win []string
	for i := range es {
		if es[i].Competitive && es[i].Rank == 1 && !es[i].Disqualified {
			win = append(win, es[i].Solver)
		}
	}
	rk.Winner = strings.Join(win, " and ")
}

// compare orders two division scores: negative when a is better.
func (s *scorer) compare(m *mode, a, b *Entry) int {
	if s.rules == 2006 {
		if a.Disqualified != b.Disqualified {
			if a.Disqualified {
				return 1
			}
			return -1
		}
		return firstOf(fcmp(b.Points, a.Points), fcmp(a.TieTime, b.TieTime))
	}
	if s.legacy() {
		return legacyCompare(m, a, b)
	}
	c := firstOf(fcmp(a.Error, b.Error), fcmp(b.Correct, a.Correct))
	if c != 0 {
		return c
	}
	switch {
	case s.official:
		if m.seq {
			return firstOf(fcmp(a.CPU, b.CPU), fcmp(a.Wall, b.Wall))
		}
		return firstOf(fcmp(a.Wall, b.Wall), fcmp(a.CPU, b.CPU))
	case s.rules == 2014:
		if m.seq {
			return fcmp(a.CPU, b.CPU)
		}
		return fcmp(a.Wall, b.Wall)
	case m.seq:
		return fcmp(a.CPU, b.CPU) // ⟨e, n, c⟩
	}
	return firstOf(fcmp(a.Wall, b.Wall), fcmp(a.CPU, b.CPU)) // ⟨e, n, w, c⟩
}

func fcmp(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func firstOf(cs ...int) int {
	for _, c := range cs {
		if c != 0 {
			return c
		}
	}
	return 0
}

// keyLess orders solver keys as the official script's group-by does:
// numerically when both are ids.
func keyLess(a, b string) bool {
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if err1 == nil && err2 == nil {
		return x < y
	}
	return a < b
}
