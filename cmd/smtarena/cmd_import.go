package main

import (
	"cmp"
	"errors"
	"os"
	"runtime/debug"
	"strings"

	"context"
	"fmt"

	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/official"

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
	Map         string // aws-csv: competition name -> SMT-LIB name
	Statuses    string // aws-csv: benchmark statuses
	Dir         string // submission: where its archive is unpacked
	Into        string // submission: the competition.toml to add it to
	Strict      bool   // an unusable row fails the import
	Problems    string // write every unusable row here (default: the first 20 on stderr)
}

func newImportCmd(io streams) *cobra.Command {
	var opts ImportOptions
	cmd := &cobra.Command{
		Use:   "import [--db DSN] [--year Y] [--track T] [starexec-csv|smtcomp-json|benchmarks-json|aws-csv|submission] FILE...",
		Short: "Import official SMT-COMP results into the store",
		Long: `Read the official per-pair results that SMT-COMP publishes into the store's
results, beside those that runs write, so that selection can drop benchmarks solved by
all solvers in earlier years and scoring can re-score them. Formats:

  starexec-csv  StarExec job exports of 2015-2023 (.csv, compressed, or archives
                as in the SMT-COMP repositories), with their per-track columns
                (the default when no format word is given, but for files
                named *.json, *.json.gz: benchmarks-* are a benchmark list,
                others smtcomp-json results)
  smtcomp-json  the smtcomp tool's results of 2024 on (.json or .json.gz):
                track, solver, file, result, cpu_time, wallclock_time,
                memory_usage, nb_answers (and year, in later files); any
                other field is kept with the result
  benchmarks-json
                the smtcomp tool's benchmark list (benchmarks-YEAR.json.gz)
                into the benchmarks: status, assertions (the unsat-core
                score), check-sats (the incremental one); benchmarks already
                there are left as they are
  aws-csv       the cloud and parallel tracks' AWS results (2021-2023)
  submission    an entrant's registration (SMT-COMP's submissions/*.json:
                name, contributors, command, solver_type, participations,
                seed, competitive): printed as a [[solvers]] entry of a
                competition definition, or added to --into competition.toml;
                --dir is where its archive is unpacked (commands are relative
                to it)

The year and track come from the file's path and name (e.g. 2019/.../
Unsat_Core_Track.csv.tar.xz) unless given. Importing a file again adds nothing
twice.`,
		Example: `  smtarena import ../shared/official-results/2019/results/*.csv.tar.xz
  smtarena import smtcomp-json results-sq-2024.json.gz
  smtarena import benchmarks-json benchmarks-2024.json.gz
  smtarena import --track parallel aws-csv 2022/raw-results-parallel.csv
  smtarena import submission --dir solvers/cvc5 --into competition.toml cvc5.json`,
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
	cmd.Flags().StringVar(&opts.Map, "map", "", "aws-csv: the organisers' competition name to SMT-LIB name map (competition name, smtlib name)")
	cmd.Flags().StringVar(&opts.Statuses, "statuses", "", "aws-csv: benchmark statuses (benchmark, status) for files without an expected column")
	cmd.Flags().StringVar(&opts.Dir, "dir", "", "submission: the directory its archive is unpacked in")
	cmd.Flags().StringVar(&opts.Into, "into", "", "submission: append the solver to this competition.toml (checked after)")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "exit 1 when a row could not be imported (default: name it, count it, go on)")
	cmd.Flags().StringVar(&opts.Problems, "problems", "", "write every row that could not be imported, with its line and the reason, to this file")
	return cmd
}

