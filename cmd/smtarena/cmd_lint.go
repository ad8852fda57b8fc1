package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/lint"
	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/spf13/cobra"
)

// LintOptions are the flags of `smtarena lint`.
type LintOptions struct {
	Track     string // a track name, or "auto"
	Rules     int
	Scrambled bool
	Summary   bool
	Quiet     bool
}

func newLintCmd(io streams) *cobra.Command {
	opts := LintOptions{Track: string(benchmark.SingleQuery), Rules: 2022}
	cmd := &cobra.Command{
		Use:   "lint [flags] FILE|DIR...",
		Short: "Check that benchmarks may be used in a track, by the rules of a year",
		Long: `Check SMT-LIB benchmarks against the input rules of a track (2022 §5.1, 2018
§5.1, 2014 §4.1): which commands, where and how often, and that the formulas
are well sorted and belong to the declared logic (quantifier-free, free
symbols, array sorts, linear or difference-logic arithmetic).

Each problem is printed as file:line:col: message; rules lint cannot check
for a file are printed as "not checked" notes. The exit status is 1 if any
file has an error. A directory stands for every .smt2 file below it.

--track auto lints scripts with push, pop or several check-sat commands as
incremental and the others as single-query. Without --scrambled a file is
checked as a library benchmark, before the scrambler removes set-info and
adds the track's set-option and get-* commands; with it, as the solver
receives it.`,
		Example: `  smtarena lint --track unsat-core bench.smt2
  smtarena lint --track auto --rules 2018 --summary ../shared/benchmarks`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLint(cmd.Context(), opts, args, io)
		},
	}
	cmd.Flags().StringVar(&opts.Track, "track", opts.Track, "track: auto, "+benchmark.TrackNames())
	cmd.Flags().IntVar(&opts.Rules, "rules", opts.Rules, "rules year: 2014, 2018 or 2022")
	cmd.Flags().BoolVar(&opts.Scrambled, "scrambled", false, "check files as the solver receives them, after scrambling")
	cmd.Flags().BoolVar(&opts.Summary, "summary", false, "print counts of files and findings by kind at the end")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "print no findings, only the summary if asked")
	return cmd
}

func runLint(ctx context.Context, opts LintOptions, args []string, io streams) error {
	auto := opts.Track == "auto"
	var track benchmark.Track
	if !auto {
		var err error
		if track, err = benchmark.ParseTrack(opts.Track); err != nil {
			return err
		}
	}
	base := lint.Options{Track: track, Rules: opts.Rules, Scrambled: opts.Scrambled}
	if auto {
		base.Track = benchmark.SingleQuery
	}
	if err := base.Validate(); err != nil {
		return err
	}
	files, err := expandFiles(args)
	if err != nil {
		return err
	}
	var (
		bad, readErrs int
		errKinds      = map[string]int{}
		noteKinds     = map[string]int{}
	)
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(io.err, "smtarena: %v\n", err)
			readErrs++
			continue
		}
		o := base
		if auto {
			o.Track = autoTrack(f, src)
		}
		res := lint.Source(f, src, o)
		for _, fd := range res.Findings {
			if !opts.Quiet {
				fmt.Fprintln(io.out, fd)
			}
			if fd.Severity == lint.Error {
				errKinds[fd.Kind]++
			} else {
				noteKinds[fd.Kind]++
			}
		}
		if res.Errors() > 0 {
			bad++
		}
	}
	if opts.Summary {
		fmt.Fprintf(io.out, "%d files, %d with errors\n", len(files)-readErrs, bad)
		fmt.Fprintf(io.out, "errors by kind: %s\n", kindCounts(errKinds))
		fmt.Fprintf(io.out, "not checked by kind: %s\n", kindCounts(noteKinds))
	}
	switch {
	case readErrs > 0:
		return fmt.Errorf("%d files could not be read", readErrs)
	case bad > 0:
		return judgedError{fmt.Sprintf("%d files with errors", bad)}
	}
	return nil
}

// autoTrack picks incremental for scripts with push, pop or several
// check-sat commands.
func autoTrack(name string, src []byte) benchmark.Track {
	m, err := smtlib.ScanMeta(name, src)
	if err == nil && (m.CheckSats > 1 || m.Pushes > 0 || m.Pops > 0) {
		return benchmark.Incremental
	}
	return benchmark.SingleQuery
}

func kindCounts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// expandFiles replaces directories by the .smt2 files below them, sorted.
func expandFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".smt2") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, errors.New(a + ": no .smt2 files")
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}
