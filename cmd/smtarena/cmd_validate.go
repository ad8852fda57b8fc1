package main

import (
	"context"
	"encoding/json"
	"fmt"
	goio "io"
	"os"
	"runtime/debug"
	"time"

	"github.com/smtarena/smtarena/internal/model"
	"github.com/spf13/cobra"
)

// ValidateModelOptions are the flags of `smtarena validate-model`.
type ValidateModelOptions struct {
	JSON       bool
	Explain    bool
	FullModel  bool
	NeededOnly bool
	Timeout    time.Duration
	MemoryMB   int
}

func newValidateModelCmd(io streams) *cobra.Command {
	opts := ValidateModelOptions{}
	cmd := &cobra.Command{
		Use:   "validate-model [flags] BENCHMARK RESPONSE|-",
		Short: "Judge a solver's model against a benchmark (the model-validation track's validator)",
		Long: `Judge what a solver printed on a satisfiable benchmark (its answer to
check-sat, then its answer to get-model) the way the model-validation track
does (2022 rules §5.5): VALID for sat and a full model that satisfies every
assertion, INVALID for unsat or a model that falsifies an assertion, UNKNOWN
with a reason for anything else.

The first line of standard output is the verdict and its reason, e.g.
"VALID", "INVALID bad-model", "UNKNOWN partial-function"; an explanation
follows. RESPONSE "-" reads the solver's output from standard input.

Values are computed exactly (integers and rationals of any size, bit-vectors
of any width, arrays, uninterpreted functions and sorts with the abstract
values of z3, cvc4 and cvc5, datatypes, floating point). Reasons: unsat, bad-model,
no-output, unknown-answer, parse-error, missing-definition,
extra-definition, sort-error, cyclic-definition, partial-function,
unsupported, truncated, resource (docs/model-validation.md).

The exit status is 0 whenever a verdict was reached, 2 for bad usage or an
unreadable or malformed benchmark.`,
		Example: `  smtarena validate-model bench.smt2 z3-output.txt
  z3 bench-with-get-model.smt2 | smtarena validate-model --explain bench.smt2 -
  smtarena validate-model --json --needed-only bench.smt2 out.txt`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runValidateModel(cmd.Context(), opts, args, io)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object (verdict, reason, detail, position, time)")
	cmd.Flags().BoolVar(&opts.Explain, "explain", false, "print the values of the false assertion's subterms down to where it turns false")
	cmd.Flags().BoolVar(&opts.FullModel, "full-model", false, "require all and only the declared symbols (2022 §5.5; the default)")
	cmd.Flags().BoolVar(&opts.NeededOnly, "needed-only", false, "accept a model without symbols no assertion needs (dolmen's reading since 2023)")
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", 0, "the validator's own time limit (0: none); reaching it gives UNKNOWN resource")
	cmd.Flags().IntVar(&opts.MemoryMB, "memory", 0, "the validator's own heap limit in MB (0: none); reaching it gives UNKNOWN resource")
	return cmd
}

func runValidateModel(ctx context.Context, opts ValidateModelOptions, args []string, io streams) error {
	if opts.FullModel && opts.NeededOnly {
		return fmt.Errorf("--full-model and --needed-only exclude each other")
	}
	bench, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer bench.Close()
	var resp goio.Reader = io.in
	respName := "<stdin>"
	if args[1] != "-" {
		f, err := os.Open(args[1])
		if err != nil {
			return err
		}
		defer f.Close()
		resp, respName = f, args[1]
	}
	collectLateForSmallInputs(opts.MemoryMB, bench, resp)
	res, err := model.Validate(ctx, args[0], bench, respName, resp, model.Options{
		NeededOnly: opts.NeededOnly,
		Explain:    opts.Explain,
		Timeout:    opts.Timeout,
		MaxMemory:  uint64(opts.MemoryMB) << 20,
	})
	if err != nil {
		return err
	}
	if opts.JSON {
		enc := json.NewEncoder(io.out)
		return enc.Encode(res)
	}
	fmt.Fprintln(io.out, res.String())
	if res.Detail != "" {
		fmt.Fprintln(io.out, res.Detail)
	}
	if res.Position != "" && res.Reason != model.ReasonBadModel {
		fmt.Fprintln(io.out, "at", res.Position)
	}
	if res.Assertion != "" {
		fmt.Fprintln(io.out, "assertion:", res.Assertion)
	}
	for _, l := range res.Explain {
		fmt.Fprintln(io.out, "  "+l)
	}
	for _, n := range res.Notes {
		fmt.Fprintln(io.out, "note:", n)
	}
	fmt.Fprintf(io.out, "%d assertions evaluated in %.3f s\n", res.Assertions, res.Seconds)
	return nil
}

// smallInputs is the combined size of benchmark and response up to which a
// validation collects garbage late.
const smallInputs = 1 << 20

// collectLateForSmallInputs: a validation of small files is a process of a
// few milliseconds, in which a garbage collection (and starting its
// workers) costs more than keeping the garbage. Up to smallInputs the heap
// may grow to five times its live data (16 MB before the first
// collection) instead of twice. With --memory, the collector also runs
// when the heap reaches half that limit, so that the limit judges live
// data and not garbage. Larger or unsized inputs keep the default pacing.
func collectLateForSmallInputs(memoryMB int, inputs ...goio.Reader) {
	if memoryMB > 0 {
		debug.SetMemoryLimit(int64(memoryMB) << 19)
	}
	total := int64(0)
	for _, r := range inputs {
		f, ok := r.(*os.File)
		if !ok {
			return
		}
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return
		}
		total += fi.Size()
	}
	if total <= smallInputs {
		debug.SetGCPercent(400)
	}
}
