package main

import (
	"context"
	"fmt"
	"os"

	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/spf13/cobra"
)

// ConvertOptions are the flags of `smtarena convert`.
type ConvertOptions struct {
	Output string // file to write; standard output when empty
}

func newConvertCmd(io streams) *cobra.Command {
	var opts ConvertOptions
	cmd := &cobra.Command{
		Use:   "convert FILE.smt|-",
		Short: "Translate an SMT-LIB 1.2 benchmark to an SMT-LIB 2.6 script",
		Long: `Translate an SMT-LIB 1.2 benchmark, the format of SMT-COMP 2005-2007, to an
SMT-LIB 2.6 script: set-info and set-logic from the benchmark's attributes,
declarations from :extrasorts, :extrafuns and :extrapreds, one assert per
:assumption and :formula, then check-sat. On an error it prints it as
file:line:col: message and exits with status 2.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConvert(cmd.Context(), opts, args[0], io)
		},
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write the script to `FILE` instead of standard output")
	return cmd
}

func runConvert(_ context.Context, opts ConvertOptions, path string, io streams) error {
	src, name, err := readInput(path, io)
	if err != nil {
		return err
	}
	out, err := smtlib.ConvertV1(name, src)
	if err != nil {
		return fmt.Errorf("cannot convert:\n%w", err)
	}
	if opts.Output == "" {
		_, err = io.out.Write(out)
		return err
	}
	return os.WriteFile(opts.Output, out, 0o644)
}
