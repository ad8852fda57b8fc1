package score

import (
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The official computation of 2024 on: what the smtcomp tool
// (SMT-COMP/smt-comp.github.io, smtcomp/scoring.py and
// generate_website_page.py) computes from its results. It differs from the
// scorer of 2019-2023's score.py enough to be a computation of its own:
//
//   - every row keeps its measured times; a division score sums, per
//     solver, the times of the rows with a sat or unsat answer (all rows in
//     the incremental track), and the sequential score only zeroes the four
//     scores of a row whose CPU time is over the time limit (its answer
//     still counts as solved);
//   - per track (scoring.benchmark_scoring): single query, cloud and
//     parallel: e = 1 on an answer contrary to the sound status, n = 1 on
//     a sat or unsat answer that is not an error; unsat core: e = 1 on sat
//     or UnsatCoreNotValidated, n = assertions - core size on unsat (not
//     clamped); model validation: e = 1 on unsat or ModelUnsat, n = 1 on a
//     validated sat; incremental: e = 1 on IncrementalError, n = the
//     answered check-sats whatever the run's end; every benchmark's status
//     is unsat in the unsat-core track and sat in the model-validation one;
//   - sound solvers are those without a sat/unsat answer contrary to a
//     benchmark's status in the division; a benchmark that sound solvers
//     answered both sat and unsat is removed, and otherwise gets their
//     answer as its status ("sound status"), which decides errors and the
//     sat and unsat scores;
//   - the sat and unsat scores keep the rows of benchmarks of that sound
//     status, the 24-seconds score the rows whose wall-clock time is at
//     most 24 s; solved, unsolved, timeout and memout count answers, and
//     abstained is the division's benchmarks minus the solver's rows;
//   - a solver that entered a logic (its submission) and has no result on
//     a benchmark of it gets a row with no answer, no time and nb_answers
//     -1; results in logics the solver did not enter are not scored;
//   - rankings order ⟨e, n, w, c⟩ then the solver's name; the winner is
//     the first solver when its correct score is not 0; every solver
//     "competes";
//   - biggest lead and largest contribution as generate_website_page.py
//     computes them (the largest contribution keeps its first 19 lines and
//     leaves out divisions with fewer than 3 contributing solvers).

// Official answers of the tool (defs.Answer), and a missing result.
const (
	o24Unsat uint8 = iota
	o24Sat
	o24Unknown
	o24Incremental
	o24OOM
	o24Timeout
	o24IncError
	o24CoreInvalid
	o24ModelUnsat
	o24ModelOther // ModelNotValidated, ModelParsingError, ...: neither solved nor an error
	o24Missing
)

type row24 struct {
	solver, bench int32
	ans           uint8
	cpu, wall     float64
	nb            float64
}

type bench24 struct {
	logic, div int32
	checks     int // check-sats (incremental), assertions (unsat core): the best overall ranking's N_D

	status  uint8 // aSat, aUnsat, aUnknown
	sound   uint8 // the sound status
	removed bool
}

// score2024 is the tool's computation over rows.
type score2024 struct {
	o        Options
	y25      bool // the tool as of 2025: competitive flags, families (official2025.go)
	inc      bool
	aws      bool // cloud and parallel: no sequential score
	solvers  []string
	comp     []bool
	benches  []bench24
	paths    []string
	logics   []string
	divNames []string
	rows     []row24
	soundSD  []bool // solver*len(divNames)+division: the solver is sound there
}

func answer2024(r *Row, track benchmark.Track) uint8 {
	switch w := r.Result; {
	case w == "sat":
		return o24Sat
	case w == "unsat":
		return o24Unsat
	case w == "unknown":
		return o24Unknown
	case w == "incremental":
		return o24Incremental
	case w == "OutOfMemory":
		return o24OOM
	case w == "Timeout":
		return o24Timeout
	case w == "IncrementalError":
		return o24IncError
	case w == "UnsatCoreNotValidated":
		return o24CoreInvalid
	case w == "ModelUnsat":
		return o24ModelUnsat
	case strings.HasPrefix(w, "Model"):
		return o24ModelOther
	}
	// Rows without the tool's word (other importers, smtarena's runs).
	switch parseStatus(r.Status) {
	case stTimeout:
		return o24Timeout
	case stMemout:
		return o24OOM
	}
	if track == benchmark.Incremental {
		if r.WrongAnswers > 0 {
			return o24IncError
		}
		if r.Status == "complete" || r.Status == "" {
			return o24Incremental
		}
		return o24Unknown
	}
	switch parseAnswer(r.Answer) {
	case aSat:
		if m := r.Model(); m == "INVALID" || m == "UNKNOWN" {
			return o24ModelOther
		}
		return o24Sat
	case aUnsat:
		if r.CoreErroneous {
			return o24CoreInvalid
		}
		return o24Unsat
	}
	return o24Unknown
}

func known24(a uint8) bool { return a == o24Sat || a == o24Unsat }

func newScore2024(rows []Row, o Options) *score2024 {
	s := &score2024{o: o, y25: o.Year >= 2025, inc: o.Track == benchmark.Incremental, aws: o.Track == benchmark.Cloud || o.Track == benchmark.Parallel}
	// The benchmarks: those of the rows, the selected and the removed
	// ones (sized for two solvers a benchmark).
	nb := len(rows)/2 + len(o.Selection) + len(o.Removed)
	benchIdx := benchIndex{sorted: make([]string, 0, nb), at: make([]int32, 0, nb)}
	logicIdx, divIdx := map[string]int32{}, map[string]int32{}
	s.benches, s.paths = make([]bench24, 0, nb), make([]string, 0, nb)
	divOfLogic := map[string]string{}
	for _, d := range sortedKeys(o.Divisions) {
		for _, l := range o.Divisions[d] {
			if _, ok := divOfLogic[l]; !ok {
				divOfLogic[l] = d
			}
		}
	}
	// The benchmarks of a logic come one after the other, mostly.
	lastLogic, lastLI, lastDI := "", int32(-1), int32(-1)
	addBench := func(path string, status uint8) int32 {
		logic := benchmark.LogicOfPath(path)
		li, di := lastLI, lastDI
		if li < 0 || logic != lastLogic {
			var ok bool
			li, ok = logicIdx[logic]
			if !ok {
				li = int32(len(s.logics))
				logicIdx[logic] = li
				s.logics = append(s.logics, logic)
			}
			dn := divOfLogic[logic]
			if dn == "" {
				dn = logic
			}
			di, ok = divIdx[dn]
			if !ok {
				di = int32(len(s.divNames))
				divIdx[dn] = di
				s.divNames = append(s.divNames, dn)
			}
			lastLogic, lastLI, lastDI = logic, li, di
		}
		switch o.Track {
		case benchmark.UnsatCore:
			status = aUnsat // scoring.py: every benchmark's sound status is unsat
		case benchmark.ModelValidation:
			status = aSat // ... and sat in the model-validation track
		}
		bi := int32(len(s.benches))
		benchIdx.add(path, bi)
		s.benches = append(s.benches, bench24{logic: li, div: di, status: status})
		s.paths = append(s.paths, path)
		return bi
	}
	removed := map[string]bool{}
	for _, p := range o.Removed {
		removed[p] = true
	}
	// The solvers by name, in the order their first scored row (or
	// missing result) names them.
	solverIdx := map[string]int32{}
	solverOf := func(name string) int32 {
		si, ok := solverIdx[name]
		if !ok {
			si = int32(len(s.solvers))
			solverIdx[name] = si
			s.solvers = append(s.solvers, name)
			s.comp = append(s.comp, o.Solvers.lookup(name).Competitive)
		}
		return si
	}
	// What a row's solver key gives, looked up once per key: its name,
	// its index (-1 until a row of it is scored), and whether it entered
	// each logic (by logic index: 0 not known yet, 1 yes, 2 no).
	type key24 struct {
		key, name string
		si        int32
		entered   map[string]bool
		byLogic   []uint8
	}
	var keys []*key24
	keyMap := map[string]*key24{}
	keyOf := func(k string) *key24 {
		if len(keys) <= 32 {
			for _, x := range keys {
				if x.key == k {
					return x
				}
			}
		} else if x, ok := keyMap[k]; ok {
			return x
		}
		x := &key24{key: k, name: o.Solvers.lookup(k).Name, si: -1}
		if o.Entrants != nil {
			x.entered = map[string]bool{}
			for _, l := range o.Entrants[x.name] {
				x.entered[l] = true
			}
		}
		keys = append(keys, x)
		keyMap[k] = x
		return x
	}
	// Room for the rows and some missing results of entrants (added at
	// the end): the rows are many, and not grown by a copy if they fit.
	s.rows = make([]row24, 0, len(rows)+len(rows)/64+1024)
	// A benchmark's rows come one after the other: its index, logic and
	// removal are looked up once for them.
	lastPath, lastBench, lastRemoved := "", int32(-1), false
	var last *key24
	for i := range rows {
		r := &rows[i]
		if lastBench < 0 || r.Benchmark != lastPath {
			bi, ok := int32(0), false
			if !benchIdx.isNew(r.Benchmark) {
				bi, ok = benchIdx.find(r.Benchmark)
			}
			if !ok {
				bi = addBench(r.Benchmark, parseAnswer(r.Expected))
			}
			lastPath, lastBench, lastRemoved = r.Benchmark, bi, removed[r.Benchmark]
		}
		if lastRemoved {
			continue
		}
		bi := lastBench
		if last == nil || last.key != r.Solver {
			last = keyOf(r.Solver)
		}
		k := last
		if o.Entrants != nil {
			li := s.benches[bi].logic
			for int(li) >= len(k.byLogic) {
				k.byLogic = append(k.byLogic, 0)
			}
			if k.byLogic[li] == 0 {
				k.byLogic[li] = 2
				if k.entered[s.logics[li]] {
					k.byLogic[li] = 1
				}
			}
			if k.byLogic[li] != 1 {
				continue // the tool joins results to the logics each solver entered
			}
		}
		if b := &s.benches[bi]; b.checks == 0 {
			if s.inc {
				b.checks = int(r.CheckSats)
			} else {
				b.checks = int(r.Asserts)
			}
		}
		if k.si < 0 {
			k.si = solverOf(k.name)
		}
		a := answer2024(r, o.Track)
		nb := 1.0
		switch {
		case s.inc:
			nb = float64(r.CorrectAnswers)
		case o.Track == benchmark.UnsatCore:
			nb = float64(r.Reduction)
			if r.Asserts > 0 {
				nb = float64(r.Asserts - r.CoreSize)
			}
		}
		s.rows = append(s.rows, row24{solver: k.si, bench: bi, ans: a, cpu: r.CPU, wall: r.Wall, nb: nb})
	}
	// The selection: the benchmarks with results, the others selected,
	// and the removed ones of the logics there are.
	for _, p := range o.Selection {
		if _, ok := benchIdx.find(p); !ok {
			addBench(p, parseAnswer(o.Status[p]))
		}
	}
	for _, p := range o.Removed {
		if _, ok := logicIdx[benchmark.LogicOfPath(p)]; ok && strings.HasPrefix(p, "incremental/") == s.inc {
			if _, ok := benchIdx.find(p); !ok {
				addBench(p, parseAnswer(o.Status[p]))
			}
		}
	}
	if o.Entrants != nil {
		// A missing result of an entrant: no answer, no time, nb_answers
		// -1. has[si*nb+bi]: the solver has a row on the benchmark.
		ns, nb := len(s.solvers), len(s.benches)
		has := make([]bool, ns*nb)
		for _, r := range s.rows {
			has[int(r.solver)*nb+int(r.bench)] = true
		}
		byLogic := bucket(len(s.benches), len(s.logics), func(i int) int32 { return s.benches[i].logic })
		// Counted, then added (the rows are many: not grown by copies).
		missing := func(add func(si, bi int32)) {
			for _, name := range sortedKeys(o.Entrants) {
				for _, l := range o.Entrants[name] {
					li, ok := logicIdx[l]
					if !ok {
						continue
					}
					for _, bi := range byLogic[li] {
						si := solverOf(name)
						if int(si) >= ns || !has[int(si)*nb+int(bi)] {
							add(si, bi)
						}
					}
				}
			}
		}
		n := 0
		missing(func(int32, int32) { n++ })
		s.rows = slices.Grow(s.rows, n)
		missing(func(si, bi int32) { s.rows = append(s.rows, row24{solver: si, bench: bi, ans: o24Missing, nb: -1}) })
	}
	return s
}

// benchIndex finds benchmarks by path. The rows of a year come in the
// order of their benchmarks' paths, mostly: the paths that came in
// increasing order are searched for in their list, without hashing, and a
// path greater than all of them is new unless it is among the others (few,
// in a map).
type benchIndex struct {
	sorted []string // increasing
	at     []int32  // the index of each
	other  map[string]int32
}

// isNew says whether a path is surely not in the index yet.
func (x *benchIndex) isNew(p string) bool {
	if n := len(x.sorted); n > 0 && p <= x.sorted[n-1] {
		return false
	}
	if len(x.other) == 0 {
		return true
	}
	_, ok := x.other[p]
	return !ok
}

func (x *benchIndex) find(p string) (int32, bool) {
	if i, ok := slices.BinarySearch(x.sorted, p); ok {
		return x.at[i], true
	}
	i, ok := x.other[p]
	return i, ok
}

// add adds a path that is not in the index.
func (x *benchIndex) add(p string, i int32) {
	if n := len(x.sorted); n == 0 || p > x.sorted[n-1] {
		x.sorted, x.at = append(x.sorted, p), append(x.at, i)
		return
	}
	if x.other == nil {
		x.other = map[string]int32{}
	}
	x.other[p] = i
}

// disagreements computes sound solvers and sound statuses and removes the
// benchmarks sound solvers disagree on (scoring.add_disagreements_info).
func (s *score2024) disagreements() []Disagreement {
	nd := int32(len(s.divNames))
	s.soundSD = make([]bool, len(s.solvers)*len(s.divNames))
	for _, r := range s.rows {
		s.soundSD[r.solver*nd+s.benches[r.bench].div] = true
	}
	for _, r := range s.rows {
		b := &s.benches[r.bench]
		key := r.solver*nd + b.div
		switch {
		case s.inc:
			if r.ans == o24IncError {
				s.soundSD[key] = false
			}
		case s.o.Track == benchmark.UnsatCore:
			if r.ans == o24Sat || r.ans == o24CoreInvalid {
				s.soundSD[key] = false
			}
		case s.o.Track == benchmark.ModelValidation:
			if r.ans == o24Unsat || r.ans == o24ModelUnsat {
				s.soundSD[key] = false
			}
		case (b.status == aSat && r.ans == o24Unsat) || (b.status == aUnsat && r.ans == o24Sat):
			s.soundSD[key] = false
		}
	}
	for i := range s.benches {
		s.benches[i].sound = s.benches[i].status
	}
	if s.o.Track == benchmark.UnsatCore || s.o.Track == benchmark.ModelValidation {
		return nil // every benchmark has its status; no disagreement
	}
	if s.inc {
		for i := range s.benches {
			s.benches[i].sound = aUnknown // "incremental": neither sat nor unsat
		}
		return nil
	}
	sat := make([][]int32, len(s.benches))
	unsat := make([][]int32, len(s.benches))
	for _, r := range s.rows {
		if !s.sound(r.solver, s.benches[r.bench].div) {
			continue
		}
		switch r.ans {
		case o24Sat:
			sat[r.bench] = append(sat[r.bench], r.solver)
		case o24Unsat:
			unsat[r.bench] = append(unsat[r.bench], r.solver)
		}
	}
	var out []Disagreement
	for bi := range s.benches {
		b := &s.benches[bi]
		switch {
		case len(sat[bi]) > 0 && len(unsat[bi]) > 0:
			b.removed = true
			out = append(out, Disagreement{Division: s.divNames[b.div], Benchmark: s.paths[bi], Sat: s.nameList(sat[bi]), Unsat: s.nameList(unsat[bi])})
		case len(sat[bi]) > 0:
			b.sound = aSat
		case len(unsat[bi]) > 0:
			b.sound = aUnsat
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Division != out[b].Division {
			return out[a].Division < out[b].Division
		}
		return out[a].Benchmark < out[b].Benchmark
	})
	return out
}

// sound says whether a solver is sound in a division.
func (s *score2024) sound(solver, div int32) bool {
	return s.soundSD[int(solver)*len(s.divNames)+int(div)]
}

func (s *score2024) nameList(ids []int32) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		if n := s.solvers[id]; !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// bscore24 is a row's benchmark score (scoring.benchmark_scoring).
type bscore24 struct{ e, n, w, c float64 }

func (s *score2024) benchScore(r *row24) bscore24 {
	if s.inc {
		e := 0.0
		if r.ans == o24IncError {
			e = 1
		}
		return bscore24{e: e, n: r.nb, w: r.wall, c: r.cpu}
	}
	var b bscore24
	if known24(r.ans) {
		b.w, b.c = r.wall, r.cpu
	}
	switch s.o.Track {
	case benchmark.UnsatCore:
		if r.ans == o24Sat || r.ans == o24CoreInvalid {
			b.e = 1
		}
		if r.ans == o24Unsat {
			b.n = r.nb
		}
	case benchmark.ModelValidation:
		if r.ans == o24Unsat || r.ans == o24ModelUnsat {
			b.e = 1
		}
		if r.ans == o24Sat {
			b.n = 1
		}
	default:
		ss := s.benches[r.bench].sound
		if (ss == aSat && r.ans == o24Unsat) || (ss == aUnsat && r.ans == o24Sat) {
			b.e = 1
		}
		if known24(r.ans) && b.e == 0 {
			b.n = r.nb // a wrong answer is answered (its times count) but not correct
		}
	}
	return b
}

// keep says whether a row counts for a kind (scoring.filter_for); the
// sequential score keeps every row and zeroes the scores of those over
// the time limit in CPU time.
func (s *score2024) keep(k Kind, r *row24) bool {
	switch k {
	case Sat:
		return s.benches[r.bench].sound == aSat
	case Unsat:
		return s.benches[r.bench].sound == aUnsat
	case TwentyFour:
		return r.wall <= 24
	}
	return true
}

func (s *score2024) kinds() []Kind { return []Kind{Sequential, Parallel, Sat, Unsat, TwentyFour} }

// rank builds a ranking of the rows idx (one division or logic) for a kind.
func (s *score2024) rank(k Kind, idx []int32, total int) Ranking {
	type accum struct {
		e, n, w, c                                    float64
		solved, sat, unsat, unsolved, timeout, memout int
		rows                                          int
		seen                                          bool
	}
	acc := make([]accum, len(s.solvers))
	var order []int32
	for _, i := range idx {
		r := &s.rows[i]
		if !s.keep(k, r) {
			continue
		}
		b := s.benchScore(r)
		if k == Sequential && r.cpu > s.o.TimeLimit {
			b = bscore24{}
		}
		a := &acc[r.solver]
		if !a.seen {
			a.seen = true
			order = append(order, r.solver)
		}
		a.rows++
		a.e += b.e
		a.n += b.n
		a.w += b.w
		a.c += b.c
		switch r.ans {
		case o24Sat:
			a.solved++
			a.sat++
		case o24Unsat:
			a.solved++
			a.unsat++
		default:
			a.unsolved++
		}
		if r.ans == o24Timeout {
			a.timeout++
		}
		if r.ans == o24OOM {
			a.memout++
		}
	}
	rk := Ranking{Kind: k}
	if k == Sequential && s.aws {
		return rk
	}
	for _, si := range order {
		a := &acc[si]
		rk.Entries = append(rk.Entries, Entry{Solver: s.solvers[si], Competitive: s.comp[si], Error: a.e, Correct: a.n, CPU: a.c, Wall: a.w,
			Solved: a.solved, SolvedSat: a.sat, SolvedUnsat: a.unsat, Unsolved: a.unsolved, Abstained: total - a.rows,
			Timeout: a.timeout, Memout: a.memout, key: s.solvers[si]})
	}
	sortEntries24(rk.Entries)
	if s.y25 {
		competitiveFirst(rk.Entries)
	}
	for i := range rk.Entries {
		rk.Entries[i].Rank = i + 1
	}
	rk.Winner = s.winner(rk.Entries)
	return rk
}

// sortEntries24 orders by ⟨e, n, w, c⟩ and the solver's name.
func sortEntries24(es []Entry) {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := &es[i], &es[j]
		if c := firstOf(fcmp(a.Error, b.Error), fcmp(b.Correct, a.Correct), fcmp(a.Wall, b.Wall), fcmp(a.CPU, b.CPU)); c != 0 {
			return c < 0
		}
		return a.Solver < b.Solver
	})
}

