package selection

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/crand"
)

// Prior is what an earlier year's competition (or evaluation) learnt about a
// benchmark in the corresponding track: the rules retire benchmarks that
// every solver found easy, and 2014 measures difficulty by the fastest
// solver.
type Prior struct {
	// Solvers is how many solvers (competitive or not) were run on it.
	Solvers int
	// SolvedBy is how many of them solved it correctly.
	SolvedBy int
	// MaxTime is the slowest solving time in seconds among those that
	// solved it (the official tools use CPU time).
	MaxTime float64
	// MinTime is the fastest one: 2014's difficulty measure.
	MinTime float64
}

// Candidate is a library benchmark offered to the selection, with what the
// rules look at beyond the file itself.
type Candidate struct {
	benchmark.Benchmark
	// Prior holds earlier years' results, by year.
	Prior map[int]Prior
	// NewFamily marks a benchmark of a family that is new this year: 2022
	// first picks one benchmark of each new family.
	NewFamily bool
	// SoundSat and SoundUnsat say that a sound solver of this year's
	// single query track answered sat (unsat): 2022 keeps a benchmark of
	// unknown status for model validation (unsat core, proof) only then.
	SoundSat, SoundUnsat bool
}

// Options say which rules to follow and fill in what a document leaves to
// the organizers. Zero values mean the document's own values.
type Options struct {
	// Rules is the year of the rules document: 2006, 2014, 2018 or 2022.
	Rules int
	Track benchmark.Track
	Seed  uint32
	// Logics restricts the selection to these logics. Empty means every
	// logic, except in 2022's model-validation track, where it means the
	// document's eleven logics.
	Logics []string
	// PriorYears are the years whose results retire easy benchmarks. Nil
	// means the document's: 2013 for 2014 (SMT-EVAL 2013, which is also the
	// difficulty measure), 2018, 2019 and 2020 for 2022.
	PriorYears []int
	// N is 2014's number of benchmarks per division ("some number N");
	// 0 keeps every benchmark that retirement leaves.
	N int
}

// Reason says why a benchmark was selected or left out.
type Reason string

// Why a benchmark is in a selection.
const (
	// All: every eligible benchmark of the logic is taken.
	All Reason = "all"
	// Drawn: drawn at random.
	Drawn Reason = "drawn"
	// CheckCategory: 2006 always takes check benchmarks.
	CheckCategory Reason = "check"
	// NewFamily: 2022's pick from a new family.
	NewFamily Reason = "new-family"
)

// Why a benchmark is left out, as counted in LogicSummary.Dropped.
const (
	// Easy: solved by every solver quickly in a prior year (2014, 2022).
	Easy Reason = "easy"
	// SingleAssertion: 2022's unsat-core track needs two assertions.
	SingleAssertion Reason = "single-assertion"
	// WrongStatus: the track's status rule (unsat only, sat only, or
	// unknown without a sound solver's answer).
	WrongStatus Reason = "status"
	// FirstCheckSatUnknown: 2018's incremental benchmark whose first
	// check-sat has unknown status.
	FirstCheckSatUnknown Reason = "first-check-sat-unknown"
	// FamilyCap: not among 2006's 200 drawn from a large family.
	FamilyCap Reason = "family-cap"
	// NoSubcategory: 2006's benchmark that is not easy or hard, sat or
	// unsat, industrial, crafted or random.
	NoSubcategory Reason = "no-subcategory"
	// NotDrawn: eligible but not drawn.
	NotDrawn Reason = "not-drawn"
)

// Selected is one selected benchmark.
type Selected struct {
	Candidate
	// KeepCheckSats is how many check-sat commands of the script are run:
	// CheckSats, unless 2018's rules cut an incremental script before its
	// first check-sat of unknown status.
	KeepCheckSats int
	Reason        Reason
}

// LogicSummary counts one logic's selection, for reports and for checking a
// selection against the rules by hand.
type LogicSummary struct {
	Logic string
	// Candidates are the logic's benchmarks of the track's kind
	// (incremental or not).
	Candidates int
	// Eligible are those no filter of the rules removed: the population
	// the draws are made from (and the n of 2022's caps).
	Eligible int
	Selected int
	// Sat, Unsat and Unknown count the selected benchmarks by status.
	Sat, Unsat, Unknown int
	// Dropped counts the candidates left out, by reason.
	Dropped map[Reason]int
}

