package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/library"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/spf13/cobra"
)

// dbFlag adds the --db flag every store command has.
func dbFlag(cmd *cobra.Command, dsn *string) {
	def := os.Getenv("SMTARENA_DB")
	if def == "" {
		def = store.DefaultDSN
	}
	*dsn = def
	cmd.Flags().StringVar(dsn, "db", def, "store: an SQLite file, or a postgres:// URL (default from SMTARENA_DB)")
}

// IndexOptions are the flags of `smtarena index`.
type IndexOptions struct {
	DB      string
	Workers int
	Quiet   bool
}

func newIndexCmd(io streams) *cobra.Command {
	var opts IndexOptions
	cmd := &cobra.Command{
		Use:   "index [--db DSN] PATH...",
		Short: "Index a benchmark library (directories or .tar.zst/.tar.xz/.tar.gz archives) into the store",
		Long: `Read SMT-LIB benchmarks into the store: logic, family, category, status,
per-check-sat statuses of incremental scripts, difficulty, numbers of
assertions and check-sats, size and SHA-256. PATH is a directory tree in
SMT-LIB's layout (non-incremental|incremental/LOGIC/submitter/.../file.smt2)
or a release archive, read without unpacking. Files unchanged since the last
index (same size and modification time) are skipped, so an interrupted index
resumes. Files that cannot be read or scanned are named and skipped; the exit
status is then 1.`,
		Example: `  smtarena index ../shared/benchmarks
  smtarena index --db postgres://user@host/smtarena QF_LIA.tar.zst`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runIndex(cmd.Context(), opts, args, io)
		},
	}
	dbFlag(cmd, &opts.DB)
	cmd.Flags().IntVar(&opts.Workers, "workers", 0, "files read in parallel (default: the number of CPUs)")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "no progress line")
	return cmd
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func runIndex(ctx context.Context, opts IndexOptions, args []string, io streams) error {
	st, err := store.Open(ctx, opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	tty := isTerminal(io.err) && !opts.Quiet
	line := func(s library.IndexStats) string {
		secs := s.Elapsed.Seconds()
		if secs <= 0 {
			secs = 1e-9
		}
		return fmt.Sprintf("%d files, %d unchanged, %d errors, %.1f MB in %.1fs: %.0f files/s, %.1f MB/s",
			s.Files, s.Skipped, s.Errors, float64(s.Bytes)/1e6, s.Elapsed.Seconds(), float64(s.Files)/secs, float64(s.Bytes)/1e6/secs)
	}
	iopts := library.IndexOptions{Workers: opts.Workers}
	if tty {
		iopts.Progress = func(s library.IndexStats) { fmt.Fprintf(io.err, "\r\033[K%s", line(s)) }
	}
	stats, err := library.Index(ctx, st, args, iopts)
	if tty {
		fmt.Fprintln(io.err)
	}
	fmt.Fprintln(io.out, "indexed:", line(stats))
	var fe *library.FileError
	if err != nil && errors.As(err, &fe) {
		// Some files were bad; everything else is recorded.
		fmt.Fprintln(io.err, err)
		return judgedError{fmt.Sprintf("%d files could not be indexed", stats.Errors)}
	}
	return err
}

// BenchmarksOptions are the flags of `smtarena benchmarks`.
type BenchmarksOptions struct {
	DB     string
	Logic  string
	Track  string
	Format string
}

func newBenchmarksCmd(io streams) *cobra.Command {
	opts := BenchmarksOptions{Format: "table"}
	cmd := &cobra.Command{
		Use:   "benchmarks [--db DSN] [--logic L] [--track T] [--format table|tsv|json]",
		Short: "List the indexed benchmarks, with a per-logic summary",
		Long: `List what is indexed: path, logic, family (as the 2022 rules define it),
category, status, assertions, check-sats, incremental, size; then, for table
output, a summary per logic. --track incremental lists incremental scripts;
any other track lists the non-incremental ones.`,
		Example: `  smtarena benchmarks --logic QF_LIA
  smtarena benchmarks --track incremental --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBenchmarks(cmd.Context(), opts, io)
		},
	}
	dbFlag(cmd, &opts.DB)
	cmd.Flags().StringVar(&opts.Logic, "logic", "", "only this logic")
	cmd.Flags().StringVar(&opts.Track, "track", "", "only benchmarks for this track (incremental or not)")
	cmd.Flags().StringVar(&opts.Format, "format", opts.Format, "table, tsv or json")
	return cmd
}

func runBenchmarks(ctx context.Context, opts BenchmarksOptions, io streams) error {
	if opts.Format != "table" && opts.Format != "tsv" && opts.Format != "json" {
		return fmt.Errorf("--format %q: want table, tsv or json", opts.Format)
	}
	f := store.Filter{Logic: opts.Logic}
	if opts.Track != "" {
		tr, err := benchmark.ParseTrack(opts.Track)
		if err != nil {
			return err
		}
		inc := tr == benchmark.Incremental
		f.Incremental = &inc
	}
	st, err := openStoreToRead(ctx, opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	bs, err := st.Benchmarks(ctx, f)
	if err != nil {
		return err
	}
	switch opts.Format {
	case "json":
		enc := json.NewEncoder(io.out)
		for _, b := range bs {
			if err := enc.Encode(map[string]any{"path": b.Path, "logic": b.Logic, "family": benchmark.Family(b.Path, 2022),
				"category": b.Category, "status": b.Status, "statuses": b.Statuses, "asserts": b.Asserts,
				"check_sats": b.CheckSats, "incremental": b.Incremental, "size": b.Size, "difficulty": b.Difficulty, "sha256": b.Hash}); err != nil {
				return err
			}
		}
		return nil
	case "tsv":
		fmt.Fprintln(io.out, "path\tlogic\tfamily\tcategory\tstatus\tasserts\tcheck_sats\tincremental\tsize")
		for _, b := range bs {
			fmt.Fprintf(io.out, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%v\t%d\n", b.Path, b.Logic, benchmark.Family(b.Path, 2022),
				b.Category, b.Status, b.Asserts, b.CheckSats, b.Incremental, b.Size)
		}
		return nil
	}
	tw := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tLOGIC\tFAMILY\tCATEGORY\tSTATUS\tASSERTS\tCHECK-SATS\tINCR\tSIZE")
	for _, b := range bs {
		status := string(b.Status)
		if b.Incremental {
			status = fmt.Sprintf("%d known", countKnown(b.Statuses))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%v\t%d\n", b.Path, b.Logic, benchmark.Family(b.Path, 2022),
			b.Category, status, b.Asserts, b.CheckSats, b.Incremental, b.Size)
	}
	tw.Flush()
	return printLogicSummary(io, bs)
}

func countKnown(st []benchmark.Status) int {
	n := 0
	for _, s := range st {
		if s != benchmark.Unknown {
			n++
		}
	}
	return n
}

func printLogicSummary(io streams, bs []benchmark.Benchmark) error {
	type sum struct{ sat, unsat, unknown, incr, n int }
	by := map[string]*sum{}
	for _, b := range bs {
		s := by[b.Logic]
		if s == nil {
			s = &sum{}
			by[b.Logic] = s
		}
		s.n++
		switch {
		case b.Incremental:
			s.incr++
		case b.Status == benchmark.Sat:
			s.sat++
		case b.Status == benchmark.Unsat:
			s.unsat++
		default:
			s.unknown++
		}
	}
	logics := make([]string, 0, len(by))
	for l := range by {
		logics = append(logics, l)
	}
	sort.Strings(logics)
	fmt.Fprintln(io.out)
	tw := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "LOGIC\tSAT\tUNSAT\tUNKNOWN\tINCREMENTAL\tTOTAL\t")
	var tot sum
	for _, l := range logics {
		s := by[l]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", l, s.sat, s.unsat, s.unknown, s.incr, s.n)
		tot.sat, tot.unsat, tot.unknown, tot.incr, tot.n = tot.sat+s.sat, tot.unsat+s.unsat, tot.unknown+s.unknown, tot.incr+s.incr, tot.n+s.n
	}
	fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", strings.ToUpper("all"), tot.sat, tot.unsat, tot.unknown, tot.incr, tot.n)
	return tw.Flush()
}