func runImport(ctx context.Context, opts ImportOptions, args []string, io streams) error {
	if len(args) > 0 && args[0] == "submission" {
		return importSubmissions(opts, args[1:], io)
	}
	// An import's live heap is its batches in flight and the block being
	// built (the set of keys seen is memory of its own: keyset); what it
	// reads is garbage at once. Collecting at twice the live heap (set
	// here, whatever GOGC says: the figures depend on it) peaks at
	// 0.6-0.66 GB per million rows of the StarExec exports of 2019 and
	// 2020, whose rows take a kilobyte each, and 0.47 GB of the 2024
	// results JSON (issue 13: at most 1 GB); collecting at half again the
	// live heap took 8 % longer, for 10-20 % less.
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	st, err := store.Open(ctx, opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	format, files := importFormat(args)
	if len(files) == 0 {
		return fmt.Errorf("import %s: no file given", cmp.Or(format, "starexec-csv"))
	}
	var all []official.Problem
	unusable := 0
	stats, errs, err := official.ImportFiles(ctx, st, format, files, official.Options{Year: opts.Year, Track: opts.Track,
		Competition: opts.Competition, Solver: opts.Solver, Map: opts.Map, Statuses: opts.Statuses})
	if err != nil {
		return fmt.Errorf("nothing imported: %w", err)
	}
	var first error
	for i, f := range files {
		s := stats[i]
		if errors.Is(errs[i], official.ErrNotRead) {
			fmt.Fprintf(io.out, "%s: %v\n", f, errs[i])
			continue
		}
		bad := s.Unusable()
		unusable += bad
		fmt.Fprintf(io.out, "%s: %d rows, %d added, %d already there, %d not imported\n", f, s.Rows, s.Added, s.Skipped, bad)
		for i, p := range s.Problems {
			if i == 20 && opts.Problems == "" {
				fmt.Fprintf(io.err, "smtarena: ... and %d more (--problems FILE lists them all)\n", len(s.Problems)-20)
				break
			}
			if opts.Problems == "" {
				fmt.Fprintf(io.err, "smtarena: %s\n", p)
			}
		}
		all = append(all, s.Problems...)
		if first == nil {
			first = errs[i]
		}
	}
	if first != nil {
		return first
	}
	if opts.Problems != "" {
		var b strings.Builder
		for _, p := range all {
			b.WriteString(p.String() + "\n")
		}
		if err := os.WriteFile(opts.Problems, []byte(b.String()), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(io.err, "smtarena: %d problems written to %s\n", len(all), opts.Problems)
	}
	if opts.Strict && unusable > 0 {
		fmt.Fprintf(io.err, "smtarena: %d rows could not be imported\n", unusable)
		return judgedError{fmt.Sprintf("%d rows could not be imported", unusable)}
	}
	return nil
}

// importSubmissions turns submission JSON files into [[solvers]] entries.
func importSubmissions(opts ImportOptions, files []string, io streams) error {
	if len(files) == 0 {
		return fmt.Errorf("import submission: no file given")
	}
	var out strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		s, seed, err := config.ParseSubmission(f, data, opts.Dir)
		if err != nil {
			return err
		}
		entry, err := config.SolverTOML(s, seed)
		if err != nil {
			return err
		}
		out.WriteString("\n" + entry)
	}
	if opts.Into == "" {
		_, err := io.out.Write([]byte(strings.TrimPrefix(out.String(), "\n")))
		return err
	}
	old, err := os.ReadFile(opts.Into)
	if err != nil {
		return err
	}
	tmp := opts.Into + ".tmp"
	if err := os.WriteFile(tmp, append(old, out.String()...), 0o644); err != nil {
		return err
	}
	if _, err := config.Load(tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s would not be a valid definition: %w", opts.Into, err)
	}
	if err := os.Rename(tmp, opts.Into); err != nil {
		return err
	}
	fmt.Fprintf(io.out, "added %d solvers to %s\n", len(files), opts.Into)
	return nil
}

// importFormat splits `import [FORMAT] FILE...` arguments.
func importFormat(args []string) (string, []string) {
	if len(args) > 0 {
		for _, f := range official.Formats {
			if args[0] == f {
				return f, args[1:]
			}
		}
	}
	return "", args // by each file's name: official.Import
}
