package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/crand"
	"github.com/smtarena/smtarena/internal/report"
	"github.com/smtarena/smtarena/internal/store"
)

// reportMemoryLimit is report's soft memory limit (GOMEMLIMIT overrides it).
const reportMemoryLimit = 1536 << 20

// ReportOptions are the flags of `smtarena report`.
type ReportOptions struct {
	// Score says which results and how to score them (the flags of
	// smtarena score that choose results and rules).
	Score ScoreOptions
	Out   string
	Title string
	// Compare is another store whose results are compared with these;
	// CompareCompetition keeps only that competition's results of it.
	Compare, CompareCompetition string
	// CompareAs pairs solvers of two names: NAME=OTHER.
	CompareAs []string
}

// siteFlags registers the flags report and serve share.
func siteFlags(cmd *cobra.Command, o *ScoreOptions) {
	dbFlag(cmd, &o.DB)
	f := cmd.Flags()
	f.StringVar(&o.Config, "config", "", "a competition definition run with smtarena compete (its store, name, rules, solvers and limits)")
	f.IntVar(&o.Rules, "rules", 0, "rules year to score by (required without --config)")
	f.IntVar(&o.Year, "year", 0, "the year of the results (default: the rules year)")
	f.StringVar(&o.Competition, "competition", "", "only the results of this competition (e.g. \"SMT-COMP 2019\")")
	f.StringVar(&o.Compat, "compat", "", "official: score as SMT-COMP's scoring script did")
	f.StringVar(&o.Solvers, "solvers", "", "registration table naming solvers by id and marking them competitive")
	f.StringVar(&o.Teams, "teams", "", "canon_solvers.json: which solvers are variants of one team's")
	f.StringVar(&o.Divisions, "divisions", "", "the division table (default: the year's, built in)")
	f.StringVar(&o.CheckSats, "check-sats", "", "the check-sat count of each incremental benchmark (benchmark,num_check_sat)")
	f.StringArrayVar(&o.Exclude, "exclude", nil, "a list of benchmarks to leave out of scoring, as for smtarena score; repeatable")
	f.StringVar(&o.Experimental, "experimental", "", "the experimental divisions, as for smtarena score")
	f.StringVar(&o.Defs, "defs", "", "2024 on, --compat official: the smtcomp tool's defs.py")
	f.StringVar(&o.Submissions, "submissions", "", "2024 on, --compat official: the directory of the entrants' submissions")
}

func newReportCmd(io streams) *cobra.Command {
	var opts ReportOptions
	cmd := &cobra.Command{
		Use:   "report --out DIR [--config competition.toml | --rules YEAR ...] [--compare DSN]",
		Short: "Publish a competition's results as a static website",
		Long: `Write a static website of a competition from the store: an overview (rules,
seed, limits, entrants, winners of every division by each score, the
competition-wide rankings), a page per track and division (and per logic)
with the official columns and cactus and scatter plots, solver, benchmark
and pair pages, wrong answers, disagreements, and CSV/JSON downloads of
every table with the official results JSON and YAML pages. Plots are SVG;
the pages need no network and work from file://.

The results are those of a competition run with smtarena compete (--config),
or of official data imported with smtarena import and re-scored by the
options of smtarena score (--rules, --year, --compat official, --solvers, ...).
--compare DSN adds a page comparing with the results in another store.`,
		Example: `  smtarena report --config examples/demo.toml --out out/demo/site
  smtarena report --db 2019.db --rules 2019 --compat official \
      --solvers ../shared/official-results/2019/registration/solvers_divisions_final.csv --out site-2019`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Score.Config != "" && !cmd.Flags().Changed("db") && os.Getenv("SMTARENA_DB") == "" {
				opts.Score.DB = "" // the competition's own store
			}
			return runReport(cmd.Context(), opts, io)
		},
	}
	siteFlags(cmd, &opts.Score)
	f := cmd.Flags()
	f.StringVar(&opts.Out, "out", "", "the directory to write the site into (required)")
	f.StringVar(&opts.Title, "title", "", "the site's title (default: the competition's name)")
	f.StringVar(&opts.Compare, "compare", "", "another store to compare with (SQLite file or postgres:// URL)")
	f.StringVar(&opts.CompareCompetition, "compare-competition", "", "with --compare: only this competition's results of it")
	f.StringArrayVar(&opts.CompareAs, "compare-as", nil, "with --compare: NAME=OTHER pairs this run's solver NAME with OTHER of the other run (two versions of a solver); repeatable")
	return cmd
}