// group scores a division or logic: rows idx, its benchmarks (all, the
// removed ones included, as the tool counts the selection).
func (s *score2024) group(name string, idx []int32, benches []int32) Division {
	d := Division{Name: name, Benchmarks: len(benches)}
	per := map[int32]int{}
	for _, b := range benches {
		per[s.benches[b].logic]++
	}
	for li, n := range per {
		d.Logics = append(d.Logics, LogicSize{Logic: s.logics[li], Benchmarks: n})
	}
	sort.Slice(d.Logics, func(a, b int) bool { return d.Logics[a].Logic < d.Logics[b].Logic })
	for _, k := range s.kinds() {
		d.Rankings = append(d.Rankings, s.rank(k, idx, len(benches)))
	}
	comp := 0
	if r := d.Ranking(Parallel); r != nil {
		for _, e := range r.Entries {
			if e.Competitive {
				comp++
			}
		}
	}
	d.Competitive = comp > 1
	if s.y25 {
		d.Competitive = s.families(idx) >= 2
	}
	return d
}

// division scores a division, rows idx and benchmarks benches, and each of
// its logics (rowsOfLogic, benchOfLogic by logic).
func (s *score2024) division(name string, idx, benches []int32, rowsOfLogic, benchOfLogic [][]int32) Division {
	d := s.group(name, idx, benches)
	if len(d.Logics) == 1 {
		// A division of one logic: the logic's rows and benchmarks
		// are the division's, and so are its scores.
		l := d
		l.Name, l.Logics, l.Rankings = d.Logics[0].Logic, slices.Clone(d.Logics), slices.Clone(d.Rankings)
		for i := range l.Rankings {
			l.Rankings[i].Entries = slices.Clone(l.Rankings[i].Entries)
		}
		d.PerLogic = []Division{l}
		return d
	}
	for _, l := range d.Logics {
		li := s.logicIndex(l.Logic)
		d.PerLogic = append(d.PerLogic, s.group(l.Logic, rowsOfLogic[li], benchOfLogic[li]))
	}
	return d
}

