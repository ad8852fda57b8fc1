package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/proof"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/spf13/cobra"
)

// modelValidatorCommand is how compete runs the model validator in the
// sandbox: this binary's validate-model. When this binary is the test
// binary of this package, SMTARENA_TEST_MAIN makes it run as smtarena
// (TestMain), instead of running the tests again.
func modelValidatorCommand() (args, env []string) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil // judged in process
	}
	if strings.HasSuffix(exe, ".test") || os.Getenv("SMTARENA_TEST_MAIN") != "" {
		env = []string{"SMTARENA_TEST_MAIN=1"}
	}
	return []string{exe, "validate-model", "--json"}, env
}

// printModelSummaries prints the model-validation track's verdicts per
// division and solver.
func printModelSummaries(ctx context.Context, def *config.Competition, st store.Store, w io.Writer) error {
	sums, err := compete.ModelSummaries(ctx, def, st)
	if err != nil || len(sums) == 0 {
		return err
	}
	tables := divisionTables{w: w}
	for _, s := range sums {
		tw := tables.row(s.Division, "model-validation verdicts, division "+s.Division, "solver\tpairs\tverdicts")
		var parts []string
		for _, v := range slices.Sorted(maps.Keys(s.Verdicts)) {
			parts = append(parts, fmt.Sprintf("%s: %d", v, s.Verdicts[v]))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\n", s.Solver, s.Pairs, strings.Join(parts, ", "))
	}
	return tables.flush()
}

// ShowModelOptions are the flags of `smtarena show-model`.
type ShowModelOptions struct {
	DB string
}

func newShowModelCmd(io streams) *cobra.Command {
	var opts ShowModelOptions
	cmd := &cobra.Command{
		Use:   "show-model [--db DSN] competition.toml PAIR",
		Short: "Show a model-validation pair's verdict and the solver's output again",
		Long: `Show what the model validator said about one pair of the model-validation
track (verdict, reason, detail, position, validation time) and the solver's
whole output as compete kept it in the work directory. PAIR is the pair's id
(as "pair:ID" in the store, or the number alone).`,
		Example: `  smtarena show-model competition.toml 12`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runShowModel(cmd.Context(), opts, args, io)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", os.Getenv("SMTARENA_DB"), "store (default: smtarena.db in the work directory)")
	return cmd
}

func runShowModel(ctx context.Context, opts ShowModelOptions, args []string, io streams) error {
	id := strings.TrimPrefix(args[1], "pair:")
	if _, err := strconv.ParseInt(id, 10, 64); err != nil {
		return fmt.Errorf("pair %q: not a pair id", args[1])
	}
	def, st, err := openCompetitionToRead(ctx, args[0], opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	rs, err := st.Results(ctx, store.ResultFilter{Track: string(benchmark.ModelValidation)})
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r.SourceKey != "pair:"+id || r.Competition != def.Name {
			continue
		}
		var extra struct {
			Status   string  `json:"model_validator_status"`
			Reason   string  `json:"model_reason"`
			Detail   string  `json:"model_detail"`
			Position string  `json:"model_position"`
			Seconds  float64 `json:"model_seconds"`
			Output   string  `json:"model_output"` // stores written before output_file
			Kept     string  `json:"output_file"`  // relative to the work directory
		}
		if err := json.Unmarshal([]byte(r.Extra), &extra); err != nil {
			return fmt.Errorf("pair %s: %w", id, err)
		}
		fmt.Fprintf(io.out, "pair %s: %s on %s\n", id, r.Solver, r.BenchmarkPath)
		fmt.Fprintf(io.out, "answer %s, status %s\n", r.Answer, r.Status)
		fmt.Fprintf(io.out, "verdict %s (%.3f s)\n", strings.TrimSpace(extra.Status+" "+extra.Reason), extra.Seconds)
		if extra.Detail != "" {
			fmt.Fprintln(io.out, extra.Detail)
		}
		if extra.Position != "" {
			fmt.Fprintln(io.out, "at", extra.Position)
		}
		path := extra.Output
		if extra.Kept != "" {
			path = filepath.Join(def.Path(def.WorkDir), filepath.FromSlash(extra.Kept))
		}
		if path != "" {
			fmt.Fprintf(io.out, "--- output (%s) ---\n", path)
			if err := copyKept(io.out, path); err != nil {
				return fmt.Errorf("the output of pair %s: %w", id, err)
			}
		}
		return nil
	}
	return fmt.Errorf("no model-validation result for pair %s in %s (the track's pairs are the files of %s)", id, def.Name,
		filepath.Join(def.Path(def.WorkDir), "outputs", string(benchmark.ModelValidation)))
}

// copyKept copies a kept output to w, decompressing a .gz.
func copyKept(w io.Writer, path string) error {
	f, err := proof.Open(proof.Kept{Path: path, Compressed: strings.HasSuffix(path, ".gz")})
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
