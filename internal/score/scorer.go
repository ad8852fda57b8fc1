package score

import (
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// Answers, statuses and model verdicts, interned.
const (
	aUnknown uint8 = iota
	aSat
	aUnsat
)

const (
	stComplete uint8 = iota
	stTimeout
	stMemout
	stOther
)

const (
	mNone uint8 = iota
	mValid
	mInvalid
	mUnknown
)

func parseAnswer(s string) uint8 {
	switch strings.TrimSpace(s) {
	case "sat":
		return aSat
	case "unsat":
		return aUnsat
	}
	return aUnknown
}

func parseStatus(s string) uint8 {
	switch {
	case s == "complete" || s == "":
		return stComplete
	case strings.HasPrefix(s, "timeout"):
		return stTimeout
	case s == "memout":
		return stMemout
	}
	return stOther
}

func parseModel(s string) uint8 {
	switch s {
	case "VALID":
		return mValid
	case "INVALID":
		return mInvalid
	case "UNKNOWN":
		return mUnknown
	}
	return mNone
}

// rec is a Row, interned and compact.
type rec struct {
	cpu, wall        float64
	solver, bench    int32
	correct, wrong   int32
	checks, reduct   int32
	status, answer   uint8
	expected, model  uint8
	coreErr, removed bool
	coreBad          bool // an ill-formed core
	coreOK           bool // parsable-unsat-core = true
	mvErr            bool // officially (2020 on) a model-validation error
}

type benchInfo struct {
	path   string
	rel    string // below the logic: what the official script keys on
	logic  int32
	family int32
}

type solverInfo struct {
	Solver
	key string
}

type scorer struct {
	o        Options
	rules    int
	official bool
	kinds    []Kind
	cores    float64
	solvers  []solverInfo
	benches  []benchInfo
	logics   []string
	families []string
	recs     []rec
	// division of each logic, and the logics of each division
	divOf    []int32
	divNames []string
	divLogic [][]int32
	disagree []Disagreement
	dq       map[string]string // 2006: disqualified solver -> the division
	virtual  float64           // a virtual wall-clock limit for the parallel score (2018's 10 s)
	doc      *document         // as written from 2019: the year's text (rules_years.go)
}

func newScorer(rows []Row, o Options, rules int) *scorer {
	s := &scorer{o: o, rules: rules, official: o.Compat == Official, cores: float64(o.Cores)}
	s.kinds = KindsOf(rules, o.Track, o.Compat)
	if s.legacy() {
		s.kinds = legacyKinds(o.Track)
	}
	solverIdx := map[string]int32{}
	benchIdx := map[string]int32{}
	logicIdx := map[string]int32{}
	famIdx := map[string]int32{}
	famYear := o.Rules
	if s.official && (rules == 2018 || s.legacy()) {
		famYear = 2022 // the script's default "bot": the directory holding the file
	}
	s.recs = make([]rec, 0, len(rows))
	for i := range rows {
		r := &rows[i]
		key := r.Solver
		if n := r.Name(); s.legacy() && n != "" {
			key = n // 2015-2018: the programs group by the solver column
		}
		si, ok := solverIdx[key]
		if !ok {
			si = int32(len(s.solvers))
			solverIdx[key] = si
			info := o.Solvers.lookup(key)
			if _, byID := o.Solvers[r.Solver]; byID && key != r.Solver {
				info = o.Solvers.lookup(r.Solver)
			}
			s.solvers = append(s.solvers, solverInfo{Solver: info, key: key})
		}
		bi, ok := benchIdx[r.Benchmark]
		if !ok {
			bi = int32(len(s.benches))
			benchIdx[r.Benchmark] = bi
			logic := benchmark.LogicOfPath(r.Benchmark)
			li, ok := logicIdx[logic]
			if !ok {
				li = int32(len(s.logics))
				logicIdx[logic] = li
				s.logics = append(s.logics, logic)
			}
			fam := logic + "/" + benchmark.Family(r.Benchmark, famYear)
			fi, ok := famIdx[fam]
			if !ok {
				fi = int32(len(s.families))
				famIdx[fam] = fi
				s.families = append(s.families, fam)
			}
			rel := r.Benchmark
			if j := strings.Index(rel, "/"+logic+"/"); j >= 0 {
				rel = rel[j+len(logic)+2:]
			}
			s.benches = append(s.benches, benchInfo{path: r.Benchmark, rel: rel, logic: li, family: fi})
		}
		s.recs = append(s.recs, rec{
			cpu: r.CPU, wall: r.Wall, solver: si, bench: bi,
			correct: r.CorrectAnswers, wrong: r.WrongAnswers, checks: r.CheckSats, reduct: r.Reduction,
			status: parseStatus(r.Status), answer: s.answerOf(r.Answer), expected: parseAnswer(r.Expected),
			model: parseModel(r.Model()), coreErr: r.CoreErroneous, coreBad: r.CoreIllFormed, coreOK: r.CoreParsable, mvErr: officialModelError(r),
		})
	}
	// Divisions.
	divIdx := map[string]int32{}
	s.divOf = make([]int32, len(s.logics))
	for i := range s.divOf {
		s.divOf[i] = -1
	}
	for _, d := range sortedKeys(o.Divisions) {
		for _, l := range o.Divisions[d] {
			li, ok := logicIdx[l]
			if !ok || s.divOf[li] >= 0 {
				continue
			}
			di, ok := divIdx[d]
			if !ok {
				di = int32(len(s.divNames))
				divIdx[d] = di
				s.divNames = append(s.divNames, d)
				s.divLogic = append(s.divLogic, nil)
			}
			s.divOf[li] = di
			s.divLogic[di] = append(s.divLogic[di], li)
		}
	}
	for li, l := range s.logics {
		if s.divOf[li] >= 0 {
			continue
		}
		di, ok := divIdx[l]
		if !ok {
			di = int32(len(s.divNames))
			divIdx[l] = di
			s.divNames = append(s.divNames, l)
			s.divLogic = append(s.divLogic, nil)
		}
		s.divOf[li] = di
		s.divLogic[di] = append(s.divLogic[di], int32(li))
	}
	return s
}

// report computes everything.
func (s *scorer) report() *Report {
	rep := &Report{Rules: s.rules, Asked: s.o.Rules, Year: s.o.Year, Track: s.o.Track, Compat: s.o.Compat, TimeLimit: s.o.TimeLimit,
		MemLimit: s.o.MemLimit, Kinds: s.kinds}
	if s.doc != nil {
		rep.Document = s.doc.year
	}
	byDiv := make([][]int32, len(s.divNames))
	for i := range s.recs {
		d := s.divOf[s.benches[s.recs[i].bench].logic]
		byDiv[d] = append(byDiv[d], int32(i))
	}
	s.removeDisagreements(byDiv)
	if s.rules == 2006 {
		s.disqualified(byDiv)
	}
	rep.Disagreements = s.disagree
	order := make([]int, len(s.divNames))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return s.divNames[order[a]] < s.divNames[order[b]] })
	// Divisions are independent: score them in parallel, each worker with
	// its own scratch space.
	divs := make([]*divData, len(order))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(order)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := s.newWorker()
			for j := range jobs {
				divs[j] = s.scoreDivision(w, order[j], byDiv[order[j]])
			}
		}()
	}
	for j := range order {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	out := divs[:0]
	for _, dd := range divs {
		if dd != nil {
			out = append(out, dd)
			rep.Divisions = append(rep.Divisions, dd.div)
		}
	}
	divs = out
	s.recognitions(rep, divs)
	return rep
}

