package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/smtarena/smtarena/internal/library"
	"github.com/spf13/cobra"
)

// GenerateOptions are the flags of `smtarena generate`.
type GenerateOptions struct {
	Seed   uint64
	Bytes  int64
	Vars   int
	Output string
}

func newGenerateCmd(io streams) *cobra.Command {
	var opts GenerateOptions
	cmd := &cobra.Command{
		Use:   "generate qf_lia",
		Short: "Write a synthetic benchmark (for demos, tests and throughput figures)",
		Long: `Write a synthetic SMT-LIB 2.6 benchmark, deterministic for a seed. The one
family so far is qf_lia: linear integer constraints of about --bytes bytes.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"qf_lia"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGenerate(cmd.Context(), opts, args[0], io)
		},
	}
	cmd.Flags().Uint64Var(&opts.Seed, "seed", 1, "random seed")
	cmd.Flags().Int64Var(&opts.Bytes, "bytes", 1<<20, "approximate size in bytes")
	cmd.Flags().IntVar(&opts.Vars, "vars", 2000, "number of integer constants")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "-", "output file")
	return cmd
}

func runGenerate(_ context.Context, opts GenerateOptions, family string, io streams) error {
	if family != "qf_lia" {
		return fmt.Errorf("unknown family %q (known: qf_lia)", family)
	}
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
	err := library.GenerateQFLIA(bw, library.QFLIAOptions{Seed: opts.Seed, Bytes: opts.Bytes, Vars: opts.Vars})
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
