package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/smtarena/smtarena/internal/scramble"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// ScrambleOptions are the flags of `smtarena scramble`.
type ScrambleOptions struct {
	Seed              uint64
	SeedSet           bool
	Track             string // single-query, incremental, unsat-core, model-validation, proof
	TermAnnot         string // true, pattern, false
	Core              string // a solver's (get-unsat-core) answer: keep only those asserts
	CountAsserts      bool
	Map               string // write the renaming here (.json: JSON, else TSV)
	StatusHeader      bool
	SupportNonSMTCOMP bool
}

const scrambleLong = `Scramble an SMT-LIB script the way the official SMT-COMP scrambler
(github.com/SMT-COMP/scrambler) does, byte for byte: for the same input, seed
and track the output is the official one. It renames declared symbols to
x<N>, shuffles the arguments of commutative operators, mirrors comparisons,
shuffles let bindings and blocks of declarations and assertions, drops
set-info and comments, and adds the track's header commands.

FILE (or standard input when absent or "-") is read whole before anything
is written: malformed input gets file:line:col: message and exit status 2, and
no output. Input the official scrambler refuses (a set-option other than
:print-success and :produce-unsat-cores, a declare-sort of non-zero arity,
...) gets its message and exit status 1, as with the official tool.

The official spellings are accepted too, so that existing scripts can call
smtarena unchanged: -seed N, -term_annot true|pattern|false, -incremental
true, -gen-unsat-core true, -gen-model-val true, -gen-proof true, -core FILE,
-count-asserts true, -support-non-smtcomp true. With them the defaults are
the official ones (-term_annot true); otherwise the default is the
competition's --term-annot pattern.`

func newScrambleCmd(io streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scramble --seed N [--track T] [flags] [FILE]",
		Short: "Scramble a benchmark exactly as the official SMT-COMP scrambler does",
		Long:  scrambleLong,
		// The official single-dash spellings are not pflag syntax: the
		// arguments are translated first, then parsed (see runScrambleArgs).
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runScrambleArgs(cmd, args, io)
		},
	}
	scrambleFlags(cmd.Flags(), &ScrambleOptions{})
	return cmd
}

// scrambleFlags declares the flags of scramble into fs, bound to opts.
func scrambleFlags(fs *pflag.FlagSet, opts *ScrambleOptions) {
	fs.Uint64Var(&opts.Seed, "seed", 0, "seed of the scrambler's generator; 0 means no scrambling (required)")
	fs.StringVar(&opts.Track, "track", "single-query", "single-query, incremental, unsat-core, model-validation or proof")
	fs.StringVar(&opts.TermAnnot, "term-annot", "pattern", "term annotations kept: true (all), pattern (only :pattern), false (none)")
	fs.StringVar(&opts.Core, "core", "", "keep only the named asserts listed in this solver answer to (get-unsat-core)")
	fs.BoolVar(&opts.CountAsserts, "count-asserts", false, `print "; Number of assertions: N" on stderr and no script`)
	fs.StringVar(&opts.Map, "map", "", "write the renaming and the assert order to this file (JSON if it ends in .json, else TSV)")
	fs.BoolVar(&opts.StatusHeader, "with-status-header", false, "incremental track: write the expected answers and '"+scramble.StatusHeaderEnd+"' first")
	fs.BoolVar(&opts.SupportNonSMTCOMP, "support-non-smtcomp", false, "accept and keep set-option and other commands the competition does not use")
}

// runScrambleArgs translates the official spellings, parses the flags and
// runs the scramble.
func runScrambleArgs(cmd *cobra.Command, args []string, io streams) error {
	args, official, err := officialScrambleArgs(args)
	if err != nil {
		return err
	}
	var opts ScrambleOptions
	fs := pflag.NewFlagSet("scramble", pflag.ContinueOnError)
	fs.SetOutput(io.err)
	scrambleFlags(fs, &opts)
	if official {
		opts.TermAnnot = "true" // the official default
		fs.Lookup("term-annot").DefValue = "true"
	}
	help := fs.BoolP("help", "h", false, "help for scramble")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *help {
		return cmd.Help()
	}
	opts.SeedSet = fs.Changed("seed")
	return runScramble(cmd.Context(), opts, fs.Args(), io)
}