// scoreDivision scores a division and, when it has several logics, each
// of them.
func (s *scorer) scoreDivision(w *worker, di int, rows []int32) *divData {
	idx := kept(s.recs, rows)
	if len(idx) == 0 {
		return nil
	}
	dd := s.division(w, s.divNames[di], idx)
	if s.logicPages() {
		s.orderLogics(&dd.div, di)
	}
	if (len(s.divLogic[di]) > 1 && (s.doc == nil || s.doc.perLogic)) || s.logicPages() {
		for _, li := range sortedLogics(s, s.divLogic[di]) {
			var sub []int32
			for _, i := range idx {
				if s.benches[s.recs[i].bench].logic == li {
					sub = append(sub, i)
				}
			}
			if len(sub) > 0 {
				dd.div.PerLogic = append(dd.div.PerLogic, s.division(w, s.logics[li], sub).div)
			}
		}
	}
	return dd
}

func kept(recs []rec, idx []int32) []int32 {
	out := idx[:0:0]
	for _, i := range idx {
		if !recs[i].removed {
			out = append(out, i)
		}
	}
	return out
}

func sortedLogics(s *scorer, ls []int32) []int32 {
	out := append([]int32(nil), ls...)
	sort.Slice(out, func(a, b int) bool { return s.logics[out[a]] < s.logics[out[b]] })
	return out
}

