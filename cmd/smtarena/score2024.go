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

// setup2024 completes the options of the official computation of 2024 on
// (the smtcomp tool's): the division table and removed results of defs.py
// (--defs), the solvers' entered logics and competitive flags from their
// submissions (--submissions), for the cloud and parallel tracks the other
// track's benchmarks (the tool scores each over both selections), and the
// statuses of selected benchmarks without results from the store.
func setup2024(ctx context.Context, st store.Store, opts ScoreOptions, track benchmark.Track, year int, so *score.Options) error {
	if opts.Defs == "" {
		if opts.Submissions != "" {
			return fmt.Errorf("--submissions needs --defs (defs.py: the tracks' divisions and logics)")
		}
		return nil
	}
	src, err := os.ReadFile(opts.Defs)
	if err != nil {
		return err
	}
	defs, err := score.ParseSMTCOMPDefs(src)
	if err != nil {
		return fmt.Errorf("%s: %w", opts.Defs, err)
	}
	if opts.Divisions == "" {
		so.Divisions = defs.Divisions(track)
	}
	so.Removed = defs.RemovedResults
	if year >= 2025 {
		so.BaseSolvers = defs.BaseSolvers
	}
	if opts.Submissions != "" {
		files, err := filepath.Glob(filepath.Join(opts.Submissions, "*.json"))
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("%s: no submission (*.json)", opts.Submissions)
		}
		subs := map[string][]byte{}
		for _, f := range files {
			if subs[filepath.Base(f)], err = os.ReadFile(f); err != nil {
				return err
			}
		}
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
		rs, err := st.Results(ctx, store.ResultFilter{Year: year, Track: string(other)})
		if err != nil {
			return err
		}
		for _, r := range rs {
			so.Selection = append(so.Selection, r.BenchmarkPath)
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
