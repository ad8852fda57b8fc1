package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/validate"
	"github.com/spf13/cobra"
)

// ValidateCoreOptions are the flags of `smtarena validate-core`.
type ValidateCoreOptions struct {
	Limit  float64 // seconds of wall-clock time per validator
	Rule   string
	Compat string
	Out    string // where to keep the validation file
	JSON   bool
}

func newValidateCoreCmd(io streams) *cobra.Command {
	opts := ValidateCoreOptions{Limit: validate.DefaultLimit.Seconds(), Rule: string(validate.RuleRefute)}
	cmd := &cobra.Command{
		Use:   "validate-core [flags] BENCHMARK RESPONSE -- VALIDATOR ARGS... [-- VALIDATOR ARGS...]",
		Short: "Check a solver's unsat core as the unsat-core track does",
		Long: `Judge a solver's answer on the unsat-core track and validate its core, as
compete does for every core: BENCHMARK is the file the solver was given (its
top-level assertions named, as 'smtarena scramble --track unsat-core'
writes it), RESPONSE the solver's output (unsat, then its answer to
get-unsat-core). The core is read as a set of names; names given twice and
names that are no assertion's are reported. The validation file keeps the
benchmark's unnamed assertions and the named ones in the core, as the
official scrambler's -core filter writes it; each validator (a command
line after --, {file} standing for the validation file, else appended; give
-- again for the next) runs on it in the sandbox under --limit, and the
decision rule gives the verdict: 2018 (refuted when more validators say sat
than unsat, the rules of 2018-2022) or 2026 (validated only when more say
unsat than sat). --compat official reads duplicate and unknown names as the
official post-processor did (counted in the core's size).

The exit status is 0 when the answer scores without error, 1 when it is
erroneous (sat, or a refuted core) or its core is ill-formed, 2 on bad input.`,
		Example: `  smtarena scramble --track unsat-core --seed 1 bench.smt2 > named.smt2
  mysolver named.smt2 > answer.txt
  smtarena validate-core named.smt2 answer.txt -- z3 -- cvc5 -- cvc4 --lang smt2`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runValidateCore(cmd.Context(), opts, args, cmd.ArgsLenAtDash(), io)
		},
	}
	cmd.Flags().Float64Var(&opts.Limit, "limit", opts.Limit, "wall-clock seconds per validator")
	cmd.Flags().StringVar(&opts.Rule, "rule", opts.Rule, "decision rule: 2018 or 2026")
	cmd.Flags().StringVar(&opts.Compat, "compat", "", "official: read duplicate and unknown names as the official post-processor did")
	cmd.Flags().StringVar(&opts.Out, "out", "", "keep the validation file here")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	return cmd
}

// splitValidators cuts the arguments after the first -- into command
// lines at each further --.
func splitValidators(args []string) ([]validate.Validator, error) {
	var out []validate.Validator
	cur := []string{}
	flush := func() error {
		if len(cur) == 0 {
			return errors.New("an empty validator command between two --")
		}
		name := filepath.Base(cur[0])
		for n, i := name, 2; ; i++ {
			dup := false
			for _, v := range out {
				dup = dup || v.Name == n
			}
			if !dup {
				name = n
				break
			}
			n = fmt.Sprintf("%s#%d", name, i)
		}
		out = append(out, validate.Validator{Name: name, Command: cur})
		cur = []string{}
		return nil
	}
	for _, a := range args {
		if a == "--" {
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		cur = append(cur, a)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

func runValidateCore(ctx context.Context, opts ValidateCoreOptions, args []string, dash int, io streams) error {
	if dash != 2 || len(args) < 3 {
		return errors.New("usage: smtarena validate-core BENCHMARK RESPONSE -- VALIDATOR ARGS... [-- VALIDATOR ARGS...]")
	}
	validators, err := splitValidators(args[dash:])
	if err != nil {
		return err
	}
	rule, err := validate.ParseRule(opts.Rule)
	if err != nil {
		return err
	}
	compat, err := score.ParseCompat(opts.Compat)
	if err != nil {
		return err
	}
	rd := validate.ReadRules
	if compat == score.Official {
		rd = validate.ReadOfficial
	}
	if opts.Limit <= 0 {
		return fmt.Errorf("--limit %g: want a positive number of seconds", opts.Limit)
	}
	input, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	output, err := os.ReadFile(args[1])
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "smtarena-validate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	limits := sandbox.Limits{Wall: time.Duration(opts.Limit * float64(time.Second)), OutputBytes: 1 << 20}
	rep, err := validate.Check(ctx, input, args[0], output, validators, rule, rd, dir, limits)
	if err != nil {
		return err
	}
	if opts.Out != "" && rep.File != nil {
		if err := os.WriteFile(opts.Out, rep.File, 0o644); err != nil {
			return err
		}
	}
	if opts.JSON {
		enc := json.NewEncoder(io.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printCoreReport(io, rep, opts.Out)
	}
	if rep.Scored.Erroneous || rep.Scored.IllFormed {
		return judgedError{"the answer is erroneous or its core ill-formed"}
	}
	return nil
}

func printCoreReport(io streams, rep validate.Report, out string) {
	j := rep.Judgement
	w := io.out
	answer := j.Answer
	if answer == "" {
		answer = "none"
	}
	fmt.Fprintf(w, "answer: %s\n", answer)
	fmt.Fprintf(w, "assertions: %d\n", j.Asserts)
	switch j.Core {
	case validate.CoreList:
		fmt.Fprintf(w, "core: %d names given, %d distinct names of assertions\n", j.Given, len(j.Names))
	case validate.CoreMissing:
		fmt.Fprintln(w, "core: none")
	default:
		fmt.Fprintf(w, "core: %s: %s\n", j.Core, j.Message)
	}
	if len(j.Duplicates) > 0 {
		fmt.Fprintf(w, "reported: names given more than once: %s\n", strings.Join(j.Duplicates, " "))
	}
	if len(j.Unknown) > 0 {
		fmt.Fprintf(w, "reported: names that are no assertion's: %s\n", strings.Join(j.Unknown, " "))
	}
	if j.UnknownNoError {
		fmt.Fprintln(w, "reported: unknown was not followed by an error (the rules require one)")
	}
	if rep.File != nil && out != "" {
		fmt.Fprintf(w, "validation file: %s\n", out)
	}
	for _, r := range rep.Runs {
		why := ""
		if r.Error != "" {
			// It could not be started: say why, or the verdict's
			// "other" vote goes unexplained.
			why = ": " + r.Error
		}
		fmt.Fprintf(w, "validator %s: %s (%s, %.2f s%s)\n", r.Validator, r.Answer, r.Status, r.Wall, why)
	}
	if j.Validated() {
		fmt.Fprintf(w, "verdict: %s\n", rep.Verdict)
	}
	s := rep.Scored
	switch {
	case s.Erroneous:
		fmt.Fprintln(w, "score: erroneous (e = 1)")
	case s.IllFormed:
		fmt.Fprintln(w, "score: ill-formed core (no reduction; erroneous under the 2018 rules)")
	default:
		fmt.Fprintf(w, "score: reduction %d (core size %d of %d assertions)\n", s.Reduction, s.CoreSize, j.Asserts)
	}
}