func (s *score2024) report() *Report {
	rep := &Report{Rules: 2022, Asked: s.o.Rules, Year: s.o.Year, Track: s.o.Track, Compat: s.o.Compat, TimeLimit: s.o.TimeLimit,
		MemLimit: s.o.MemLimit, Kinds: s.kinds(), BaseSolvers: s.o.BaseSolvers}
	rep.Disagreements = s.disagreements()
	rowsOfDiv := bucket(len(s.rows), len(s.divNames), func(i int) int32 {
		if b := &s.benches[s.rows[i].bench]; !b.removed {
			return b.div
		}
		return -1
	})
	rowsOfLogic := bucket(len(s.rows), len(s.logics), func(i int) int32 {
		if b := &s.benches[s.rows[i].bench]; !b.removed {
			return b.logic
		}
		return -1
	})
	benchOfDiv := bucket(len(s.benches), len(s.divNames), func(i int) int32 { return s.benches[i].div })
	benchOfLogic := bucket(len(s.benches), len(s.logics), func(i int) int32 { return s.benches[i].logic })
	divOrder := make([]int, len(s.divNames))
	for i := range divOrder {
		divOrder[i] = i
	}
	sort.Slice(divOrder, func(a, b int) bool { return s.divNames[divOrder[a]] < s.divNames[divOrder[b]] })
	// The divisions are scored at once on the processors there are, and
	// the largest contributions beside them: each reads the rows and
	// writes only its own result.
	var wg sync.WaitGroup
	wg.Go(func() { rep.LargestContribution = s.largestContribution(rowsOfDiv, benchOfDiv) })
	rep.Divisions = make([]Division, len(divOrder))
	var next atomic.Int32
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := int(next.Add(1) - 1); j < len(divOrder); j = int(next.Add(1) - 1) {
				di := divOrder[j]
				rep.Divisions[j] = s.division(s.divNames[di], rowsOfDiv[di], benchOfDiv[di], rowsOfLogic, benchOfLogic)
			}
		})
	}
	wg.Wait()
	rep.BiggestLead = map[Kind][]Lead{}
	for _, k := range rep.Kinds {
		rep.BiggestLead[k] = s.biggestLead(k, rep.Divisions)
	}
	if s.o.Year >= 2025 {
		rep.BestOverall = s.bestOverall(rep.Divisions, benchOfDiv)
	}
	return rep
}