// removeDisagreements marks the rows of unknown-status benchmarks on which
// sound solvers disagree. As written (2018 §7.4, 2022 §7.2) this is done
// per division for the single-query (main), parallel and cloud tracks, a
// solver being sound if it gave no erroneous result on known-status
// benchmarks of the division. The official script does it for every track,
// over the whole file at once, and removes a benchmark by its path below
// the logic, in every division.
func (s *scorer) removeDisagreements(byDiv [][]int32) {
	switch {
	case s.legacy():
		// 2015-2018: the main track's program, per division (its job);
		// the application and unsat-core programs remove nothing.
		if s.o.Track != benchmark.SingleQuery {
			return
		}
	case s.official:
	case s.rules == 2006 || s.rules == 2014:
		return // benchmarks of unknown status were not used
	case s.o.Track != benchmark.SingleQuery && s.o.Track != benchmark.Parallel && s.o.Track != benchmark.Cloud:
		return
	}
	type verdicts struct{ sat, unsat []int32 }
	if s.official && !s.legacy() {
		unsound := make([]bool, len(s.solvers))
		for i := range s.recs {
			r := &s.recs[i]
			if r.expected != aUnknown && r.answer != aUnknown && r.answer != r.expected {
				unsound[r.solver] = true
			}
		}
		byRel := map[string]*verdicts{}
		var rels []string
		divOfRel := map[string]int32{}
		for i := range s.recs {
			r := &s.recs[i]
			if r.expected != aUnknown || unsound[r.solver] || !decided(r.answer) {
				continue
			}
			b := s.benches[r.bench]
			v := byRel[b.rel]
			if v == nil {
				v = &verdicts{}
				byRel[b.rel] = v
				rels = append(rels, b.rel)
				divOfRel[b.rel] = s.divOf[b.logic]
			}
			if r.answer == aSat {
				v.sat = append(v.sat, r.solver)
			} else {
				v.unsat = append(v.unsat, r.solver)
			}
		}
		out := map[string]bool{}
		for _, rel := range rels {
			if v := byRel[rel]; len(v.sat) > 0 && len(v.unsat) > 0 {
				out[rel] = true
				s.disagree = append(s.disagree, Disagreement{Division: s.divNames[divOfRel[rel]], Benchmark: rel,
					Sat: s.names(v.sat), Unsat: s.names(v.unsat)})
			}
		}
		if len(out) > 0 {
			for i := range s.recs {
				if out[s.benches[s.recs[i].bench].rel] {
					s.recs[i].removed = true
				}
			}
		}
		s.sortDisagreements()
		return
	}
	for di, idx := range byDiv {
		unsound := map[int32]bool{}
		for _, i := range idx {
			r := &s.recs[i]
			if r.expected != aUnknown && r.answer != aUnknown && r.answer != r.expected {
				unsound[r.solver] = true
			}
		}
		byBench := map[int32]*verdicts{}
		var order []int32
		for _, i := range idx {
			r := &s.recs[i]
			if r.expected != aUnknown || unsound[r.solver] || r.answer == aUnknown {
				continue
			}
			v := byBench[r.bench]
			if v == nil {
				v = &verdicts{}
				byBench[r.bench] = v
				order = append(order, r.bench)
			}
			if r.answer == aSat {
				v.sat = append(v.sat, r.solver)
			} else {
				v.unsat = append(v.unsat, r.solver)
			}
		}
		out := map[int32]bool{}
		for _, b := range order {
			if v := byBench[b]; len(v.sat) > 0 && len(v.unsat) > 0 {
				out[b] = true
				s.disagree = append(s.disagree, Disagreement{Division: s.divNames[di], Benchmark: s.benches[b].path,
					Sat: s.names(v.sat), Unsat: s.names(v.unsat)})
			}
		}
		for _, i := range idx {
			if out[s.recs[i].bench] {
				s.recs[i].removed = true
			}
		}
	}
	s.sortDisagreements()
}

func (s *scorer) sortDisagreements() {
	sort.Slice(s.disagree, func(a, b int) bool {
		x, y := s.disagree[a], s.disagree[b]
		if x.Division != y.Division {
			return x.Division < y.Division
		}
		return x.Benchmark < y.Benchmark
	})
}

func (s *scorer) names(ids []int32) []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range ids {
		n := s.solvers[id].Name
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// disqualified finds the solvers with more than three wrong answers in some
// division: 2006 §2.3 disqualifies them from the whole competition.
func (s *scorer) disqualified(byDiv [][]int32) {
	s.dq = map[string]string{}
	m := s.modeOf(Sequential)
	for di, idx := range byDiv {
		wrong := map[int32]int{}
		for _, i := range idx {
			if b := s.benchScore(&s.recs[i], &m, true); b.e > 0 {
				wrong[s.recs[i].solver]++
			}
		}
		for sv, n := range wrong {
			name := s.solvers[sv].Name
			if _, ok := s.dq[name]; n > 3 && (!ok || s.divNames[di] < s.dq[name]) {
				s.dq[name] = s.divNames[di]
			}
		}
	}
}

func (s *scorer) disqualify(es []Entry) {
	for i := range es {
		_, es[i].Disqualified = s.dq[es[i].Solver]
	}
}
