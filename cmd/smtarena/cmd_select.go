package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/crand"
	"github.com/smtarena/smtarena/internal/selection"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/spf13/cobra"
)

// SelectOptions are the flags of `smtarena select`.
type SelectOptions struct {
	DB         string
	Rules      int
	Track      string
	Seed       uint32
	Name       string
	Heats      int
	Logics     []string
	PriorYears []int
	N          int
	List       bool
}

func newSelectCmd(io streams) *cobra.Command {
	opts := SelectOptions{Rules: 2022, Track: string(benchmark.SingleQuery)}
	cmd := &cobra.Command{
		Use:   "select --rules 2006|2014|2018|2022 --track T --seed N [flags]",
		Short: "Select benchmarks from the index exactly as a year's rules write it",
		Long: `Select benchmarks from the indexed library by the selection rules of a year
(docs/selection.md gives each algorithm and its draw order, so a selection can
be reproduced from the same inputs and seed). Earlier years' results in the
store (smtarena import) retire easy benchmarks and give 2014's difficulty.
The selection is saved in the store under --name and printed as a per-logic
summary (--list prints every selected benchmark); --heats N divides it into N
heats at random.`,
		Example: `  smtarena select --rules 2022 --track single-query --seed 1524689 --list
  smtarena select --rules 2014 --track single-query --seed 7 --n 200 --heats 4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSelect(cmd.Context(), opts, io)
		},
	}
	dbFlag(cmd, &opts.DB)
	f := cmd.Flags()
	f.IntVar(&opts.Rules, "rules", opts.Rules, "rules year: 2006, 2014, 2018 or 2022")
	f.StringVar(&opts.Track, "track", opts.Track, "track: "+benchmark.TrackNames())
	f.Uint32Var(&opts.Seed, "seed", 0, "the competition seed (see smtarena seed)")
	f.StringVar(&opts.Name, "name", "", "name to save the selection under (default rules-track-seed)")
	f.IntVar(&opts.Heats, "heats", 0, "divide the selection into this many heats")
	f.StringArrayVar(&opts.Logics, "logic", nil, "only these logics (repeat)")
	f.IntSliceVar(&opts.PriorYears, "prior-years", nil, "years whose results retire easy benchmarks (default: the rules')")
	f.IntVar(&opts.N, "n", 0, "2014: benchmarks per division (default: all that retirement leaves)")
	f.BoolVar(&opts.List, "list", false, "print every selected benchmark")
	return cmd
}

func runSelect(ctx context.Context, opts SelectOptions, io streams) error {
	tr, err := benchmark.ParseTrack(opts.Track)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	inc := tr == benchmark.Incremental
	bs, err := st.Benchmarks(ctx, store.Filter{Incremental: &inc})
	if err != nil {
		return err
	}
	if len(bs) == 0 {
		return fmt.Errorf("no %s benchmarks indexed in %s (run smtarena index first)", map[bool]string{true: "incremental", false: "non-incremental"}[inc], opts.DB)
	}
	cands, err := compete.Candidates(ctx, st, bs, opts.Rules)
	if err != nil {
		return err
	}
	sel, err := selection.Select(cands, selection.Options{Rules: opts.Rules, Track: tr, Seed: opts.Seed, Logics: opts.Logics,
		PriorYears: opts.PriorYears, N: opts.N})
	if err != nil {
		return err
	}
	heat := map[int64]int{}
	var heatSizes []string
	if opts.Heats > 1 {
		for h, hs := range selection.Heats(sel, opts.Heats, crand.New(opts.Seed)) {
			for _, s := range hs {
				heat[s.ID] = h
			}
			heatSizes = append(heatSizes, strconv.Itoa(len(hs)))
		}
	}
	name := opts.Name
	if name == "" {
		name = fmt.Sprintf("%d-%s-%d", opts.Rules, tr, opts.Seed)
	}
	saved := store.Selection{Name: name, Rules: opts.Rules, Track: string(tr), Seed: opts.Seed}
	for _, s := range sel.Benchmarks {
		saved.Items = append(saved.Items, store.SelectionItem{BenchmarkID: s.ID, KeepCheckSats: s.KeepCheckSats, Heat: heat[s.ID]})
	}
	if _, err := st.SaveSelection(ctx, saved); err != nil {
		return err
	}
	if opts.List {
		for _, s := range sel.Benchmarks {
			extra := ""
			if s.Incremental {
				extra = fmt.Sprintf("\tkeep %d of %d check-sats", s.KeepCheckSats, s.CheckSats)
			}
			if opts.Heats > 1 {
				extra += fmt.Sprintf("\theat %d", heat[s.ID]+1)
			}
			fmt.Fprintf(io.out, "%s\t%s%s\n", s.Path, s.Reason, extra)
		}
		fmt.Fprintln(io.out)
	}
	tw := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "logic\tcandidates\teligible\tselected\tsat\tunsat\tunknown\tdropped\t")
	total := 0
	for _, l := range sel.Summary {
		var dropped []string
		for _, r := range slices.Sorted(maps.Keys(l.Dropped)) {
			dropped = append(dropped, fmt.Sprintf("%s %d", r, l.Dropped[r]))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n", l.Logic, l.Candidates, l.Eligible, l.Selected, l.Sat, l.Unsat, l.Unknown, strings.Join(dropped, ", "))
		total += l.Selected
	}
	tw.Flush()
	inHeats := ""
	if len(heatSizes) > 0 {
		inHeats = fmt.Sprintf(" in %d heats (%s)", len(heatSizes), strings.Join(heatSizes, ", "))
	}
	fmt.Fprintf(io.out, "%d benchmarks selected%s, saved as %q\n", total, inHeats, name)
	return nil
}