// bucket lists 0, ..., n-1 by their keys (0, ..., keys-1; -1: none), in
// order, in one backing array; a key without any is nil.
func bucket(n, keys int, key func(i int) int32) [][]int32 {
	counts := make([]int, keys)
	total := 0
	for i := range n {
		if k := key(i); k >= 0 {
			counts[k]++
			total++
		}
	}
	back := make([]int32, total)
	out := make([][]int32, keys)
	at := 0
	for k, c := range counts {
		if c > 0 {
			out[k] = back[at : at : at+c]
			at += c
		}
	}
	for i := range n {
		if k := key(i); k >= 0 {
			out[k] = append(out[k], int32(i))
		}
	}
	return out
}

// Overall is one division's line of a solver in the best overall ranking:
// its contribution (n/N_D)² log₁₀ N_D (-2 log₁₀ N_D with errors) and the
// time that breaks ties.
type Overall struct {
	Division, Solver string
	Contribution     float64
	TieBreakTime     float64
}

// OverallWinner sums each solver's contributions and names the best (the
// least summed time on a tie), with its score; "" when there are none.
func OverallWinner(ls []Overall) (string, float64) {
	score, tie := map[string]float64{}, map[string]float64{}
	var order []string
	for _, l := range ls {
		if _, ok := score[l.Solver]; !ok {
			order = append(order, l.Solver)
		}
		score[l.Solver] += l.Contribution
		tie[l.Solver] += l.TieBreakTime
	}
	best := ""
	for _, n := range order {
		if best == "" || score[n] > score[best] || (score[n] == score[best] && tie[n] < tie[best]) {
			best = n
		}
	}
	return best, score[best]
}

