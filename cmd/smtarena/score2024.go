package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/store"
)

// scoreInputs are what scoring reads besides the results and does not
// depend on the track: read once when every track is scored (--track all).
type scoreInputs struct {
	exclude []score.Exclusion
	// 2024 on, --compat official: defs.py (--defs) and the submissions'
	// files by name (--submissions); nil if not given
	defs *score.SMTCOMPDefs
	subs map[string][]byte
}

// readScoreInputs reads the --exclude lists and, for the official
// computation of 2024 on, defs.py and the submissions.
func readScoreInputs(opts ScoreOptions, so score.Options) (*scoreInputs, error) {
	in := &scoreInputs{}
	var err error
	if in.exclude, err = readExclusions(opts.Exclude); err != nil {
		return nil, err
	}
	if so.Compat != score.Official || so.Year < 2024 {
		return in, nil
	}
	if opts.Defs == "" {
		if opts.Submissions != "" {
			return nil, fmt.Errorf("--submissions needs --defs (defs.py: the tracks' divisions and logics)")
		}
		return in, nil
	}
	src, err := os.ReadFile(opts.Defs)
	if err != nil {
		return nil, err
	}
	if in.defs, err = score.ParseSMTCOMPDefs(src); err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Defs, err)
	}
	if opts.Submissions != "" {
		files, err := filepath.Glob(filepath.Join(opts.Submissions, "*.json"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no submission (*.json)", opts.Submissions)
		}
		in.subs = map[string][]byte{}
		for _, f := range files {
			if in.subs[filepath.Base(f)], err = os.ReadFile(f); err != nil {
				return nil, err
			}
		}
	}
	return in, nil
}

// setup2024 completes the options of the official computation of 2024 on
// (the smtcomp tool's): the division table and removed results of defs.py
// (--defs), the solvers' entered logics and competitive flags from their
// submissions (--submissions), for the cloud and parallel tracks the other
// track's benchmarks (the tool scores each over both selections), and the
// statuses of selected benchmarks without results from the store.
func setup2024(ctx context.Context, st store.Store, opts ScoreOptions, in *scoreInputs, track benchmark.Track, year int, so *score.Options) error {
	defs := in.defs
	if defs == nil {
		return nil
	}
	if opts.Divisions == "" {
		so.Divisions = defs.Divisions(track)
	}
	so.Removed = defs.RemovedResults
	if year >= 2025 {
		so.BaseSolvers = defs.BaseSolvers
	}
	if subs := in.subs; subs != nil {
		entrants, reg, err := defs.Entrants(track, subs)
		if err != nil {
			return fmt.Errorf("%s: %w", opts.Submissions, err)
		}
		so.Entrants = entrants
		if opts.Solvers == "" {
			so.Solvers = reg
		}
		if year >= 2025 {
			if so.BaseSolvers, err = defs.BaseSolversOf(subs); err != nil {
				return fmt.Errorf("%s: %w", opts.Submissions, err)
			}
		}
	}
	if track == benchmark.Cloud || track == benchmark.Parallel {
		other := benchmark.Parallel
		if track == benchmark.Parallel {
			other = benchmark.Cloud
		}
		err := st.EachResult(ctx, store.ResultFilter{Year: year, Track: string(other), ImportedKeysless: true}, func(r *store.Result) error {
			so.Selection = append(so.Selection, r.BenchmarkPath)
			return nil
		})
		if err != nil {
			return err
		}
	}
	// The statuses of the selected benchmarks that have no results here.
	so.Status = map[string]string{}
	paths := append(append([]string{}, so.Selection...), so.Removed...)
	facts, err := st.BenchFacts(ctx, paths)
	if err != nil {
		return err
	}
	for i, b := range facts {
		if b.Indexed {
			so.Status[paths[i]] = string(b.Status)
		}
	}
	return nil
}

// writeWebJSON writes the website's JSON records into dir, or to stdout.
func writeWebJSON(io streams, dir string, rep *score.Report, date string) error {
	if dir == "" {
		return score.WriteWebJSON(io.out, rep, date)
	}
	pages, err := score.WebPages(rep, date)
	if err != nil {
		return err
	}
	return writePages(io, dir, pages)
}

// writePages writes page files into dir, creating it, and says so.
func writePages(io streams, dir string, pages []score.Page) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, p := range pages {
		if err := os.WriteFile(filepath.Join(dir, p.Name), []byte(p.Text), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(io.out, "wrote %d pages to %s\n", len(pages), dir)
	return nil
}
