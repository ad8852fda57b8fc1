package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/smtarena/smtarena/internal/benchgen"
	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/spf13/cobra"
)

// GenerateOptions are the flags of `smtarena generate`, which writes a
// library of benchmarks whose status is known by construction, or with
// --files a corpus for indexing figures.
type GenerateOptions struct {
	Out     string
	Seed    uint64
	Size    string
	Files   int
	TotalMB float64
	Workers int
}

// GenerateQFLIAOptions are the flags of `smtarena generate qf_lia`.
type GenerateQFLIAOptions struct {
	Seed   uint64
	Bytes  int64
	Vars   int
	Output string
}

func newGenerateCmd(io streams) *cobra.Command {
	var opts GenerateOptions
	cmd := &cobra.Command{
		Use:   "generate --out DIR [--seed N] [--size small|medium] [--files N --total-mb MB]",
		Short: "Write generated benchmarks (for demos, tests and throughput figures)",
		Long: `Write a library of SMT-LIB 2.6 benchmarks whose status is known by construction,
deterministic for a seed, in the SMT-LIB layout:
DIR/non-incremental/LOGIC/smtarena-FAMILY/*.smt2 and DIR/incremental/...

Families: pigeonhole (QF_UF, QF_LIA), planted solutions (QF_LIA, QF_LRA, QF_IDL,
QF_RDL, and incremental traces in QF_LIA and QF_LRA), n-queens (QF_LIA, QF_BV),
factoring (QF_BV), single-machine scheduling (QF_IDL, QF_RDL) and an
incremental pigeonhole (QF_UF), each sat and unsat. --size small is answered by
z3 in milliseconds, medium in a fraction of a second to tens of seconds.

With --files and --total-mb it writes a corpus instead: that many planted
benchmarks of about that total size (1 MB = 2^20 bytes), for indexing figures.

The subcommand qf_lia writes one big QF_LIA benchmark of unknown status.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGenerate(cmd.Context(), opts, io)
		},
	}
	cmd.Flags().StringVar(&opts.Out, "out", "", "directory to write the library to (required)")
	cmd.Flags().Uint64Var(&opts.Seed, "seed", 1, "random seed")
	cmd.Flags().StringVar(&opts.Size, "size", "small", "small or medium")
	cmd.Flags().IntVar(&opts.Files, "files", 0, "write a corpus of this many files instead of the library")
	cmd.Flags().Float64Var(&opts.TotalMB, "total-mb", 0, "total size of the corpus, MB")
	cmd.Flags().IntVar(&opts.Workers, "workers", 0, "files written in parallel (default: the number of CPUs)")
	cmd.AddCommand(newGenerateQFLIACmd(io))
	return cmd
}

func newGenerateQFLIACmd(io streams) *cobra.Command {
	var opts GenerateQFLIAOptions
	cmd := &cobra.Command{
		Use:   "qf_lia [--seed N] [--bytes N] [--vars N] [-o FILE]",
		Short: "Write one big synthetic QF_LIA benchmark (status unknown), for parser figures",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGenerateQFLIA(cmd.Context(), opts, io)
		},
	}
	cmd.Flags().Uint64Var(&opts.Seed, "seed", 1, "random seed")
	cmd.Flags().Int64Var(&opts.Bytes, "bytes", 1<<20, "approximate size in bytes")
	cmd.Flags().IntVar(&opts.Vars, "vars", 2000, "number of integer constants")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "-", "output file")
	return cmd
}

func runGenerate(ctx context.Context, opts GenerateOptions, io streams) error {
	if opts.Out == "" {
		return errors.New("generate: --out DIR is required (or use the subcommand qf_lia)")
	}
	if opts.Files > 0 || opts.TotalMB > 0 {
		if opts.Files <= 0 || opts.TotalMB <= 0 {
			return errors.New("generate: a corpus needs both --files and --total-mb")
		}
		start := time.Now()
		st, err := benchgen.WriteCorpus(ctx, opts.Out, benchgen.CorpusOptions{
			Seed: opts.Seed, Files: opts.Files, Bytes: int64(opts.TotalMB * (1 << 20)), Workers: opts.Workers,
		})
		if err != nil {
			return err
		}
		secs := time.Since(start).Seconds()
		fmt.Fprintf(io.out, "wrote %d files, %.1f MB, to %s in %.1f s (%.0f files/s, %.0f MB/s)\n",
			st.Files, float64(st.Bytes)/(1<<20), opts.Out, secs, float64(st.Files)/secs, float64(st.Bytes)/(1<<20)/secs)
		return nil
	}
	size, err := benchgen.ParseSize(opts.Size)
	if err != nil {
		return err
	}
	list, err := benchgen.WriteLibrary(opts.Out, opts.Seed, size)
	if err != nil {
		return err
	}
	queries := map[benchmark.Status]int{}
	incremental := 0
	for _, in := range list {
		if in.Incremental {
			incremental++
		}
		for _, s := range in.Statuses {
			queries[s]++
		}
	}
	fmt.Fprintf(io.out, "wrote %d benchmarks (%d incremental) to %s: %d sat and %d unsat check-sats\n",
		len(list), incremental, opts.Out, queries[benchmark.Sat], queries[benchmark.Unsat])
	return nil
}

func runGenerateQFLIA(_ context.Context, opts GenerateQFLIAOptions, io streams) error {
	w := io.out
	var f *os.File
	if opts.Output != "-" {
		var err error
		if f, err = os.Create(opts.Output); err != nil {
			return err
		}
		w = f
	}
	bw := bufio.NewWriter(w)
	err := benchgen.GenerateQFLIA(bw, benchgen.QFLIAOptions{Seed: opts.Seed, Bytes: opts.Bytes, Vars: opts.Vars})
	if err == nil {
		err = bw.Flush()
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

func readAll(r io.Reader) ([]byte, error) { return io.ReadAll(r) }