// bestOverall is generate_website_page.best_overall_ranking (the 2025
// rules' §7.3.1): per division with two ranked solvers or more, each
// solver's (n/N_D)² (or -2 with errors) times log₁₀ N_D, N_D the
// division's check-sats (incremental), assertions (unsat core) or
// benchmarks; sorted by contribution, then tie-break time, both
// descending, as the tool sorts them.
func (s *score2024) bestOverall(divs []Division, benchOfDiv [][]int32) map[Kind][]Overall {
	divIdx := map[string]int{}
	for i, n := range s.divNames {
		divIdx[n] = i
	}
	out := map[Kind][]Overall{}
	for _, k := range s.kinds() {
		ls := []Overall{}
		if k == Sequential && s.aws {
			out[k] = ls
			continue
		}
		for i := range divs {
			d := &divs[i]
			r := d.Ranking(k)
			if r == nil || len(r.Entries) <= 1 {
				continue
			}
			nd := float64(d.Benchmarks)
			if s.inc || s.o.Track == benchmark.UnsatCore {
				nd = 0
				for _, b := range benchOfDiv[divIdx[d.Name]] {
					if !s.benches[b].removed {
						nd += float64(s.benches[b].checks)
					}
				}
			}
			for _, e := range r.Entries {
				nn := -2.0
				if e.Error == 0 {
					nn = (e.Correct / nd) * (e.Correct / nd)
				}
				c := 0.0
				if nd > 0 {
					c = nn * math.Log10(nd)
				}
				t := e.Wall
				if k == Sequential {
					t = e.CPU
				}
				ls = append(ls, Overall{Division: d.Name, Solver: e.Solver, Contribution: c, TieBreakTime: t})
			}
		}
		sort.SliceStable(ls, func(i, j int) bool {
			if ls[i].Contribution != ls[j].Contribution {
				return ls[i].Contribution > ls[j].Contribution
			}
			return ls[i].TieBreakTime > ls[j].TieBreakTime
		})
		out[k] = ls
	}
	return out
}

