package main

import (
	"context"
	"fmt"

	"github.com/smtarena/smtarena/internal/library"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/spf13/cobra"
)

// ImportOptions are the flags of `smtarena import`.
type ImportOptions struct {
	DB          string
	Year        int
	Track       string
	Competition string
	Solver      string
}

func newImportCmd(io streams) *cobra.Command {
	var opts ImportOptions
	cmd := &cobra.Command{
		Use:   "import [--db DSN] [--year Y] [--track T] [starexec-csv|smtcomp-json|aws-csv] FILE...",
		Short: "Import official SMT-COMP results into the store",
		Long: `Read the official per-pair results that SMT-COMP publishes into the same
results table that runs write, so that selection can drop benchmarks solved by
all solvers in earlier years and scoring can re-score them. Formats:

  starexec-csv  StarExec job exports of 2019-2023 (.csv, or .csv.tar.xz/.tar.gz
                as in the SMT-COMP repositories), with their per-track columns
                (the default when no format word is given)
  smtcomp-json  the smtcomp tool's results of 2024 on (.json or .json.gz):
                track, solver, file, result, cpu_time, wallclock_time,
                memory_usage, nb_answers
  aws-csv       the cloud and parallel tracks' AWS results (2022, 2023)

The year and track come from the file's path and name (e.g. 2019/.../
Unsat_Core_Track.csv.tar.xz) unless given. Importing a file again adds nothing
twice.`,
		Example: `  smtarena import ../shared/official-results/2019/results/*.csv.tar.xz
  smtarena import smtcomp-json results-sq-2024.json.gz
  smtarena import --track parallel aws-csv 2022/raw-results-parallel.csv`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runImport(cmd.Context(), opts, args, io)
		},
	}
	dbFlag(cmd, &opts.DB)
	cmd.Flags().IntVar(&opts.Year, "year", 0, "competition year (default: from the path)")
	cmd.Flags().StringVar(&opts.Track, "track", "", "track (default: from the file name)")
	cmd.Flags().StringVar(&opts.Competition, "competition", "", `competition name (default "SMT-COMP YEAR")`)
	cmd.Flags().StringVar(&opts.Solver, "solver", "", "aws-csv: the solver of a raw per-solver file (default: from its name)")
	return cmd
}

func runImport(ctx context.Context, opts ImportOptions, args []string, io streams) error {
	st, err := store.Open(ctx, opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	format, files := importFormat(args)
	if len(files) == 0 {
		return fmt.Errorf("import %s: no file given", format)
	}
	for _, f := range files {
		s, err := library.Import(ctx, st, format, f, library.ImportOptions{Year: opts.Year, Track: opts.Track, Competition: opts.Competition, Solver: opts.Solver})
		fmt.Fprintf(io.out, "%s: %d rows, %d added, %d already there\n", f, s.Rows, s.Added, s.Skipped)
		if err != nil {
			return err
		}
	}
	return nil
}
