package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/store"
)

// proofVerdicts are the proof track's table columns for the checker's
// verdicts, then for pairs that ended without one.
var proofVerdicts = []string{"valid", "holey", "invalid", "sat", "unknown", "timeout", "memout", "abort", "error", "unsupported"}

// printProofTables prints the proof track's table per division: per
// solver, the checker's verdicts, erroneous results (sat, invalid), the
// proofs' size, time, a column per key=value statistic the checkers gave
// (summed), and the soundness probe. There is no score.
func printProofTables(ctx context.Context, def *config.Competition, st store.Store, w io.Writer) error {
	rows, keys, err := compete.ProofTables(ctx, def, st)
	if err != nil {
		return err
	}
	probe := def.Tracks["proof"].Probe > 0
	head := []string{"solver", "pairs"}
	head = append(head, proofVerdicts...)
	head = append(head, "erroneous", "proof MB", "CPU s", "wall s")
	head = append(head, keys...)
	if probe {
		head = append(head, "probe", "checker")
	}
	header := strings.Join(head, "\t") + "\t"
	tables := divisionTables{w: w, flags: tabwriter.AlignRight}
	for _, s := range rows {
		tw := tables.row(s.Division, "proof track (exhibition, no score), division "+s.Division, header)
		cells := []string{s.Solver, fmt.Sprint(s.Pairs)}
		for _, v := range proofVerdicts {
			cells = append(cells, fmt.Sprint(s.Verdicts[v]))
		}
		cells = append(cells, fmt.Sprint(s.Erroneous), fmt.Sprintf("%.3f", float64(s.ProofBytes)/(1<<20)), fmt.Sprintf("%.2f", s.CPU), fmt.Sprintf("%.2f", s.Wall))
		for _, k := range keys {
			v, ok := s.Stats[k]
			if !ok {
				v = "-"
			}
			cells = append(cells, v)
		}
		if probe {
			verdict := "not flagged"
			if s.ProbeValid > 0 {
				verdict = "UNSOUND"
			}
			cells = append(cells, fmt.Sprintf("%d/%d valid", s.ProbeValid, s.ProbePairs), verdict)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	return tables.flush()
}
