package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/executor"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/spf13/cobra"
)

// CompeteOptions are the flags of `smtarena compete`.
type CompeteOptions struct {
	DB      string
	Workers int
	Quiet   bool
	ExecutorOptions
}

func newCompeteCmd(io streams) *cobra.Command {
	var opts CompeteOptions
	cmd := &cobra.Command{
		Use:   "compete [--db DSN] [--workers N] competition.toml",
		Short: "Run a competition from its definition to result tables",
		Long: `Run a competition: index its library, select the benchmarks by its rules,
prepare the solvers' inputs, plan every job pair in the store, run them under
the track's limits (pinned to cores, round-robin across solvers), and print a
result table per division (the proof track: the checkers' verdicts and
statistics, no score). Selected benchmarks that break their track's input
rules are left out and listed in lint-<track>.txt in the work directory
(lint = "warn" in the definition runs them). Kill it at any moment and run
the same command again: it finishes the competition with every pair
recorded exactly once.
The store defaults to smtarena.db in the competition's work directory.`,
		Example: `  smtarena compete competition.toml`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompete(cmd.Context(), opts, args[0], io)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", os.Getenv("SMTARENA_DB"), "store (default: smtarena.db in the work directory)")
	cmd.Flags().IntVar(&opts.Workers, "workers", 0, "pairs run at once (default: CPUs / cores per job)")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "no progress display")
	addExecutorFlags(cmd, &opts.ExecutorOptions)
	return cmd
}

