package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/spf13/cobra"
)

// MetaOptions are the flags of `smtarena meta`.
type MetaOptions struct {
	JSON bool
}

func newMetaCmd(io streams) *cobra.Command {
	var opts MetaOptions
	cmd := &cobra.Command{
		Use:   "meta FILE...",
		Short: "Print the metadata of benchmarks (logic, status, counts) without parsing terms",
		Long: `Print what indexing reads from a benchmark, using the fast metadata scan:
logic, status, category, source, SMT-LIB version, numbers of assert, check-sat,
push and pop commands, declared symbols, and the per-check-sat statuses of
incremental scripts. Plain output is one key=value line per field, files
separated by a blank line; --json prints one JSON object per file.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMeta(cmd.Context(), opts, args, io)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object per file")
	return cmd
}

// metaRecord is the printed form of smtlib.Meta.
type metaRecord struct {
	File             string   `json:"file"`
	Logic            string   `json:"logic"`
	Status           string   `json:"status"`
	Category         string   `json:"category,omitempty"`
	Source           string   `json:"source,omitempty"`
	SMTLIBVersion    string   `json:"smt_lib_version,omitempty"`
	Asserts          int      `json:"asserts"`
	CheckSats        int      `json:"check_sats"`
	Pushes           int      `json:"pushes"`
	Pops             int      `json:"pops"`
	Named            bool     `json:"named"`
	Declared         int      `json:"declared"`
	CheckSatStatuses []string `json:"check_sat_statuses,omitempty"`
}

func runMeta(_ context.Context, opts MetaOptions, paths []string, io streams) error {
	failed := 0
	enc := json.NewEncoder(io.out)
	for i, p := range paths {
		m, err := smtlib.ScanMetaFile(p)
		if err != nil {
			fmt.Fprintln(io.err, err)
			failed++
			if m == nil {
				continue
			}
		}
		r := metaRecord{File: p, Logic: m.Logic, Status: m.Status, Category: m.Category,
			Source: m.Source, SMTLIBVersion: m.SMTLIBVersion, Asserts: m.Asserts,
			CheckSats: m.CheckSats, Pushes: m.Pushes, Pops: m.Pops, Named: m.Named,
			Declared: len(m.Declared), CheckSatStatuses: m.CheckSatStatuses}
		if opts.JSON {
			if err := enc.Encode(r); err != nil {
				return err
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(io.out)
		}
		printMeta(io.out, r)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files could not be read completely", failed, len(paths))
	}
	return nil
}

func printMeta(w io.Writer, r metaRecord) {
	fmt.Fprintf(w, "file=%s\nlogic=%s\nstatus=%s\n", r.File, r.Logic, r.Status)
	if r.Category != "" {
		fmt.Fprintf(w, "category=%s\n", r.Category)
	}
	if r.SMTLIBVersion != "" {
		fmt.Fprintf(w, "smt_lib_version=%s\n", r.SMTLIBVersion)
	}
	fmt.Fprintf(w, "asserts=%d\ncheck_sats=%d\npushes=%d\npops=%d\nnamed=%v\ndeclared=%d\n",
		r.Asserts, r.CheckSats, r.Pushes, r.Pops, r.Named, r.Declared)
	annotated := false
	shown := make([]string, len(r.CheckSatStatuses))
	for i, s := range r.CheckSatStatuses {
		shown[i] = s
		if s == "" {
			shown[i] = "-" // this check-sat has no :status of its own
		} else {
			annotated = true
		}
	}
	if annotated {
		fmt.Fprintf(w, "check_sat_statuses=%s\n", strings.Join(shown, " "))
	}
}
