package score

import (
	"fmt"
	"sort"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// Kind is one of the division scores a track publishes.
type Kind string

// The division scores; the names are the published pages' keys.
const (
	Sequential Kind = "sequential"
	Parallel   Kind = "parallel"
	Sat        Kind = "sat"
	Unsat      Kind = "unsat"
	TwentyFour Kind = "twentyfour"
)

// Compat chooses between the rules as written and what the organisers'
// scoring script computed.
type Compat string

// The two readings. docs/scoring.md lists where they differ.
const (
	AsWritten Compat = ""
	Official  Compat = "official"
)

// ParseCompat reads a --compat value.
func ParseCompat(s string) (Compat, error) {
	switch strings.ToLower(s) {
	case "", "rules", "as-written", "none":
		return AsWritten, nil
	case "official":
		return Official, nil
	}
	return "", fmt.Errorf("unknown compat %q (want official, or nothing for the rules as written)", s)
}

// RuleSet maps a rules year to the document that defines its scoring:
// 2006, 2014, 2018, and 2022 for 2019 onwards (the 2019 rules introduced
// the scoring of §7 that the 2022 rules keep; Document names the text of
// those years whose departures from 2022's apply, see rules_years.go).
func RuleSet(year int) (int, error) {
	switch {
	case year == 2006, year == 2014, year == 2018:
		return year, nil
	case year >= 2019:
		return 2022, nil
	}
	return 0, fmt.Errorf("no scoring rules for %d: --rules takes %s", year, RulesYears)
}

// Options say how to score.
type Options struct {
	Rules int             // rules year: 2006, 2014, 2018, 2019 and later
	Year  int             // the competition the rows come from (default Rules)
	Track benchmark.Track // default single-query
	// Challenge: the rows are a challenge track's (2019: the challenge
	// tracks of single queries and of incremental benchmarks, the results
	// stored as ChallengeTracks names them), scored as Track is; its pages
	// are named after the challenge track, and T is 12 hours.
	Challenge bool
	// Compat = Official reproduces the organisers' published numbers.
	Compat Compat
	// TimeLimit is T in seconds; default: the competition's (Year) where
	// known, else the rules'.
	TimeLimit float64
	// Cores is C (2014: parallel timeout T/C) and m (2018, 2022: CPU time
	// counts up to mT); default 4 as on StarExec.
	Cores int
	// Divisions maps each division to its logics; logics not listed are
	// divisions of their own.
	Divisions map[string][]string
	// Solvers names solvers and says which compete; nil: all do.
	Solvers Registry
	// MemLimit is the memory limit the pages report (default: the year's
	// text's, else 60 GB; officially from 2024 the smtcomp tool's
	// memlimit_M, 20480, which the pages label GB).
	MemLimit int
	// Exclude are the published lists of benchmarks left out of scoring
	// (and answer patches), applied in order before anything else.
	Exclude []Exclusion
	// Experimental names the experimental divisions, or logics whose
	// division is experimental (experimental.csv of 2020 and 2021):
	// scored and published, but marked so on the competition-wide pages,
	// whose winners come from the others.
	Experimental []string
	// Entrants lists, for the official computation of 2024 on, the logics
	// each solver entered in the track (its submission): a missing result
	// there is scored as a run with no answer, results elsewhere are not
	// scored. Nil: the results as they are.
	Entrants map[string][]string
	// Selection lists, for the official computation of 2024 on, the
	// benchmarks selected for the track beyond those with results (the
	// cloud and parallel pages of 2024 count both tracks' selections);
	// Removed the benchmarks whose results the organisers removed after
	// the runs (defs.py's removed_results): their results are not scored,
	// and they stay selected where their logic is.
	Selection, Removed []string
	// Status gives the status of the selected benchmarks without results.
	Status map[string]string
	// BaseSolvers maps, for the official computation of 2025 on, a derived
	// solver to the base solver its submission had to bring along
	// (Config.baseSolverMap2025 of the smtcomp tool): the pages print the
	// base and the difference of their correct scores.
	BaseSolvers map[string]string
}

// Report is a track's scores: every division with its rankings, and the
// competition-wide rankings and recognitions of the rules year.
type Report struct {
	Rules     int // the rule set applied: 2006, 2014, 2018 or 2022
	Asked     int // the rules year asked for (2019 is scored by Rules 2022)
	Document  int // from 2019, as written: the text applied (2020, 2022, 2023, 2024)
	Year      int
	Track     benchmark.Track
	Challenge bool // a challenge track's, scored as Track (Options.Challenge)
	Compat    Compat
	TimeLimit float64
	MemLimit  int
	Kinds     []Kind
	Divisions []Division
	// Disagreements are the unknown-status benchmarks removed because sound
	// solvers disagreed on them.
	Disagreements []Disagreement
	// 2022 §7.3, best first, per kind.
	BiggestLead map[Kind][]Lead
	// BestOverall is the smtcomp tool's best overall ranking (2025 on), per
	// kind: one line per division and solver, best first.
	BestOverall         map[Kind][]Overall
	LargestContribution map[Kind][]Contribution
	// 2018 §7.5: the competition-wide score, best first, per kind.
	CompetitionWide map[Kind][]WideScore
	Recognitions    []Recognition
	// Excluded counts the rows each exclusion removed (or patched), then
	// those the year's official computation did not score (--compat
	// official: e.g. 2020's 2019 job of the unsat-core track).
	Excluded     []Excluded
	Experimental map[string]bool
	// BaseSolvers is Options.BaseSolvers (the official computation of
	// 2025 on).
	BaseSolvers map[string]string
}

// Division is one division's scores.
type Division struct {
	Name        string
	Logics      []LogicSize // the logics that had benchmarks, with how many
	Benchmarks  int         // after the removal of disagreements
	Competitive bool
	// Experimental: by the text as written, scored but not officially
	// counted (rules2020.go): no winner, no competition-wide ranking.
	Experimental bool
	Rankings     []Ranking // in the order of Report.Kinds
	// PerLogic breaks a division of several logics down (2022 §7.2).
	PerLogic []Division
	// Verdicts are the model-validation track's validator verdicts per
	// solver, best first, when the results carry them (verdicts.go).
	Verdicts []SolverVerdicts
}

// LogicSize is a logic of a division and its number of benchmarks.
type LogicSize struct {
	Logic      string
	Benchmarks int
}

// Ranking is a division score of every solver, best first.
type Ranking struct {
	Kind Kind
	// Winner is the best competitive solver ("" when none: a
	// non-competitive division, or, officially, nothing solved).
	Winner  string
	Entries []Entry
}

// Ranking returns the division's ranking of a kind, or nil.
func (d *Division) Ranking(k Kind) *Ranking {
	for i := range d.Rankings {
		if d.Rankings[i].Kind == k {
			return &d.Rankings[i]
		}
	}
	return nil
}

// Entry is one solver's division score.
type Entry struct {
	Solver      string
	Competitive bool
	// Rank counts competitive solvers only; equal scores share a rank; 0
	// for a non-competitive solver under the rules (officially they take
	// the rank of the next competitive solver).
	Rank int
	// Error and Correct are e and n (weighted in 2018); CPU and Wall are
	// c and w (the 2014 score m is CPU in sequential, Wall in parallel).
	Error, Correct float64
	CPU, Wall      float64
	Solved         int // benchmarks answered correctly
	SolvedSat      int
	SolvedUnsat    int
	Unsolved       int // benchmarks (incremental: check-sats) not solved
	Abstained      int // benchmarks of the division it was not run on
	Timeout        int
	Memout         int
	// 2006's table: Points (+1/-8), Time (CPU on sat/unsat answers), and
	// the tie-break CPU time on the benchmarks that did not time out.
	Points       float64
	Time         float64
	TieTime      float64
	Unknown      int
	Wrong        int
	Disqualified bool
	key          string
}

// Disagreement is an unknown-status benchmark on which sound solvers
// answered both sat and unsat.
type Disagreement struct {
	Division  string   `json:"division"`
	Benchmark string   `json:"benchmark"`
	Sat       []string `json:"sat"`
	Unsat     []string `json:"unsat"`
}

// Lead is one division's line of the biggest lead ranking.
type Lead struct {
	Division, First, Second string
	Correctness, Time       float64
}

// Contribution is one division's line of the largest contribution ranking.
type Contribution struct {
	Division, Solver  string
	Correctness, Time float64
	Solvers, Pairs    int
}

// WideScore is a solver's competition-wide score.
type WideScore struct {
	Solver      string  `json:"name"`
	Competitive bool    `json:"competing"`
	Score       float64 `json:"score"`
	Divisions   int     `json:"divisions"`
}

// Recognition is an award other than a division win.
type Recognition struct {
	Name     string  `json:"recognition"`     // e.g. "best new entrant"
	Kind     Kind    `json:"score,omitempty"` // the score it was judged on, if any
	Solver   string  `json:"name"`
	Division string  `json:"division,omitempty"` // where it applies to one division
	Value    float64 `json:"value"`              // the measure it was judged on
	Note     string  `json:"note,omitempty"`
}

// KindsOf lists the division scores a rules year computes for a track.
func KindsOf(rules int, track benchmark.Track, compat Compat) []Kind {
	switch rules {
	case 2006:
		return []Kind{Sequential}
	case 2014:
		if track == benchmark.Incremental {
			return []Kind{Sequential}
		}
		return []Kind{Sequential, Parallel}
	case 2018:
		if track == benchmark.Incremental {
			return []Kind{Parallel}
		}
		return []Kind{Sequential, Parallel}
	}
	switch track {
	case benchmark.SingleQuery:
		return []Kind{Sequential, Parallel, Sat, Unsat, TwentyFour}
	case benchmark.Incremental:
		return []Kind{Parallel}
	case benchmark.Parallel, benchmark.Cloud:
		if compat == Official {
			return []Kind{Parallel, Sat, Unsat, TwentyFour}
		}
		return []Kind{Parallel}
	case benchmark.Proof:
		return nil
	}
	return []Kind{Sequential, Parallel}
}

// ChallengeTracks are the names the challenge tracks' results are stored
// under (the importer's, after the 2019 StarExec exports
// Challenge_Track_non-incremental and Challenge_Track_incremental), each
// with the track it is scored as.
var ChallengeTracks = map[string]benchmark.Track{
	"challenge-non-incremental": benchmark.SingleQuery,
	"challenge-incremental":     benchmark.Incremental,
}

// StoredTrack is the name of the track whose stored results o scores.
func (o Options) StoredTrack() string {
	if o.Challenge {
		for name, t := range ChallengeTracks {
			if t == o.Track {
				return name
			}
		}
	}
	return string(o.Track)
}

// challengeTimeLimit is the challenge tracks' T: 12 hours (2019's
// challenge pages: time_limit 43200).
const challengeTimeLimit = 43200

// TimeLimit is the default T of a competition's track: the limit it ran
// with where smtarena knows it, else what the rules say.
func TimeLimit(rules, year int, track benchmark.Track) float64 {
	if t, ok := ranWith(year, track); ok {
		return t // 2020-2024: rules_years.go
	}
	switch year {
	case 2015:
		// 40 minutes on every track (the 2015 main-track pages: CVC4's
		// seven unsolved LIA benchmarks took 13451 s of CPU time).
		return 2400
	case 2016, 2017:
		// The pages: "Time Limit: 1200s" on the main track, 2400 s on the
		// application and unsat-core tracks (smt-comp.github.io
		// 2016/results/QF_UFIDL.md, QF_LIA-app.md; 2017/results/).
		if track == benchmark.SingleQuery {
			return 1200
		}
		return 2400
	case 2019:
		return 2400
	case 2020:
		return 1200 // make_mds.sh: TIME=1200 on every track
	case 2018:
		if track == benchmark.SingleQuery {
			return 1200
		}
		return 2400
	}
	switch rules {
	case 2006:
		return 1200
	case 2014:
		return 1500
	case 2018:
		if track == benchmark.SingleQuery {
			return 1200
		}
		return 2400
	}
	if t, ok := docLimit(Document(rules), track); ok {
		return t
	}
	return 1200
}

// Score scores rows by the options' rules.
func Score(rows []Row, o Options) (*Report, error) {
	rules, err := RuleSet(o.Rules)
	if err != nil {
		return nil, err
	}
	if o.Track == "" {
		o.Track = benchmark.SingleQuery
	}
	if !trackOf(rules, o.Track) {
		return nil, fmt.Errorf("the %d rules have no %s track", o.Rules, o.Track)
	}
	if err := checkDocument(o.Rules, o.Track); err != nil {
		return nil, err
	}
	if o.Track == benchmark.Proof {
		return nil, fmt.Errorf("the proof track has no scores (2022 §5.8): smtarena status prints its tables")
	}
	if o.Year == 0 {
		o.Year = o.Rules
	}
	if o.Challenge && o.Track != benchmark.SingleQuery && o.Track != benchmark.Incremental {
		return nil, fmt.Errorf("a challenge track is of single queries or of incremental benchmarks, not %s", o.Track)
	}
	if o.TimeLimit <= 0 && o.Challenge {
		o.TimeLimit = challengeTimeLimit
	}
	if o.TimeLimit <= 0 {
		o.TimeLimit = TimeLimit(o.Rules, o.Year, o.Track)
		if is2024(o) && o.Year >= 2025 {
			// The smtcomp tool has one Config.timelimit_s for every
			// track, 1200 in 2024; the 2025 rules give 20 minutes to
			// each track run on the cluster and the 2025 parallel-track
			// page 20 minutes too (the text's 2 minutes were not used).
			o.TimeLimit = 1200
		}
	}
	if o.Cores <= 0 {
		o.Cores = 4
	}
	if o.MemLimit <= 0 {
		o.MemLimit = MemLimit(o.Rules, o.Year, o.Track)
		if is2024(o) {
			o.MemLimit = 20480
		}
	}
	for _, ex := range o.Exclude {
		if ex.NotProved != nil && o.Track != benchmark.ModelValidation {
			return nil, fmt.Errorf("%s: a list of model-validation runs not proved locally (2023's fix-results), not for the %s track", ex.Name, o.Track)
		}
	}
	rows, excluded := applyExclusions(rows, o.Exclude)
	if is2024(o) {
		rep := score2024Report(rows, o)
		rep.Excluded, rep.Challenge = excluded, o.Challenge
		modelVerdicts(rep, rows, o.Solvers)
		return rep, nil
	}
	if o.Compat == Official {
		var dropped []Excluded
		rows, dropped = keepOfficialRows(rows, o)
		excluded = append(excluded, dropped...)
	}
	s := newScorer(rows, o, rules)
	if !s.official {
		s.doc = documentOf(o.Rules) // the text's departures from 2022's (rules_years.go)
	}
	rep := s.report()
	rep.Excluded, rep.Challenge = excluded, o.Challenge
	modelVerdicts(rep, rows, o.Solvers)
	if len(o.Experimental) > 0 {
		rep.Experimental = map[string]bool{}
		for _, d := range o.Experimental {
			rep.Experimental[d] = true
			// experimental.csv names logics (2021: QF_UF, ...), the pages
			// divisions (QF_Equality): a logic's division is experimental
			for div, ls := range o.Divisions {
				for _, l := range ls {
					if l == d {
						rep.Experimental[div] = true
					}
				}
			}
		}
	}
	return rep, nil
}

func trackOf(rules int, t benchmark.Track) bool {
	switch rules {
	case 2006:
		return t == benchmark.SingleQuery
	case 2014:
		return t == benchmark.SingleQuery || t == benchmark.Incremental
	case 2018:
		return t == benchmark.SingleQuery || t == benchmark.Incremental || t == benchmark.UnsatCore
	}
	return true
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
