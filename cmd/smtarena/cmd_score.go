package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/official"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/strarena"
	"github.com/spf13/cobra"
)

// ScoreOptions are the flags of `smtarena score`.
type ScoreOptions struct {
	DB          string
	Config      string // competition.toml: its solvers, rules and name
	Rules       int
	Competition string
	Year        int
	Track       string
	Division    string
	Compat      string
	Format      string
	Solvers     string  // registration table (solvers_divisions_final.csv)
	Teams       string  // canon_solvers.json
	Divisions   string  // divisions.json
	CheckSats   string  // incremental_num_check_sat.csv(.tar.xz)
	TimeLimit   float64 // seconds; 0: the competition's or the rules'
	Cores       int
	Out         string // yaml: write the pages into this directory
	Date        string // the pages' resultdate

	// Exclusions and experimental divisions (docs/scoring.md, 2020).
	Exclude      []string // exclusion lists (blacklists, answer patches, decisions)
	Experimental string   // experimental.csv, or a comma-separated list of divisions
	Defs         string   // 2024 on: the smtcomp tool's defs.py
	Submissions  string   // 2024 on: the directory of the entrants' submission JSON
}

func newScoreCmd(io streams) *cobra.Command {
	opts := ScoreOptions{Track: string(benchmark.SingleQuery), Format: "table"}
	cmd := &cobra.Command{
		Use:   "score --rules YEAR [--track T|all] [--year Y] [--division D] [--compat official] [--format table|csv|json|yaml|web-json]",
		Short: "Score results from the store by a year's rules: division scores, rankings, recognitions",
		Long: `Score the results in the store (written by runs, or imported with smtarena
import) by the scoring rules of a year: 2006 (+1/-8), 2014 (⟨e, n, m⟩), 2018
(family-weighted ⟨e, n, w, c⟩, competition-wide score), 2019 and later (§7 of
the texts of 2020, 2022, 2023 and 2024: parallel, sequential, 24 s, sat and
unsat scores, biggest lead, largest contribution). Each year is scored by its
own text where smtarena has it, else the nearest: 2019 and 2020 by the 2020
text (four tracks), 2021 and 2022 by the 2022 text, 2023 by the 2023 text
(time scores of correctly solved benchmarks only), 2024 and later by the 2024
text. T is the limit the competition (--year) ran with where known (2019:
2400 s; 2020-2024: 1200 s), else the rules text's (2024: parallel and cloud
120 s). --compat official computes
what SMT-COMP's scoring script did instead of the rules as written
(docs/scoring.md lists the differences).

Solvers are named and marked competitive by the registration table (--solvers);
without it every solver competes under its name. Divisions come from --divisions
(SMT-COMP's divisions.json or new-divisions.json, or the smtcomp tool's defs.py)
or from the table the organisers published for the year, built in for 2019-2025
(one logic each before 2021; before 2019 every logic is a division); logics the
table lacks are divisions of their own, named on stderr. Incremental benchmarks
need their number of check-sats: --check-sats, or the indexed library.

--format yaml writes the website's result pages (the layout of the published
2019 pages), into --out DIR as files or to stdout; json follows the official
results JSON (PodiumDivision records); web-json writes the JSON records the
website of 2024 on is rendered from (web/content/results: one per division
and logic, biggest lead, largest contribution, the summary), into --out DIR
as files or to stdout as one object.

From 2024 on, --compat official is the smtcomp tool's computation: give its
defs.py (--defs) and the entrants' submissions (--submissions) for the
division table and the logics each solver entered, and import the
benchmark list (smtarena import benchmarks-json benchmarks-2024.json.gz) for
the statuses and the unsat-core track's assertion counts.

--track all scores every track of the year that has results in the store, in
one process, several tracks at a time: each as --track T would, with --out DIR
its pages in DIR/T; to stdout the tracks follow one another in a fixed order
(single-query, incremental, unsat-core, model-validation, proof, parallel,
cloud), each headed by a line "# track: T" (json and web-json: one object, each
track's output under its name). Tracks without results of the year (or of
--competition), or that the rules lack, are named on stderr and skipped;
--division keeps that division in the tracks that have it.`,
		Example: `  smtarena import ../shared/official-results/2019/results/Model_Validation_Track.csv.tar.xz
  smtarena score --rules 2019 --track model-validation --compat official \
      --solvers ../shared/official-results/2019/registration/solvers_divisions_final.csv
  smtarena score --rules 2022 --year 2019 --track incremental --format yaml --out pages \
      --check-sats ../shared/official-results/2019/prep/incremental_num_check_sat.csv.tar.xz
  smtarena score --rules 2024 --track unsat-core --compat official --format web-json --out pages \
      --defs 2024/submissions/smtcomp/defs.py --submissions 2024/submissions/submissions
  smtarena score --rules 2024 --track all --compat official --format web-json --out pages \
      --defs 2024/submissions/smtcomp/defs.py --submissions 2024/submissions/submissions`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Config != "" && !cmd.Flags().Changed("db") && os.Getenv("SMTARENA_DB") == "" {
				opts.DB = "" // the competition's own store
			}
			return runScore(cmd.Context(), opts, io)
		},
	}
	dbFlag(cmd, &opts.DB)
	f := cmd.Flags()
	f.StringVar(&opts.Config, "config", "", "a competition definition run with smtarena compete: its name, rules and solvers")
	f.IntVar(&opts.Rules, "rules", 0, "rules year: "+score.RulesYears+" (required without --config)")
	f.StringVar(&opts.Competition, "competition", "", "only the results of this competition (e.g. \"SMT-COMP 2019\")")
	f.IntVar(&opts.Year, "year", 0, "the year of the results (default: the rules year)")
	f.StringVar(&opts.Track, "track", opts.Track, "track: "+benchmark.TrackNames()+", challenge-non-incremental or challenge-incremental (2019), or all (every track of the year with results)")
	f.StringVar(&opts.Division, "division", "", "print only this division (with --track all: in the tracks that have it)")
	f.StringVar(&opts.Compat, "compat", "", "official: compute as SMT-COMP's scoring script did")
	f.StringVar(&opts.Format, "format", opts.Format, "table, csv, json, yaml or web-json")
	f.StringVar(&opts.Solvers, "solvers", "", "registration table naming solvers by id and marking them competitive")
	f.StringVar(&opts.Teams, "teams", "", "canon_solvers.json: which solvers are variants of one team's")
	f.StringVar(&opts.Divisions, "divisions", "", "the division table: divisions.json, new-divisions.json or defs.py (default: the year's, built in)")
	f.StringVar(&opts.CheckSats, "check-sats", "", "the check-sat count of each incremental benchmark (benchmark,num_check_sat)")
	f.Float64Var(&opts.TimeLimit, "time-limit", 0, "T in seconds (default: the competition's, else the rules')")
	f.IntVar(&opts.Cores, "cores", 0, "cores per run: 2014's C, 2018/2022's m (default 4)")
	f.StringVar(&opts.Out, "out", "", "yaml, web-json: write one page per file into this directory")
	f.StringVar(&opts.Date, "date", "", "yaml, json and web-json: the resultdate (default now; --compat official of 2024, 2025: the date the smtcomp tool wrote, 2024-07-08, 2025-08-11)")
	f.StringArrayVar(&opts.Exclude, "exclude", nil, "a list of benchmarks to leave out, one path a line (the organisers' blacklists; an archive of them; a CSV of pair id,result patches or of decisions on disagreements); repeatable")
	f.StringVar(&opts.Experimental, "experimental", "", "the experimental divisions: experimental.csv (track,logic) or a comma-separated list (default with --compat official: the year's make_mds.sh --expdivs, model validation 2020-2023)")
	f.StringVar(&opts.Defs, "defs", "", "2024 on, --compat official: the smtcomp tool's defs.py (divisions, removed results)")
	f.StringVar(&opts.Submissions, "submissions", "", "2024 on, --compat official: the directory of the entrants' submissions (logics entered, competitive)")
	return cmd
}