func runReport(ctx context.Context, opts ReportOptions, io streams) error {
	if opts.Out == "" {
		return fmt.Errorf("give --out DIR")
	}
	start := time.Now()
	if os.Getenv("GOMEMLIMIT") == "" {
		// A site of a million results fits in about 1.2 GB when the
		// garbage collector is told to keep under this (BenchmarkReportMillion);
		// a bigger one goes over it, collecting more often.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(reportMemoryLimit))
	}
	st, err := openSiteStore(ctx, &opts.Score, true)
	if err != nil {
		return err
	}
	defer st.Close()
	in, err := loadSite(ctx, st, opts.Score, io)
	if err != nil {
		return err
	}
	if opts.Title != "" {
		in.Title = opts.Title
	}
	if opts.Compare != "" {
		other, err := loadCompare(ctx, opts.Compare, opts.CompareCompetition, in)
		if err != nil {
			return fmt.Errorf("--compare %s: %w", opts.Compare, err)
		}
		in.Compare = other
		in.CompareAs = map[string]string{}
		for _, a := range opts.CompareAs {
			name, as, ok := strings.Cut(a, "=")
			if !ok || name == "" || as == "" {
				return fmt.Errorf("--compare-as %q: want NAME=OTHER", a)
			}
			in.CompareAs[name] = as
		}
	}
	loaded := time.Now()
	site := report.Build(in)
	stats, err := site.Write(opts.Out)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.out, "wrote %d files (%.1f MB) to %s in %s (reading and scoring the store %s, the site %s); largest page %s (%d KB)\n",
		stats.Files, float64(stats.Bytes)/(1<<20), opts.Out, time.Since(start).Round(time.Millisecond), loaded.Sub(start).Round(time.Millisecond),
		time.Since(loaded).Round(time.Millisecond), stats.Largest, stats.LargestBytes>>10)
	abs, _ := filepath.Abs(opts.Out)
	fmt.Fprintf(io.out, "open file://%s/index.html\n", abs)
	return nil
}

// openSiteStore opens the store the options name (the competition's own
// with --config and no --db); with mustExist, only a store that is there.
func openSiteStore(ctx context.Context, o *ScoreOptions, mustExist bool) (store.Store, error) {
	if o.Config != "" && o.DB == "" {
		def, err := config.Load(o.Config)
		if err != nil {
			return nil, err
		}
		o.DB = filepath.Join(def.Path(def.WorkDir), "smtarena.db")
	}
	if o.DB == "" {
		o.DB = store.DefaultDSN
	}
	if mustExist {
		return openStoreToRead(ctx, o.DB)
	}
	return store.Open(ctx, o.DB)
}

