package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/validate"
)

// applyCoreVerdicts fills in the unsat-core columns of the rows of results
// that `compete` wrote: the core's facts from the result, its verdict from
// the store's cores (every validator's answer and time, decided by the
// competition's rule), read as the rules read a core or, with --compat
// official, as the official post-processor did. Rows of imported results
// keep their published columns.
func applyCoreVerdicts(ctx context.Context, st store.Store, results []store.Result, rows []score.Row, compat score.Compat, io streams) error {
	rd := validate.ReadRules
	if compat == score.Official {
		rd = validate.ReadOfficial
	}
	verdicts := map[string]map[string]string{} // competition -> core hash -> verdict
	pending := 0
	for i, r := range results {
		f, ok := compete.ReadCoreFacts(r.Extra)
		if !ok {
			continue
		}
		validated := true
		if f.Validated() {
			vs, ok := verdicts[r.Competition]
			if !ok {
				cores, err := st.Cores(ctx, compete.ValidationKey(r.Competition))
				if err != nil {
					return err
				}
				vs = map[string]string{}
				for _, c := range cores {
					vs[c.Hash] = c.Verdict
				}
				verdicts[r.Competition] = vs
			}
			v, ok := vs[f.Hash]
			if !ok { // validated without sharing: one core per pair
				v = vs[f.Hash+"-"+strings.TrimPrefix(r.SourceKey, "pair:")]
			}
			switch v {
			case "validated":
			case "refuted":
				validated = false
			default:
				// Not validated yet: no reduction until it is.
				pending++
				rows[i].Reduction, rows[i].CoreSize, rows[i].Asserts = 0, int32(f.Asserts), int32(f.Asserts)
				continue
			}
		}
		sc := f.Score(validated, rd)
		row := &rows[i]
		row.Reduction, row.CoreSize, row.CoreErroneous, row.CoreIllFormed = int32(sc.Reduction), int32(sc.CoreSize), sc.Erroneous, sc.IllFormed
		row.Asserts = int32(f.Asserts)
	}
	if pending > 0 {
		fmt.Fprintf(io.err, "smtarena: %d unsat cores are not validated yet (run compete to finish); they score no reduction\n", pending)
	}
	return nil
}