// Selection is a track's selected benchmarks, ordered by logic and path,
// and a summary per logic, ordered by logic.
type Selection struct {
	Benchmarks []Selected
	Summary    []LogicSummary
}

// The documents' constants.
const (
	familyCap2006 = 200 // 2006: at most 200 benchmarks of a family in the pool
	slots2006     = 100 // 2006: 100 slots: 85 industrial, 10 crafted, 5 random
	easyTime2014  = 5.0 // 2014: "solved ... in under 5 seconds"
	minPool2014   = 300 // 2014: "unless doing so reduces the pool ... to less than 300"
	easyTime2022  = 1.0 // 2022: "in less than one second"
	// 2022: the official tool (tools/selection/selection.py) only calls a
	// benchmark solved by all when at least two solvers ran on it.
	minSolvers2022 = 2
	lower2022      = 300 // 2022: all if n <= 300; 300 if n <= 600
	upper2022      = 600
	percent2022    = 50 // 2022: 50% if n > 600
)

// mvLogics2022 are the logics of 2022's model-validation track, as its
// "Benchmark sources" paragraph lists them.
var mvLogics2022 = []string{"QF_BV", "QF_IDL", "QF_RDL", "QF_LIA", "QF_LRA", "QF_LIRA", "QF_UF",
	"QF_UFBV", "QF_UFIDL", "QF_UFLIA", "QF_UFLRA"}

// Select selects a track's benchmarks from the candidates by the rules of
// opts.Rules. The result depends only on the candidates (not their order)
// and the options; docs/selection.md states each rule's reading and the
// order of the random draws.
func Select(cands []Candidate, opts Options) (Selection, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return Selection{}, err
	}
	var only map[string]bool
	if len(opts.Logics) > 0 {
		only = make(map[string]bool, len(opts.Logics))
		for _, l := range opts.Logics {
			only[l] = true
		}
	}
	// Candidates of the track's kind, sorted by path: the order every draw
	// starts from, whatever order the caller had.
	incremental := opts.Track == benchmark.Incremental
	idx := make([]int, 0, len(cands))
	for i := range cands {
		c := &cands[i]
		if c.Incremental != incremental || (only != nil && !only[logicOf(c)]) {
			continue
		}
		idx = append(idx, i)
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(cands[a].Path, cands[b].Path) })
	for k := 1; k < len(idx); k++ {
		if cands[idx[k]].Path == cands[idx[k-1]].Path {
			return Selection{}, fmt.Errorf("selection: benchmark %s given twice", cands[idx[k]].Path)
		}
	}
	byLogic := map[string][]int{}
	for _, i := range idx {
		l := logicOf(&cands[i])
		byLogic[l] = append(byLogic[l], i)
	}
	logics := make([]string, 0, len(byLogic))
	for l := range byLogic {
		logics = append(logics, l)
	}
	slices.Sort(logics)

	s := &selector{cands: cands, opts: opts, r: crand.New(opts.Seed)}
	var sel Selection
	for _, l := range logics {
		m := byLogic[l]
		s.sum = LogicSummary{Logic: l, Candidates: len(m), Dropped: map[Reason]int{}}
		start := len(s.picks)
		switch opts.Rules {
		case 2006:
			s.rules2006(m)
		case 2014:
			s.rules2014(m)
		case 2018:
			s.rules2018(m)
		case 2022:
			s.rules2022(m)
		}
		slices.SortFunc(s.picks[start:], func(a, b pick) int { return cmp.Compare(cands[a.i].Path, cands[b.i].Path) })
		s.sum.Eligible = s.sum.Candidates
		for why, n := range s.sum.Dropped {
			if why != FamilyCap && why != NotDrawn {
				s.sum.Eligible -= n
			}
		}
		sel.Summary = append(sel.Summary, s.sum)
	}
	sel.Benchmarks = make([]Selected, len(s.picks))
	for k, p := range s.picks {
		sel.Benchmarks[k] = Selected{Candidate: cands[p.i], KeepCheckSats: p.keep, Reason: p.why}
	}
	return sel, nil
}

