package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/store"
)

// printCoreSummaries prints the unsat-core track's table per division:
// cores by verdict and the reduction they score (the rules' reading).
func printCoreSummaries(ctx context.Context, def *config.Competition, st store.Store, w io.Writer) error {
	sums, err := compete.CoreSummaries(ctx, def, st)
	if err != nil {
		return err
	}
	last := ""
	var tw *tabwriter.Writer
	for _, s := range sums {
		if s.Division != last {
			if tw != nil {
				tw.Flush()
			}
			fmt.Fprintf(w, "\nunsat-core track, division %s: cores and their validation\n", s.Division)
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "solver\tpairs\tunsat\tvalidated\trefuted\tpending\tno core\till-formed\treported\tsat\treduction\tvalidation runs\tvalidation s\t")
			last = s.Division
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.2f\t\n", s.Solver, s.Pairs, s.Unsat, s.Validated, s.Refuted,
			s.Pending, s.NoCore, s.IllFormed, s.Reported, s.Sat, s.Reduction, s.ValidationRuns, s.ValidationWall)
	}
	if tw != nil {
		return tw.Flush()
	}
	return nil
}