func runScore(ctx context.Context, opts ScoreOptions, io streams) error {
	switch opts.Format {
	case "table", "csv", "json", "yaml", "web-json":
	default:
		return fmt.Errorf("unknown format %q (want table, csv, json, yaml or web-json)", opts.Format)
	}
	// A year's rows are all live while they are scored, and reading them
	// leaves garbage behind. Collecting at twice the live heap, under a
	// limit of 0.75 GB per million rows scored (limitScoreMemory), is a
	// tenth faster on the 2024 results than collecting at half again the
	// live heap, for 5-15 MB more; years whose rows leave more garbage
	// (2020's StarExec exports) are held to the limit, under 1 GB per
	// million rows (issue 13).
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	if opts.Track == allTracks {
		return runScoreAll(ctx, opts, io)
	}
	so, err := scoreOptions(&opts)
	if err != nil {
		return err
	}
	st, err := openStoreToRead(ctx, opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	n, err := st.CountResults(ctx, store.ResultFilter{Year: so.Year, Track: so.StoredTrack()})
	if err != nil {
		return err
	}
	defer limitScoreMemory(n)()
	rep, _, _, err := scoreStored(ctx, st, opts, so, false, io)
	if err != nil {
		return err
	}
	if opts.Division != "" {
		if !keepDivision(rep, opts.Division) {
			return fmt.Errorf("no division %s in the %s results of %d", opts.Division, so.Track, so.Year)
		}
	}
	return writeScore(io, opts, rep)
}

// scoreBytesPerRow and scoreMemoryFloor make the memory limit of a score
// command (limitScoreMemory): 0.75 GB per million rows, at least 128 MB.
const (
	scoreBytesPerRow = 750
	scoreMemoryFloor = 128 << 20
)

// limitScoreMemory sets the soft memory limit for scoring rows results
// (unless GOMEMLIMIT sets one), and returns what puts the old one back.
// Go's collector then keeps the heap under it, collecting more often as
// it comes near.
func limitScoreMemory(rows int) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	old := debug.SetMemoryLimit(max(scoreMemoryFloor, int64(rows)*scoreBytesPerRow))
	return func() { debug.SetMemoryLimit(old) }
}