// officialScrambleArgs rewrites the official scrambler's options into
// smtarena's and reports whether there were any.
func officialScrambleArgs(args []string) ([]string, bool, error) {
	var out []string
	official := false
	boolean := func(name, v string) (bool, error) {
		switch v {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return false, fmt.Errorf("%s wants true or false, not %q", name, v)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		switch a {
		case "-seed", "-term_annot", "-core", "-incremental", "-gen-unsat-core", "-gen-model-val",
			"-gen-proof", "-support-non-smtcomp", "-support-z3", "-count-asserts":
		default:
			out = append(out, a)
			continue
		}
		official = true
		if i+1 >= len(args) {
			return nil, false, fmt.Errorf("%s needs a value", a)
		}
		v := args[i+1]
		i++
		switch a {
		case "-seed":
			out = append(out, "--seed", v)
		case "-term_annot":
			out = append(out, "--term-annot", v)
		case "-core":
			out = append(out, "--core", v)
		case "-support-z3":
			on, err := boolean(a, v)
			if err != nil {
				return nil, false, err
			}
			if on {
				return nil, false, errors.New("-support-z3 true is not supported")
			}
		default:
			on, err := boolean(a, v)
			if err != nil {
				return nil, false, err
			}
			if !on {
				continue
			}
			switch a {
			case "-incremental":
				out = append(out, "--track", "incremental")
			case "-gen-unsat-core":
				out = append(out, "--track", "unsat-core")
			case "-gen-model-val":
				out = append(out, "--track", "model-validation")
			case "-gen-proof":
				out = append(out, "--track", "proof")
			case "-support-non-smtcomp":
				out = append(out, "--support-non-smtcomp")
			case "-count-asserts":
				out = append(out, "--count-asserts")
			}
		}
	}
	return out, official, nil
}

func runScramble(_ context.Context, opts ScrambleOptions, args []string, io streams) error {
	if !opts.SeedSet {
		return errors.New("--seed is required (0 means no scrambling)")
	}
	if len(args) > 1 {
		return fmt.Errorf("at most one input file, got %d", len(args))
	}
	track, err := scramble.ParseTrack(opts.Track)
	if err != nil {
		return err
	}
	annot, err := scramble.ParseAnnotMode(opts.TermAnnot)
	if err != nil {
		return err
	}
	if opts.StatusHeader && track != scramble.Incremental {
		return errors.New("--with-status-header is for --track incremental")
	}
	so := scramble.Options{
		Seed:              opts.Seed,
		Track:             track,
		Annot:             annot,
		CountAsserts:      opts.CountAsserts,
		SupportNonSMTCOMP: opts.SupportNonSMTCOMP,
		StatusHeader:      opts.StatusHeader,
	}
	if opts.Core != "" {
		f, err := os.Open(opts.Core)
		if err != nil {
			return err
		}
		so.Core, err = scramble.ParseCore(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("core names from %s: %w", opts.Core, err)
		}
	}
	in, name := io.in, "<stdin>"
	if len(args) == 1 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			return err
		}
		defer f.Close()
		in, name = f, args[0]
	}
	out := bufio.NewWriterSize(io.out, 256<<10)
	res, err := scramble.Scramble(out, bufio.NewReaderSize(in, 256<<10), name, so)
	if err != nil {
		var rej *scramble.RejectError
		if errors.As(err, &rej) {
			fmt.Fprintln(io.err, "smtarena:", err)
			return judgedError{err.Error()}
		}
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if opts.CountAsserts {
		fmt.Fprintf(io.err, "; Number of assertions: %d\n", res.Asserts)
	}
	if opts.Map != "" {
		return writeScrambleMap(opts, res)
	}
	return nil
}

// writeScrambleMap writes the renaming (printed name -> declared name) and
// the assert order (the i-th assert printed is the k-th of the input).
func writeScrambleMap(opts ScrambleOptions, res *scramble.Result) error {
	var buf strings.Builder
	if strings.EqualFold(filepath.Ext(opts.Map), ".json") {
		type name struct {
			Scrambled string `json:"scrambled"`
			Original  string `json:"original"`
		}
		m := struct {
			Seed    uint64 `json:"seed"`
			Track   string `json:"track"`
			Names   []name `json:"names"`
			Asserts []int  `json:"asserts"`
		}{opts.Seed, opts.Track, []name{}, res.AssertOrder}
		for _, r := range res.Names {
			m.Names = append(m.Names, name{r.New, r.Original})
		}
		if m.Asserts == nil {
			m.Asserts = []int{}
		}
		b, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	} else {
		fmt.Fprintf(&buf, "# smtarena scramble map: seed %d, track %s\n", opts.Seed, opts.Track)
		buf.WriteString("kind\tscrambled\toriginal\n")
		for _, r := range res.Names {
			fmt.Fprintf(&buf, "name\t%s\t%s\n", r.New, tsvField(r.Original))
		}
		for i, k := range res.AssertOrder {
			fmt.Fprintf(&buf, "assert\t%d\t%d\n", i, k)
		}
	}
	return writeFileAtomic(opts.Map, []byte(buf.String()))
}

// tsvField escapes the characters that would break a TSV line.
func tsvField(s string) string {
	if !strings.ContainsAny(s, "\t\n\r\\") {
		return s
	}
	r := strings.NewReplacer("\\", `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)
	return r.Replace(s)
}

// writeFileAtomic writes a file through a temporary one in its directory,
// so that a reader never sees half of it.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