// loadSite reads and scores a competition's results from the store, track
// by track, into a site's input.
func loadSite(ctx context.Context, st store.Store, o ScoreOptions, io streams) (*report.Input, error) {
	var def *config.Competition
	if o.Config != "" {
		var err error
		if def, err = config.Load(o.Config); err != nil {
			return nil, err
		}
	}
	in := &report.Input{Generated: time.Now().UTC().Format("2006-01-02 15:04 UTC")}
	var tracks []benchmark.Track
	if def != nil {
		tracks = def.TrackNames()
		in.Title = def.Name
		in.WorkDir = def.Path(def.WorkDir)
	} else {
		year := o.Year
		if year == 0 {
			year = o.Rules
		}
		tracks = benchmark.TracksOf(year)
		in.Title = o.Competition
		if in.Title == "" {
			in.Title = fmt.Sprintf("Results of %d", year)
		}
	}
	entrants := map[string]report.Entrant{}
	for _, t := range tracks {
		to := o
		to.Track = string(t)
		so, err := scoreOptions(&to)
		if err != nil {
			if def == nil {
				continue // a track these rules do not have
			}
			return nil, err
		}
		in.Meta.Rules, in.Meta.Year, in.Meta.Compat = so.Rules, so.Year, string(so.Compat)
		tr := report.Track{Track: t}
		if t == benchmark.Proof {
			// no scores: the results as they are
			rs, err := st.Results(ctx, store.ResultFilter{Year: so.Year, Track: string(t)})
			if err != nil {
				return nil, err
			}
			for _, r := range rs {
				if to.Competition == "" || r.Competition == to.Competition {
					tr.Results = append(tr.Results, r)
				}
			}
			if len(tr.Results) > 0 {
				in.Tracks = append(in.Tracks, tr)
			}
			continue
		}
		rep, results, rows, err := scoreStored(ctx, st, to, so, true, io)
		if errors.Is(err, errNoResults) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s track: %w", t, err)
		}
		// Results show under the names the scores use.
		for i := range results {
			if s, ok := so.Solvers[rows[i].Solver]; ok && s.Name != "" {
				results[i].Solver = s.Name
			}
		}
		for _, s := range so.Solvers {
			if s.Name != "" {
				entrants[s.Name] = report.Entrant{Name: s.Name, Team: s.Team, Competitive: s.Competitive}
			}
		}
		if t == benchmark.UnsatCore && def != nil {
			if err := addCoreVerdicts(ctx, st, def, results); err != nil {
				return nil, err
			}
		}
		tr.Score, tr.Results, tr.TimeLimit = rep, results, rep.TimeLimit
		if def == nil {
			// the limits the scores were computed with
			in.Meta.Limits = append(in.Meta.Limits, report.Limit{Track: string(t), Wall: rep.TimeLimit, MemoryMB: int64(rep.MemLimit) << 10})
		}
		in.Tracks = append(in.Tracks, tr)
	}
	if len(in.Tracks) == 0 {
		return nil, fmt.Errorf("no results to publish in %s (run smtarena compete, or import official results and give --year)", o.DB)
	}
	if def != nil {
		in.Meta.Rules, in.Meta.Year = def.Rules, def.Rules
		in.Meta.Seed = seedText(def)
		for _, t := range def.TrackNames() {
			tc := def.Tracks[string(t)]
			in.Meta.Limits = append(in.Meta.Limits, report.Limit{Track: string(t), CPU: tc.CPULimit.Seconds(), Wall: tc.WallLimit.Seconds(),
				MemoryMB: tc.MemoryMB, Cores: tc.Cores})
		}
		for _, s := range def.Solvers {
			in.Meta.Entrants = append(in.Meta.Entrants, report.Entrant{Name: s.Name, Team: s.Team, Version: s.Version, Competitive: s.IsCompetitive()})
		}
		prog, err := competitionProgress(ctx, def, st, in)
		if err != nil {
			return nil, err
		}
		in.Progress = prog
	} else {
		for _, e := range entrants {
			in.Meta.Entrants = append(in.Meta.Entrants, e)
		}
		sort.Slice(in.Meta.Entrants, func(i, j int) bool { return in.Meta.Entrants[i].Name < in.Meta.Entrants[j].Name })
		in.Meta.Notes = append(in.Meta.Notes, "Results imported from the store and scored by smtarena.")
	}
	return in, nil
}

// seedText says what the competition's seed is and how it was derived.
func seedText(def *config.Competition) string {
	if def.Seed.Value != nil {
		return fmt.Sprintf("%d (given in the definition)", *def.Seed.Value)
	}
	t, err := crand.CompetitionSeed(def.Rules, def.Seed.Entrants, def.Seed.NYSE)
	if err != nil {
		return "cannot be derived: " + err.Error()
	}
	ents := make([]string, len(t.Entrants))
	for i, e := range t.Entrants {
		ents[i] = fmt.Sprint(e)
	}
	return fmt.Sprintf("%d = (%s) mod 2^30 + %d (NYSE opening %s, as the %d rules derive it)", t.Seed, strings.Join(ents, " + "), t.NYSETerm, t.NYSE, def.Rules)
}