// keepDivision keeps the division of that name alone in a report, and
// says whether it has one.
func keepDivision(rep *score.Report, name string) bool {
	var keep []score.Division
	for _, d := range rep.Divisions {
		if d.Name == name {
			keep = append(keep, d)
		}
	}
	if keep == nil {
		return false
	}
	rep.Divisions = keep
	return true
}

// writeScore writes a track's report in the format asked for: to
// opts.Out as page files (yaml, web-json), else to stdout.
func writeScore(io streams, opts ScoreOptions, rep *score.Report) error {
	date := opts.Date
	if date == "" && rep.Compat == score.Official {
		date = score.OfficialResultDate(rep.Year) // the date the tool wrote into that year's pages
	}
	if date == "" {
		date = time.Now().Format("2006-01-02 15:04:05")
	}
	switch opts.Format {
	case "csv":
		return score.WriteCSV(io.out, rep)
	case "json":
		return score.WriteJSON(io.out, rep, date)
	case "web-json":
		return writeWebJSON(io, opts.Out, rep, date)
	case "yaml":
		if opts.Out == "" {
			return score.WriteYAML(io.out, rep, date)
		}
		return writePages(io, opts.Out, score.Pages(rep, date))
	}
	return score.WriteTable(io.out, rep)
}

// rowsOf turns the stored results of a filter (and of a competition, if
// given) into score rows, filling in from the indexed library (or the
// check-sat table) what the results lack: the status of a benchmark, an
// incremental benchmark's check-sat count, an unsat-core benchmark's number
// of assertions; of these, only what the computation reads (need). It
// returns the rows, in room if it has the capacity for them, and their
// benchmarks (each path once for the rows that come one after the other
// with it).
func rowsOf(ctx context.Context, st store.Store, f store.ResultFilter, competition string, track benchmark.Track, checkSats string, need score.Facts, keep func(*store.Result), room []score.Row, io streams) ([]score.Row, []string, error) {
	n, err := st.CountResults(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	rows := room[:0] // not grown by copies: a year's rows are many
	if cap(rows) < n {
		rows = newRows(n)[0]
	}
	// The rows' benchmarks, each row's place among them: a benchmark's
	// results come one after the other, and one that comes again is
	// looked up again.
	paths := make([]string, 0, n) // as many as rows at most: not grown by copies (the part not used is not touched)
	bench := make([]int32, 0, n)
	needIndex := false
	// The facts the rows need of their benchmarks are looked up while the
	// results are read, from the first row that needs them (all the paths
	// are looked up then).
	wantFacts := need.Status || (track == benchmark.UnsatCore && need.Asserts) || (track == benchmark.Incremental && need.CheckSats)
	if track == benchmark.Incremental && need.CheckSats && checkSats == "" {
		needIndex = true // the check-sat counts are the library's
	}
	var ahead *store.FactsAhead
	var in interner
	var rr score.RowReader
	var pathCopies strarena.Arena
	err = st.EachResult(ctx, f, func(r *store.Result) error {
		if competition != "" && r.Competition != competition {
			return nil
		}
		if keep != nil {
			keep(r)
		}
		// Read in place (rows has room for every result, zero).
		if len(rows) < cap(rows) {
			rows = rows[:len(rows)+1]
		} else {
			rows = append(rows, score.Row{})
		}
		row := &rows[len(rows)-1]
		if err := rr.Read(row, r.Solver, r.BenchmarkPath, r.Status, r.Answer, r.Expected, r.CPU, r.Wall, r.Extra); err != nil {
			return err
		}
		// The store gives each row strings of its own, parts of blocks of
		// megabytes; the rows keep one copy of each, of its own, and the
		// blocks go once read.
		if len(paths) > 0 && row.Benchmark == paths[len(paths)-1] {
			row.Benchmark = paths[len(paths)-1]
		} else {
			row.Benchmark = pathCopies.Clone(row.Benchmark)
			paths = append(paths, row.Benchmark)
		}
		bench = append(bench, int32(len(paths)-1))
		row.Solver, row.Status, row.Answer, row.Expected, row.Result = in.of(row.Solver), in.of(row.Status), in.of(row.Answer), in.of(row.Expected), in.of(row.Result)
		// Set only where there is one, so that the rows of sources without
		// them (the smtcomp tool's JSON) make no Source.
		if n := row.Name(); n != "" {
			row.EditSource().Name = in.of(n)
		}
		if r.Configuration != "" {
			row.EditSource().ConfigName = in.of(r.Configuration)
		}
		if row.Expected == "" || (track == benchmark.UnsatCore && row.Reduction == 0 && row.CoreSize > 0) {
			needIndex = true
		}
		if needIndex && wantFacts {
			if ahead == nil {
				ahead = store.NewFactsAhead(ctx, st)
			}
			ahead.Offer(paths)
		}
		return nil
	})
	if err != nil || len(rows) == 0 {
		if ahead != nil {
			ahead.Stop()
		}
		return nil, nil, err
	}
	// What the rows need of their benchmarks (not the whole records: a
	// library, or the smtcomp tool's benchmark list, holds hundreds of
	// thousands of them).
	var facts []store.BenchFact
	if ahead != nil {
		if facts, err = ahead.Wait(paths); err != nil {
			return nil, nil, err
		}
	}
	var checks map[string]int
	if track == benchmark.Incremental && need.CheckSats && checkSats != "" {
		if checks, err = official.ReadCheckSats(checkSats); err != nil {
			return nil, nil, err
		}
	}
	var unknownN map[string]bool
	for i := range rows {
		r := &rows[i]
		var b store.BenchFact
		if facts != nil {
			b = facts[bench[i]]
		}
		if r.Expected == "" && b.Indexed {
			r.Expected = string(b.Status)
		}
		if track == benchmark.UnsatCore && b.Indexed && b.Asserts > 0 {
			r.Asserts = int32(b.Asserts)
			if r.Reduction == 0 && r.CoreSize > 0 {
				r.Reduction = max(r.Asserts-r.CoreSize, 0)
			}
		}
		if track != benchmark.Incremental || !need.CheckSats || r.CheckSats > 0 {
			continue
		}
		if n, ok := checks[r.Benchmark]; ok {
			r.CheckSats = int32(n)
		} else if b.Indexed && b.CheckSats > 0 {
			r.CheckSats = int32(b.CheckSats)
		} else {
			if unknownN == nil {
				unknownN = map[string]bool{}
			}
			unknownN[r.Benchmark] = true
			r.CheckSats = r.CorrectAnswers + r.WrongAnswers
		}
	}
	if len(unknownN) > 0 {
		fmt.Fprintf(io.err, "smtarena: %d incremental benchmarks have no known number of check-sats (give --check-sats or index the library); their unsolved counts are 0\n", len(unknownN))
	}
	return rows, paths, nil
}

// newRows returns room for n rows (length 0) for each n of ns, their
// memory written once. Fresh memory is mapped page by page as it is first
// touched, and the collection that so large an allocation starts at once
// would scan all of it before the rows are written: each page would be
// mapped twice, for that read and then for the write, and the write's
// copy of the zero page flushes the page from both processors (22,000
// page faults rather than 11,000 for the 141,661 rows of the 2024
// unsat-core track, measured with rows of 320 bytes; they are 152 now,
// some 5,300 pages). So no collection starts until the rows are cleared.
//
// Turning collection off waits for one that is marking, but not for one
// that another goroutine is starting at that moment (one whose allocation
// found the heap over its goal just before): that collection then scans
// the rows while they are cleared, and cannot stop the clearing goroutine
// to read its stack either (clear is one call that cannot be
// interrupted): it signals the goroutine again and again. Measured on
// the 2024 tracks, 2 runs in 12 took half again as long. So --track
// all makes the rows of the tracks that start together before any of
// them runs (runScoreAll), in one call.
func newRows(ns ...int) [][]score.Row {
	rowsAlloc.Lock()
	defer rowsAlloc.Unlock()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	rows := make([][]score.Row, len(ns))
	for i, n := range ns {
		rows[i] = make([]score.Row, n)
		clear(rows[i])
		rows[i] = rows[i][:0]
	}
	return rows
}

// rowsAlloc is held while newRows has collection off (each call puts back
// the setting it found).
var rowsAlloc sync.Mutex

// errNoResults says the store has no results to score for a track.
var errNoResults = errors.New("no results")

// scoreOptions resolves the options (from the competition definition where
// given) into the scoring's.
func scoreOptions(opts *ScoreOptions) (score.Options, error) {
	reg, err := applyScoreConfig(opts)
	if err != nil {
		return score.Options{}, err
	}
	if _, err := score.RuleSet(opts.Rules); err != nil {
		return score.Options{}, err
	}
	// A challenge track (2019) is scored as the track of its kind.
	track, challenge := score.ChallengeTracks[opts.Track]
	if !challenge {
		var err error
		if track, err = benchmark.ParseTrack(opts.Track); err != nil {
			return score.Options{}, err
		}
	}
	if err := score.CheckTrack(opts.Rules, track); err != nil {
		return score.Options{}, err
	}
	compat, err := score.ParseCompat(opts.Compat)
	if err != nil {
		return score.Options{}, err
	}
	year := opts.Year
	if year == 0 {
		year = opts.Rules
	}
	if opts.TimeLimit == 0 && opts.Config != "" {
		// T is the track's limit in the definition: its wall limit, else
		// its CPU limit.
		if def, err := config.Load(opts.Config); err == nil {
			tc := def.Tracks[string(track)]
			if tc.WallLimit.Duration > 0 {
				opts.TimeLimit = tc.WallLimit.Seconds()
			} else {
				opts.TimeLimit = tc.CPULimit.Seconds()
			}
		}
	}
	so := score.Options{Rules: opts.Rules, Year: year, Track: track, Challenge: challenge, Compat: compat, TimeLimit: opts.TimeLimit, Cores: opts.Cores, Solvers: reg}
	if opts.Solvers != "" {
		f, err := os.Open(opts.Solvers)
		if err != nil {
			return score.Options{}, err
		}
		so.Solvers, err = score.ParseRegistration(f)
		f.Close()
		if err != nil {
			return score.Options{}, fmt.Errorf("%s: %w", opts.Solvers, err)
		}
		if opts.Teams != "" {
			f, err := os.Open(opts.Teams)
			if err != nil {
				return score.Options{}, err
			}
			err = so.Solvers.MergeTeams(f)
			f.Close()
			if err != nil {
				return score.Options{}, fmt.Errorf("%s: %w", opts.Teams, err)
			}
		}
	}
	if so.Solvers == nil && compat == score.Official {
		// 2018: the names and non-competing solvers its programs had built in
		so.Solvers = score.OfficialSolvers(year, track)
	}
	return so, nil
}

// applyScoreConfig fills in the options the competition definition
// (--config) gives where they are not set, checks that the rules year is
// known, and returns the definition's solvers (nil without --config).
func applyScoreConfig(opts *ScoreOptions) (score.Registry, error) {
	var reg score.Registry
	if opts.Config != "" {
		def, err := config.Load(opts.Config)
		if err != nil {
			return nil, err
		}
		if opts.DB == "" {
			opts.DB = filepath.Join(def.Path(def.WorkDir), "smtarena.db")
		}
		if opts.Rules == 0 {
			opts.Rules = def.Rules
		}
		if opts.Year == 0 {
			opts.Year = def.Rules // compete records its results under the rules year
		}
		if opts.Competition == "" {
			opts.Competition = def.Name
		}
		reg = score.Registry{}
		for _, s := range def.Solvers {
			reg[s.Name] = score.Solver{Name: s.Name, Competitive: s.IsCompetitive(), Team: s.Team}
		}
	}
	if opts.Rules == 0 {
		return nil, fmt.Errorf("give --rules YEAR (or --config)")
	}
	return reg, nil
}

// scoreStored scores the stored results of one track: the report, the
// results scored and their rows (in the same order).
func scoreStored(ctx context.Context, st store.Store, opts ScoreOptions, so score.Options, wantResults bool, io streams) (*score.Report, []store.Result, []score.Row, error) {
	return scoreStoredWith(ctx, st, opts, so, wantResults, nil, nil, io)
}

// scoreStoredWith is scoreStored with the inputs that do not depend on
// the track read before (nil: read here), and the rows made before where
// room has the capacity for them (newRows).
func scoreStoredWith(ctx context.Context, st store.Store, opts ScoreOptions, so score.Options, wantResults bool, in *scoreInputs, room []score.Row, io streams) (*score.Report, []store.Result, []score.Row, error) {
	track, year := so.Track, so.Year
	// The stored results themselves are kept only when asked for (the
	// site shows them) or needed (the unsat-core verdicts are read from
	// them): scoring alone streams them into rows.
	var results []store.Result
	var keep func(*store.Result)
	// Of the unsat-core track, only the results with core facts (compete's
	// runs) have verdicts to read: those are kept, with their rows' places.
	var coreAt []int
	var coreResults []store.Result
	switch {
	case wantResults:
		keep = func(r *store.Result) { results = append(results, *r) }
	case track == benchmark.UnsatCore:
		n := 0
		keep = func(r *store.Result) {
			if strings.Contains(r.Extra, `"core_state"`) {
				coreAt, coreResults = append(coreAt, n), append(coreResults, *r)
			}
			n++
		}
	}
	// The site shows the rows: they get every fact there is.
	need := score.AllFacts
	if !wantResults {
		need = score.FactsOf(so)
	}
	rows, paths, err := rowsOf(ctx, st, store.ResultFilter{Year: year, Track: so.StoredTrack(), ImportedKeysless: !wantResults}, opts.Competition, track, opts.CheckSats, need, keep, room, io)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(rows) == 0 {
		return nil, nil, nil, fmt.Errorf("%w: no %s results of %d in %s (import some with smtarena import, or give --year)", errNoResults, track, year, opts.DB)
	}
	if track == benchmark.UnsatCore && (wantResults || len(coreAt) > 0) {
		verdictsOf := results
		if !wantResults {
			verdictsOf = make([]store.Result, len(rows))
			for j, i := range coreAt {
				verdictsOf[i] = coreResults[j]
			}
		}
		if err := applyCoreVerdicts(ctx, st, verdictsOf, rows, so.Compat, io); err != nil {
			return nil, nil, nil, err
		}
	}
	logics := map[string]bool{}
	for _, p := range paths {
		logics[benchmark.LogicOfPath(p)] = true
	}
	if so.Divisions, err = scoreDivisions(io, opts.Divisions, year, track, logics); err != nil {
		return nil, nil, nil, err
	}
	if in == nil {
		if in, err = readScoreInputs(opts, so); err != nil {
			return nil, nil, nil, err
		}
	}
	so.Exclude = in.exclude
	if so.Experimental, err = readExperimental(opts.Experimental, track); err != nil {
		return nil, nil, nil, err
	}
	if opts.Experimental == "" && so.Compat == score.Official {
		// what the year's make_mds.sh gave score.py (--expdivs)
		so.Experimental = score.OfficialExperimental(year, track)
	}
	if so.Compat == score.Official && year >= 2024 {
		if err := setup2024(ctx, st, opts, in, track, year, &so); err != nil {
			return nil, nil, nil, err
		}
	}
	rep, err := score.Score(rows, so)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, e := range rep.Excluded {
		fmt.Fprintf(io.err, "smtarena: %s: %d rows left out (or patched)\n", e.Name, e.Rows)
	}
	return rep, results, rows, nil
}

// interner keeps one copy of each of few strings, a copy of its own: the last one of each
// of a few slots (by length and first and last bytes) is at hand without
// a map's hashing.
type interner struct {
	m    map[string]string
	last [64]string
}

func (in *interner) of(s string) string {
	if s == "" {
		return ""
	}
	slot := &in.last[(len(s)*7+int(s[0])+int(s[len(s)-1])*31)&63]
	if *slot == s {
		return *slot
	}
	t, ok := in.m[s]
	if !ok {
		if in.m == nil {
			in.m = map[string]string{}
		}
		// A copy of its own: s may be part of a block of the store's.
		t = strings.Clone(s)
		if len(in.m) >= 10000 {
			return t
		}
		in.m[t] = t
	}
	*slot = t
	return t
}