// openCompetition loads a definition and its store.
func openCompetition(ctx context.Context, path, dsn string) (*config.Competition, store.Store, error) {
	def, err := config.Load(path)
	if err != nil {
		return nil, nil, err
	}
	if dsn == "" {
		dir := def.Path(def.WorkDir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, nil, err
		}
		dsn = filepath.Join(dir, "smtarena.db")
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	return def, st, nil
}

func runCompete(ctx context.Context, opts CompeteOptions, path string, io streams) error {
	def, st, err := openCompetition(ctx, path, opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	ex, err := competeExecutor(opts.ExecutorOptions, def, path, opts.DB, st, io.err, opts.Quiet)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(io.err, &slog.HandlerOptions{Level: slog.LevelInfo}))
	start := time.Now()
	p, err := compete.Prepare(ctx, def, st, log)
	if err != nil {
		return err
	}
	total := 0
	for _, n := range p.Planned {
		total += n
	}
	fmt.Fprintf(io.out, "competition %s (%d rules), seed %d: %d pairs planned\n", def.Name, def.Rules, p.Seed, total)
	printLintReports(io.out, def, p.Lint)
	done := map[string]int{}
	for _, t := range def.TrackNames() {
		if c, err := st.PairCounts(ctx, compete.Key(def, t)); err == nil {
			done[string(t)] = c[string(t)][store.PairDone]
		}
	}
	onPair := func(store.Pair, store.Result) {}
	var prog *pairProgress
	// Workers on other machines report no pairs here: the Slurm executor
	// prints the store's counts instead.
	if _, remote := ex.(*executor.Slurm); !opts.Quiet && !remote {
		prog = newPairProgress(io.err, isTerminal(io.err), p.Planned, done)
		onPair = prog.onPair
	}
	mv, mvEnv := modelValidatorCommand()
	err = compete.Run(ctx, p, compete.Options{Executor: ex, Workers: opts.Workers, OnPair: onPair,
		ModelValidator: mv, ModelValidatorEnv: mvEnv})
	if prog != nil {
		prog.finish()
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted: run the same command again to resume")
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(io.out, "done in %s\n", time.Since(start).Round(time.Millisecond))
	return printSummaries(ctx, def, st, io.out)
}

// printLintReports says, per track, how many selected benchmarks break the
// track's input rules, what was done with them and where the report is.
func printLintReports(w io.Writer, def *config.Competition, reports []compete.LintReport) {
	n := map[benchmark.Track]int{}
	for _, r := range reports {
		n[r.Track]++
	}
	what := "left out"
	if def.Lint == config.LintWarn {
		what = "run anyway (lint = \"warn\")"
	}
	for _, t := range def.TrackNames() {
		if n[t] > 0 {
			fmt.Fprintf(w, "lint: %d selected benchmarks of the %s track break its input rules, %s: %s\n", n[t], t, what, compete.LintFile(def, t))
		}
	}
}

// isWrong reports whether a result holds a wrong answer, as the result
// tables count them: a single-query sat/unsat against the status (also
// one given before a kill at a limit), or an incremental run with a wrong
// answer to one of its check-sats.
func isWrong(r store.Result) bool {
	var extra struct {
		Wrong        bool `json:"wrong"`
		WrongAnswers int  `json:"wrong_answers"`
	}
	_ = json.Unmarshal([]byte(r.Extra), &extra)
	return extra.Wrong || extra.WrongAnswers > 0
}

func printSummaries(ctx context.Context, def *config.Competition, st store.Store, w io.Writer) error {
	sums, err := compete.Summaries(ctx, def, st)
	if err != nil {
		return err
	}
	last := ""
	var tw *tabwriter.Writer
	for _, s := range sums {
		if k := s.Track + "/" + s.Division; k != last {
			if tw != nil {
				tw.Flush()
			}
			note := ""
			if !s.Competitive {
				note = " (not competitive: no winner)"
			}
			fmt.Fprintf(w, "\n%s track, division %s%s\n", s.Track, s.Division, note)
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "solver\tpairs\tsolved\tsat\tunsat\tunknown\ttimeout\tmemout\tabort\twrong\tCPU s\twall s\t")
			last = k
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t\n", s.Solver, s.Pairs, s.Solved, s.Sat, s.Unsat,
			s.Unknown, s.Timeout, s.Memout, s.Aborted, s.Wrong, s.CPU, s.Wall)
	}
	if tw != nil {
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if err := printCoreSummaries(ctx, def, st, w); err != nil {
		return err
	}
	if err := printModelSummaries(ctx, def, st, w); err != nil {
		return err
	}
	return printProofTables(ctx, def, st, w)
}

// StatusOptions are the flags of `smtarena status`.
type StatusOptions struct{ DB string }

func newStatusCmd(io streams) *cobra.Command {
	var opts StatusOptions
	cmd := &cobra.Command{
		Use:   "status [--db DSN] competition.toml",
		Short: "Show a competition's progress (also while it runs)",
		Long: `Show how many pairs of each track are pending, running and done, and the
result tables so far. It reads the store only, so it works while compete runs.`,
		Example: `  smtarena status competition.toml`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			def, st, err := openCompetitionToRead(cmd.Context(), args[0], opts.DB)
			if err != nil {
				return err
			}
			defer st.Close()
			tw := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "track\tpending\trunning\tdone\ttotal\t")
			for _, t := range def.TrackNames() {
				c, err := st.PairCounts(cmd.Context(), compete.Key(def, t))
				if err != nil {
					return err
				}
				m := c[string(t)]
				keys := make([]string, 0, len(m))
				for k := range m {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", t, m[store.PairPending], m[store.PairRunning], m[store.PairDone],
					m[store.PairPending]+m[store.PairRunning]+m[store.PairDone])
				if t == benchmark.UnsatCore {
					c, err := st.PairCounts(cmd.Context(), compete.ValidationKey(def.Name))
					if err != nil {
						return err
					}
					m := c[compete.ValidationTrack]
					fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", compete.ValidationTrack, m[store.PairPending], m[store.PairRunning], m[store.PairDone],
						m[store.PairPending]+m[store.PairRunning]+m[store.PairDone])
				}
			}
			tw.Flush()
			if err := printNodes(cmd.Context(), def, st, io.out); err != nil {
				return err
			}
			return printSummaries(cmd.Context(), def, st, io.out)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", os.Getenv("SMTARENA_DB"), "store (default: smtarena.db in the work directory)")
	return cmd
}
