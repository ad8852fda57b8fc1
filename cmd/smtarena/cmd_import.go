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
}

func newImportCmd(io streams) *cobra.Command {
	var opts ImportOptions
	cmd := &cobra.Command{
		Use:   "import [--db DSN] [--year Y] [--track T] FILE...",
		Short: "Import official SMT-COMP results (StarExec job CSVs) into the store",
		Long: `Read the official per-pair results that SMT-COMP publishes (StarExec job
exports: .csv, or .csv.tar.xz/.csv.tar.gz as in the SMT-COMP repositories) into
the same results table that runs write, so that selection can drop benchmarks
solved by all solvers in earlier years and scoring can re-score them. The year
and track come from the file's path and name (e.g. 2019/.../Unsat_Core_Track
.csv.tar.xz) unless given. Importing a file again adds nothing twice.`,
		Example: `  smtarena import ../shared/official-results/2019/results/*.csv.tar.xz`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runImport(cmd.Context(), opts, args, io)
		},
	}
	dbFlag(cmd, &opts.DB)
	cmd.Flags().IntVar(&opts.Year, "year", 0, "competition year (default: from the path)")
	cmd.Flags().StringVar(&opts.Track, "track", "", "track (default: from the file name)")
	cmd.Flags().StringVar(&opts.Competition, "competition", "", `competition name (default "SMT-COMP YEAR")`)
	return cmd
}

func runImport(ctx context.Context, opts ImportOptions, args []string, io streams) error {
	st, err := store.Open(ctx, opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range args {
		s, err := library.ImportStarExec(ctx, st, f, library.ImportOptions{Year: opts.Year, Track: opts.Track, Competition: opts.Competition})
		fmt.Fprintf(io.out, "%s: %d rows, %d added, %d already there\n", f, s.Rows, s.Added, s.Skipped)
		if err != nil {
			return err
		}
	}
	return nil
}