// competitionProgress counts each track and division's pairs: planned,
// done, running, and the errors and wrong answers among the results. It
// also adds to each result the host that ran its pair (from the pair's
// owner), for the pair's details.
func competitionProgress(ctx context.Context, def *config.Competition, st store.Store, in *report.Input) ([]report.Progress, error) {
	var out []report.Progress
	for _, t := range def.TrackNames() {
		ps, err := st.Pairs(ctx, compete.Key(def, t))
		if err != nil {
			return nil, err
		}
		hosts := map[string]string{}
		by := map[string]*report.Progress{}
		var divs []string
		for _, p := range ps {
			if host, _, _ := strings.Cut(p.Owner, "/"); host != "" {
				hosts[fmt.Sprintf("pair:%d", p.ID)] = host
			}
			g := by[p.Division]
			if g == nil {
				g = &report.Progress{Track: string(t), Division: p.Division, ETA: -1}
				by[p.Division] = g
				divs = append(divs, p.Division)
			}
			g.Planned++
			switch p.State {
			case store.PairDone:
				g.Done++
			case store.PairRunning:
				g.Running++
			}
		}
		for _, tr := range in.Tracks {
			if tr.Track != t {
				continue
			}
			for i := range tr.Results {
				r := &tr.Results[i]
				if h, ok := hosts[r.SourceKey]; ok {
					r.Extra = withField(r.Extra, "host", h)
				}
				g := by[divisionOf(*r)]
				if g == nil {
					continue
				}
				if r.Status == "error" || r.Status == "abort" {
					g.Errors++
				}
				if isWrong(*r) {
					g.Wrong++
				}
			}
		}
		sort.Strings(divs)
		for _, d := range divs {
			g := by[d]
			if g.Done == g.Planned {
				g.ETA = 0
			}
			out = append(out, *g)
		}
	}
	return out, nil
}

// divisionOf is the division compete recorded with a result.
func divisionOf(r store.Result) string {
	const key = `"division":"`
	i := strings.Index(r.Extra, key)
	if i < 0 {
		return ""
	}
	rest := r.Extra[i+len(key):]
	if j := strings.IndexByte(rest, '"'); j >= 0 {
		return rest[:j]
	}
	return ""
}

// loadCompare reads the results of another store, for --compare: the same
// tracks, unscored.
func loadCompare(ctx context.Context, dsn, competition string, in *report.Input) (*report.Input, error) {
	st, err := openStoreToRead(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	out := &report.Input{Title: dsn}
	if competition != "" {
		out.Title = competition + " (" + dsn + ")"
	}
	n := 0
	for _, tr := range in.Tracks {
		rs, err := st.Results(ctx, store.ResultFilter{Track: string(tr.Track)})
		if err != nil {
			return nil, err
		}
		kept := rs[:0]
		for _, r := range rs {
			if competition == "" || r.Competition == competition {
				kept = append(kept, r)
			}
		}
		n += len(kept)
		out.Tracks = append(out.Tracks, report.Track{Track: tr.Track, Results: kept})
	}
	if n == 0 {
		return nil, fmt.Errorf("no results of the tracks %s", trackList(in))
	}
	return out, nil
}

func trackList(in *report.Input) string {
	var ns []string
	for _, t := range in.Tracks {
		ns = append(ns, string(t.Track))
	}
	return strings.Join(ns, ", ")
}

// addCoreVerdicts adds to each unsat-core result the verdict on its core
// and the validation's detail (each validator's answer and time), which
// the store keeps with the distinct cores: the pages show them as the
// result's other extra columns.
func addCoreVerdicts(ctx context.Context, st store.Store, def *config.Competition, results []store.Result) error {
	cores, err := st.Cores(ctx, compete.ValidationKey(def.Name))
	if err != nil {
		return err
	}
	byHash := map[string]store.Core{}
	for _, c := range cores {
		byHash[c.Hash] = c
	}
	for i := range results {
		r := &results[i]
		var x map[string]json.RawMessage
		if json.Unmarshal([]byte(r.Extra), &x) != nil {
			continue
		}
		var hash string
		if json.Unmarshal(x["core_hash"], &hash) != nil || hash == "" {
			continue
		}
		c, ok := byHash[hash]
		if !ok {
			continue
		}
		verdict := c.Verdict
		if verdict == "" {
			verdict = "pending"
		}
		x["core_verdict"], _ = json.Marshal(verdict)
		if c.Detail != "" && json.Valid([]byte(c.Detail)) {
			x["core_validation"] = json.RawMessage(c.Detail)
		}
		b, err := json.Marshal(x)
		if err != nil {
			return err
		}
		r.Extra = string(b)
	}
	return nil
}

// withField adds a string field to a JSON object (extra columns), unless
// it has one of that name.
func withField(obj, key, value string) string {
	obj = strings.TrimSpace(obj)
	if !strings.HasSuffix(obj, "}") || strings.Contains(obj, `"`+key+`":`) {
		return obj
	}
	k, _ := json.Marshal(key)
	v, _ := json.Marshal(value)
	field := string(k) + ":" + string(v)
	body := strings.TrimSpace(obj[:len(obj)-1])
	if body == "{" {
		return "{" + field + "}"
	}
	return body + "," + field + "}"
}
