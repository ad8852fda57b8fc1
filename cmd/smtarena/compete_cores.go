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
	tables := divisionTables{w: w, flags: tabwriter.AlignRight}
	for _, s := range sums {
		tw := tables.row(s.Division, "unsat-core track, division "+s.Division+": cores and their validation",
			"solver\tpairs\tunsat\tvalidated\trefuted\tpending\tno core\till-formed\treported\tsat\treduction\tvalidation runs\tvalidation s\t")
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.2f\t\n", s.Solver, s.Pairs, s.Unsat, s.Validated, s.Refuted,
			s.Pending, s.NoCore, s.IllFormed, s.Reported, s.Sat, s.Reduction, s.ValidationRuns, s.ValidationWall)
	}
	return tables.flush()
}
