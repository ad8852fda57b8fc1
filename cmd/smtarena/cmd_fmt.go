package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/spf13/cobra"
)

// FmtOptions are the flags of `smtarena fmt`.
type FmtOptions struct {
	AllErrors bool
}

func newFmtCmd(io streams) *cobra.Command {
	var opts FmtOptions
	cmd := &cobra.Command{
		Use:   "fmt FILE|-",
		Short: "Print an SMT-LIB 2.6 script in canonical form",
		Long: `Print an SMT-LIB 2.6 script in canonical form: one command per line, single
spaces, symbols quoted only where they must be. On a syntax error it prints
the errors as file:line:col: message and exits with status 2.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFmt(cmd.Context(), opts, args[0], io)
		},
	}
	cmd.Flags().BoolVar(&opts.AllErrors, "all-errors", false, "report every error, not just the first ten")
	return cmd
}

func runFmt(_ context.Context, opts FmtOptions, path string, io streams) error {
	src, name, err := readInput(path, io)
	if err != nil {
		return err
	}
	mode := smtlib.Mode(0)
	if opts.AllErrors {
		mode |= smtlib.AllErrors
	}
	s, err := smtlib.Parse(name, src, mode)
	if err != nil {
		var list smtlib.ErrorList
		if !opts.AllErrors && errors.As(err, &list) && len(list) >= 10 {
			// The parser stopped there: say so, and how to see the rest.
			return fmt.Errorf("syntax errors:\n%w\n(stopped after ten errors; --all-errors reports every one)", err)
		}
		return fmt.Errorf("syntax errors:\n%w", err)
	}
	return s.Print(io.out)
}

// readInput reads a file, or standard input for "-".
func readInput(path string, io streams) (src []byte, name string, err error) {
	if path == "-" {
		src, err = readAll(io.in)
		return src, "<stdin>", err
	}
	src, err = os.ReadFile(path)
	return src, path, err
}
