package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/crand"
	"github.com/spf13/cobra"
)

// RandomOptions are the flags of `smtarena random`.
type RandomOptions struct {
	Seed  uint32
	Count int
}

func newRandomCmd(io streams) *cobra.Command {
	opts := RandomOptions{Count: 10}
	cmd := &cobra.Command{
		Use:   "random --seed N [--count K]",
		Short: "Print the numbers C's random() gives after srandom(N)",
		Long: `Print, one per line, the first K numbers that glibc's random() returns after
srandom(N): the generator SMT-COMP seeds for selection, heats and scrambling.
The output equals that of a C program calling srandom and random.`,
		Example: `  smtarena random --seed 42 --count 5`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRandom(cmd.Context(), opts, io)
		},
	}
	cmd.Flags().Uint32Var(&opts.Seed, "seed", 1, "the srandom() seed (0 to 4294967295)")
	cmd.Flags().IntVar(&opts.Count, "count", opts.Count, "how many numbers")
	return cmd
}

func runRandom(_ context.Context, opts RandomOptions, io streams) error {
	if opts.Count < 0 {
		return fmt.Errorf("--count %d: must not be negative", opts.Count)
	}
	w := bufio.NewWriter(io.out)
	r := crand.New(opts.Seed)
	for i := 0; i < opts.Count; i++ {
		fmt.Fprintln(w, r.Random())
	}
	return w.Flush()
}

// SeedOptions are the flags of `smtarena seed`.
type SeedOptions struct {
	Rules        int
	Entrants     []string
	EntrantsFile string
	NYSE         string
}

func newSeedCmd(io streams) *cobra.Command {
	var opts SeedOptions
	cmd := &cobra.Command{
		Use:   "seed --rules YEAR --nyse VALUE (--entrant N... | --entrants-file FILE)",
		Short: "Derive the competition seed as the rules say, printing every term",
		Long: `Derive the competition's random seed: the sum, modulo 2^30, of the 32-bit
numbers the entrants submitted (other than the organizers'), plus the integer
part of the NYSE Composite Index opening value (2014, 2018 rules) or of one
hundred times it (2022 rules). Every term of the sum is printed.`,
		Example: `  smtarena seed --rules 2022 --nyse 15123.45 --entrant 12345 --entrant 4294967295`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSeed(cmd.Context(), opts, io)
		},
	}
	cmd.Flags().IntVar(&opts.Rules, "rules", 2022, "rules year: 2014, 2018 or 2022")
	cmd.Flags().StringArrayVar(&opts.Entrants, "entrant", nil, "an entrant's 32-bit number (repeat the flag)")
	cmd.Flags().StringVar(&opts.EntrantsFile, "entrants-file", "", "file with one entrant number per line (# comments)")
	cmd.Flags().StringVar(&opts.NYSE, "nyse", "", "opening value of the NYSE Composite Index, as published (e.g. 15123.45)")
	return cmd
}

func runSeed(_ context.Context, opts SeedOptions, io streams) error {
	if opts.Rules != 2014 && opts.Rules != 2018 && opts.Rules != 2022 {
		return fmt.Errorf("--rules %d: want 2014, 2018 or 2022", opts.Rules)
	}
	if opts.NYSE == "" {
		return fmt.Errorf("--nyse is required")
	}
	raw := append([]string(nil), opts.Entrants...)
	if opts.EntrantsFile != "" {
		b, err := os.ReadFile(opts.EntrantsFile)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if line, _, _ = strings.Cut(line, "#"); strings.TrimSpace(line) != "" {
				raw = append(raw, opts.EntrantsFile+":"+strconv.Itoa(i+1)+":"+strings.TrimSpace(line))
			}
		}
	}
	var nums []uint32
	for _, s := range raw {
		where, val := "", s
		if i := strings.LastIndexByte(s, ':'); i >= 0 {
			where, val = s[:i]+": ", s[i+1:]
		}
		n, err := strconv.ParseUint(val, 10, 32)
		if err != nil {
			return fmt.Errorf("%sentrant number %q: not a 32-bit unsigned integer", where, val)
		}
		nums = append(nums, uint32(n))
	}
	t, err := crand.CompetitionSeed(opts.Rules, nums, opts.NYSE)
	if err != nil {
		return err
	}
	for i, n := range t.Entrants {
		fmt.Fprintf(io.out, "entrant %d: %d\n", i+1, n)
	}
	fmt.Fprintf(io.out, "sum of entrants: %d\nsum mod 2^30: %d\n", t.Sum, t.SumMod)
	what := "integer part of the NYSE opening value"
	if opts.Rules >= 2019 {
		what = "integer part of 100 x the NYSE opening value"
	}
	fmt.Fprintf(io.out, "%s %s: %d\nseed: %d\n", what, t.NYSE, t.NYSETerm, t.Seed)
	return nil
}