func (s *score2024) logicIndex(l string) int {
	for i, x := range s.logics {
		if x == l {
			return i
		}
	}
	return -1
}

// biggestLead is generate_website_page.biggest_lead_ranking_for_kind.
func (s *score2024) biggestLead(k Kind, divs []Division) []Lead {
	out := []Lead{}
	if k == Sequential && s.aws {
		return out
	}
	for i := range divs {
		r := divs[i].Ranking(k)
		if r == nil || len(r.Entries) <= 1 || r.Entries[0].Correct == 0 {
			continue
		}
		a, b := r.Entries[0], r.Entries[1]
		ta, tb := a.Wall, b.Wall
		if k == Sequential {
			ta, tb = a.CPU, b.CPU
		}
		out = append(out, Lead{Division: divs[i].Name, First: a.Solver, Second: b.Solver,
			Correctness: (1 + a.Correct) / (1 + b.Correct), Time: (1 + tb) / (1 + ta)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Correctness != out[j].Correctness {
			return out[i].Correctness > out[j].Correctness
		}
		return out[i].Time > out[j].Time
	})
	return out
}

// vrow is a row of a virtual best solver: per benchmark the best correct
// score and the least times (generate_website_page.largest_contribution).
type vrow struct {
	n, wall, wScore, cpu, cScore float64
	sound                        uint8
}

// largestContribution is generate_website_page.largest_contribution: over
// the rows without error, of sound solvers, with a positive correct score,
// each division's virtual best solver against the one without each
// solver, weighted by the division's share of those rows.
func (s *score2024) largestContribution(rowsOfDiv [][]int32, benchOfDiv [][]int32) map[Kind][]Contribution {
	type agg struct{ n, w, c float64 }
	useful := make([][]int32, len(s.divNames))
	total := 0
	for _, idx := range rowsOfDiv {
		total += len(idx)
	}
	back := make([]int32, 0, total) // of every division's useful rows
	for di, idx := range rowsOfDiv {
		start := len(back)
		for _, i := range idx {
			r := &s.rows[i]
			b := s.benchScore(r)
			if b.e != 0 || !s.sound(r.solver, int32(di)) || b.n <= 0 {
				continue
			}
			back = append(back, i)
		}
		if len(back) > start {
			useful[di] = back[start:len(back):len(back)]
		}
	}
	total = len(back)
	kinds := s.kinds()
	// The lines of each kind, division after division.
	lines := make([][]Contribution, len(kinds))
	// Per division: each useful row's benchmark score and its benchmark's
	// place among the division's (loc); the virtual best solver's rows
	// (v), at pos[loc] while one is computed (-1: none yet).
	var scores []bscore24
	var loc, pos []int32
	var v []vrow
	locOf := make([]int32, len(s.benches))
	for i := range locOf {
		locOf[i] = -1
	}
	// virtualOf is the virtual best solver of the division's useful rows
	// without a solver (-1: with all), its rows in the order their
	// benchmarks first come.
	virtualOf := func(idx []int32, without int32) []vrow {
		v = v[:0]
		for j := range pos {
			pos[j] = -1
		}
		for j, i := range idx {
			r := &s.rows[i]
			if r.solver == without {
				continue
			}
			b := &scores[j]
			p := pos[loc[j]]
			if p < 0 {
				pos[loc[j]] = int32(len(v))
				v = append(v, vrow{n: b.n, wall: r.wall, wScore: b.w, cpu: r.cpu, cScore: b.c, sound: s.benches[r.bench].sound})
				continue
			}
			x := &v[p]
			x.n = max(x.n, b.n)
			x.wall, x.wScore = min(x.wall, r.wall), min(x.wScore, b.w)
			x.cpu, x.cScore = min(x.cpu, r.cpu), min(x.cScore, b.c)
		}
		return v
	}
	sum := func(k Kind, v []vrow) (agg, bool) {
		var a agg
		any := false
		for i := range v {
			x := &v[i]
			switch k {
			case Sat:
				if x.sound != aSat {
					continue
				}
			case Unsat:
				if x.sound != aUnsat {
					continue
				}
			case TwentyFour:
				if x.wall > 24 {
					continue
				}
			}
			any = true
			if k == Sequential && x.cpu > s.o.TimeLimit {
				continue
			}
			a.n += x.n
			a.w += x.wScore
			a.c += x.cScore
		}
		return a, any
	}
	for di := range s.divNames {
		idx := useful[di]
		if len(idx) == 0 {
			continue
		}
		scores, loc = slices.Grow(scores[:0], len(idx)), slices.Grow(loc[:0], len(idx))
		nb := int32(0)
		var solvers []int32
		seen := make([]bool, len(s.solvers))
		for _, i := range idx {
			r := &s.rows[i]
			scores = append(scores, s.benchScore(r))
			if locOf[r.bench] < 0 {
				locOf[r.bench] = nb
				nb++
			}
			loc = append(loc, locOf[r.bench])
			if sv := r.solver; !seen[sv] {
				seen[sv] = true
				solvers = append(solvers, sv)
			}
		}
		for _, i := range idx {
			locOf[s.rows[i].bench] = -1
		}
		pos, v = slices.Grow(pos[:0], int(nb))[:nb], slices.Grow(v[:0], int(nb))
		ratio := float64(len(idx)) / float64(total)
		virtual, virtualOK := make([]agg, len(kinds)), make([]bool, len(kinds))
		all := virtualOf(idx, -1)
		for ki, k := range kinds {
			virtual[ki], virtualOK[ki] = sum(k, all)
		}
		ls := make([][]Contribution, len(kinds))
		for _, sv := range solvers {
			others := virtualOf(idx, sv)
			for ki, k := range kinds {
				if !virtualOK[ki] || (k == Sequential && s.aws) {
					continue
				}
				w, ok := sum(k, others)
				if !ok {
					continue
				}
				vt, wt := virtual[ki].w, w.w
				if k == Sequential {
					vt, wt = virtual[ki].c, w.c
				}
				t := ratio
				if wt != 0 {
					t = ratio * (1 - vt/wt)
				}
				ls[ki] = append(ls[ki], Contribution{Division: s.divNames[di], Solver: s.solvers[sv],
					Correctness: ratio * (1 - w.n/virtual[ki].n), Time: t, Solvers: len(solvers), Pairs: len(idx)})
			}
		}
		for ki := range kinds {
			if len(ls[ki]) <= 2 {
				continue
			}
			if s.y25 {
				s.contributorsCompetitiveFirst(ls[ki])
			}
			lines[ki] = append(lines[ki], ls[ki]...)
		}
	}
	out := map[Kind][]Contribution{}
	for ki, k := range kinds {
		if k == Sequential && s.aws {
			out[k] = []Contribution{}
			continue
		}
		cs := lines[ki]
		sort.SliceStable(cs, func(i, j int) bool {
			a, b := cs[i], cs[j]
			if a.Correctness != b.Correctness {
				return a.Correctness > b.Correctness
			}
			if a.Time != b.Time {
				return a.Time > b.Time
			}
			return a.Division > b.Division
		})
		if len(cs) > 19 {
			cs = cs[:19]
		}
		if cs == nil {
			cs = []Contribution{}
		}
		out[k] = cs
	}
	return out
}

// score2024Report is the official computation of 2024 and later.
func score2024Report(rows []Row, o Options) *Report {
	return newScore2024(rows, o).report()
}

// Facts says which facts of their benchmarks, beyond what results carry,
// a computation reads of rows: Row.Expected (the status), Row.Asserts
// (unsat core) and Row.CheckSats (incremental).
type Facts struct{ Status, Asserts, CheckSats bool }

// AllFacts are what every computation but the smtcomp tool's reads.
var AllFacts = Facts{Status: true, Asserts: true, CheckSats: true}

// FactsOf says which facts of their benchmarks the computation of o reads
// of rows: the smtcomp tool's takes every benchmark of the unsat-core
// track for unsat and of the model-validation one for sat, and reads no
// incremental benchmark's status, nor (before 2025's best overall
// ranking) its check-sats.
func FactsOf(o Options) Facts {
	if !is2024(o) {
		return AllFacts
	}
	switch o.Track {
	case benchmark.Incremental:
		return Facts{CheckSats: o.Year >= 2025}
	case benchmark.UnsatCore:
		return Facts{Asserts: true}
	case benchmark.ModelValidation:
		return Facts{}
	}
	return Facts{Status: true}
}

// is2024 says whether the smtcomp tool's computation applies.
func is2024(o Options) bool { return o.Compat == Official && o.Year >= 2024 }