// withDefaults checks the options and fills in the documents' values.
func (o Options) withDefaults() (Options, error) {
	var tracks []benchmark.Track
	switch o.Rules {
	case 2006:
		tracks = []benchmark.Track{benchmark.SingleQuery} // 2006 had one track
	case 2014, 2018, 2022:
		tracks = benchmark.TracksOf(o.Rules)
	default:
		return o, fmt.Errorf("selection: no rules for %d (want 2006, 2014, 2018 or 2022)", o.Rules)
	}
	if !slices.Contains(tracks, o.Track) {
		return o, fmt.Errorf("selection: the %d rules have no %q track", o.Rules, o.Track)
	}
	if o.Rules == 2022 && (o.Track == benchmark.Parallel || o.Track == benchmark.Cloud) {
		// "400 instances will be chosen such that their run times are
		// sufficiently high based on our estimation": no algorithm to follow.
		return o, fmt.Errorf("selection: 2022 %s track: the rules leave its selection to the organizers' estimates: %w",
			o.Track, errors.ErrUnsupported)
	}
	if o.N < 0 || o.N > 0 && o.Rules != 2014 {
		return o, fmt.Errorf("selection: N = %d: only the 2014 rules select N per division", o.N)
	}
	if o.PriorYears == nil {
		switch o.Rules {
		case 2014:
			o.PriorYears = []int{2013}
		case 2022:
			o.PriorYears = []int{2018, 2019, 2020}
		}
	}
	if o.Rules == 2014 && len(o.PriorYears) > 1 {
		return o, fmt.Errorf("selection: 2014 retires and measures difficulty by one year's results, got %v", o.PriorYears)
	}
	if o.Rules == 2022 && o.Track == benchmark.ModelValidation && len(o.Logics) == 0 {
		o.Logics = mvLogics2022
	}
	return o, nil
}

// logicOf is the candidate's logic, from its path when indexing left it out.
func logicOf(c *Candidate) string {
	if c.Logic != "" {
		return c.Logic
	}
	return benchmark.LogicOfPath(c.Path)
}

// selector runs one selection: the random stream and the picks are shared
// by all logics, in logic order.
type selector struct {
	cands []Candidate
	opts  Options
	r     *crand.Rand
	picks []pick
	sum   LogicSummary
}

// pick is a selected candidate, small to sort; Select makes it a Selected
// at the end.
type pick struct {
	i, keep int
	why     Reason
}

func (s *selector) keep(i, checkSats int, why Reason) {
	c := &s.cands[i]
	s.picks = append(s.picks, pick{i, checkSats, why})
	s.sum.Selected++
	switch c.Status {
	case benchmark.Sat:
		s.sum.Sat++
	case benchmark.Unsat:
		s.sum.Unsat++
	default:
		s.sum.Unknown++
	}
}

func (s *selector) keepAll(m []int, why Reason) {
	for _, i := range m {
		s.keep(i, s.cands[i].CheckSats, why)
	}
}

func (s *selector) drop(why Reason, n int) {
	if n > 0 {
		s.sum.Dropped[why] += n
	}
}

// draw keeps k of the benchmarks m (sorted by path) at random and drops
// the others as not drawn; it takes all of them, without a draw, when
// k >= len(m). It reorders m.
func (s *selector) draw(m []int, k int, why Reason) {
	if k >= len(m) {
		s.keepAll(m, why)
		return
	}
	s.keepAll(choose(s.r, m, k), why)
	s.drop(NotDrawn, len(m)-k)
}

// choose returns k elements of a drawn uniformly without replacement, as
// the first k steps of a Fisher-Yates shuffle: for i = 0, ..., k-1,
// j = i + random() % (len(a) - i) and a[i], a[j] are swapped; a[:k] is the
// result (in draw order) and a[k:] the rest. When k >= len(a) it returns a
// and draws nothing: there is no choice to make.
func choose(r *crand.Rand, a []int, k int) []int {
	if k >= len(a) {
		return a
	}
	for i := 0; i < k; i++ {
		j := i + int(r.Random())%(len(a)-i)
		a[i], a[j] = a[j], a[i]
	}
	return a[:k]
}

// percent is p% of n rounded to the nearest integer, halves up: the
// documents give shares in percent and say nothing of rounding.
func percent(n, p int) int { return (n*p + 50) / 100 }

// solvedByAll says whether every one of at least least solvers solved the
// benchmark faster than limit seconds in a prior year.
func solvedByAll(p Prior, ok bool, least int, limit float64) bool {
	return ok && p.Solvers >= least && p.SolvedBy == p.Solvers && p.MaxTime < limit
}
