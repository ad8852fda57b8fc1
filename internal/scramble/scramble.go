package scramble

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Track selects the competition track whose benchmark format is produced.
type Track int

const (
	SingleQuery     Track = iota // (set-option :print-success false) first
	Incremental                  // no header; see Options.StatusHeader
	UnsatCore                    // named asserts, (get-unsat-core) after check-sat
	ModelValidation              // (get-model) after check-sat
	Proof                        // (get-proof) after check-sat
)

var trackNames = []string{"single-query", "incremental", "unsat-core", "model-validation", "proof"}

func (t Track) String() string {
	if int(t) < len(trackNames) {
		return trackNames[t]
	}
	return "track(" + strconv.Itoa(int(t)) + ")"
}

// ParseTrack parses a track name as String writes it.
func ParseTrack(s string) (Track, error) {
	for i, n := range trackNames {
		if n == s {
			return Track(i), nil
		}
	}
	return 0, fmt.Errorf("unknown track %q (want one of %s)", s, strings.Join(trackNames, ", "))
}

// AnnotMode says which term annotations (! t ...) are kept.
type AnnotMode int

const (
	AnnotAll     AnnotMode = iota // keep every annotation (official -term_annot true, its default)
	AnnotPattern                  // keep (! t :pattern (...)) only (-term_annot pattern)
	AnnotNone                     // strip every annotation (-term_annot false)
)

// ParseAnnotMode parses the official -term_annot values true, pattern, false.
func ParseAnnotMode(s string) (AnnotMode, error) {
	switch s {
	case "true":
		return AnnotAll, nil
	case "pattern":
		return AnnotPattern, nil
	case "false":
		return AnnotNone, nil
	}
	return 0, fmt.Errorf("unknown annotation mode %q (want true, pattern or false)", s)
}

// Options control a scramble.
type Options struct {
	// Seed seeds the generator; 0 means no scrambling (names, order and
	// terms are kept). The official tool reads it as a C int.
	Seed  uint64
	Track Track
	Annot AnnotMode
	// Core, when not nil, keeps only the asserts whose :named name is in it
	// (asserts without a name are kept), as the official -core does.
	Core map[string]bool
	// CountAsserts parses the script and counts its asserts; nothing is
	// written but the headers of the unsat-core, model and proof tracks,
	// as with the official -count-asserts.
	CountAsserts bool
	// SupportNonSMTCOMP accepts set-option and the other commands the
	// competition does not use, and keeps them.
	SupportNonSMTCOMP bool
	// StatusHeader (incremental track) writes the expected answers, one
	// per (set-info :status X) of the input, and the line
	// "--- BENCHMARK BEGINS HERE ---" before the script, as the
	// competition's incremental benchmarks are laid out.
	StatusHeader bool
}

// Result describes a scramble.
type Result struct {
	Asserts  int      // asserts in the input
	Statuses []string // the values of (set-info :status X), in order
	// Names maps each printed name x<N> to the declared symbol, in order of
	// N. Empty when the seed is 0.
	Names []Rename
	// AssertOrder[i] is the position (from 0, among the asserts of the
	// input) of the i-th assert written.
	AssertOrder []int
}

// Rename is one entry of the renaming.
type Rename struct {
	New, Original string
}

// StatusHeaderEnd is the line that ends the expected-answer header of an
// incremental benchmark.
const StatusHeaderEnd = "--- BENCHMARK BEGINS HERE ---"

// Scramble reads a script from r and writes it scrambled to w. file names r
// in error messages. Nothing is written unless the whole input parses: a
// *SyntaxError reports malformed input, a *RejectError input that the
// official scrambler refuses.
func Scramble(w io.Writer, r io.Reader, file string, opts Options) (*Result, error) {
	p := &parser{
		file:     file,
		sc:       newScanner(r),
		syms:     newSymtab(),
		opts:     &opts,
		scramble: opts.Seed != 0,
		blobs:    opts.Core == nil,
		rnd:      lcg{state: opts.Seed},
	}
	p.ser = serializer{keep: opts.Annot, syms: p.syms, a: &p.a}
	if err := p.parse(); err != nil {
		return nil, err
	}
	res := &Result{Asserts: p.nAsserts, Statuses: p.statuses}
	pr := &printer{p: p, w: w, out: make([]byte, 0, flushAt+4096)}
	if opts.Core != nil {
		names := make([]string, 0, len(opts.Core))
		for n := range opts.Core {
			names = append(names, n)
		}
		sort.Strings(names)
		pr.str(";; parsed " + strconv.Itoa(len(names)) + " names:")
		for _, n := range names {
			pr.str(" " + n)
		}
		pr.str("\n")
	}
	if opts.Track == Incremental && opts.StatusHeader && !opts.CountAsserts {
		for _, s := range p.statuses {
			pr.str(s + "\n")
		}
		pr.str(StatusHeaderEnd + "\n")
	}
	if opts.Track != Incremental && !opts.CountAsserts {
		pr.str("(set-option :print-success false)\n")
	}
	switch opts.Track {
	case UnsatCore:
		pr.str("(set-option :produce-unsat-cores true)\n")
	case ModelValidation:
		pr.str("(set-option :produce-models true)\n")
	case Proof:
		pr.str("(set-option :produce-proofs true)\n")
	}
	if !opts.CountAsserts {
		for _, seg := range p.segs {
			pr.segment(seg)
			cmds := p.cmds[seg.start:seg.end]
			for i, c := range cmds {
				if i+prefetch < len(cmds) {
					pr.touch(cmds[i+prefetch])
				}
				pr.command(c)
				if c.sym == symAssert {
					res.AssertOrder = append(res.AssertOrder, int(c.tag))
				}
			}
		}
	}
	pr.flush()
	if pr.err != nil {
		return nil, pr.err
	}
	if p.scramble {
		res.Names = p.renames()
	}
	return res, nil
}

// renames lists the renaming in order of the printed numbers.
func (p *parser) renames() []Rename {
	t := p.syms
	out := make([]Rename, len(p.perm))
	for n := 1; n < len(t.nameID); n++ {
		id := t.nameID[n]
		if id == 0 || int(id) >= len(p.perm) {
			continue
		}
		orig := t.text[t.first[n]]
		if n < len(p.declSym) && p.declSym[n] != 0 {
			orig = t.text[p.declSym[n]]
		}
		k := p.perm[id]
		out[k] = Rename{New: "x" + strconv.FormatUint(uint64(k), 10), Original: orig}
	}
	k := 0
	for _, r := range out {
		if r.New != "" {
			out[k] = r
			k++
		}
	}
	return out[:k]
}

// ParseCore reads a solver's answer to (get-unsat-core), "unsat" followed by
// a parenthesised list of names, the way the official -core option does.
func ParseCore(r io.Reader) (map[string]bool, error) {
	br := bufio.NewReader(r)
	word := func() (string, error) {
		var b strings.Builder
		for {
			c, err := br.ReadByte()
			if err != nil {
				if b.Len() > 0 && errors.Is(err, io.EOF) {
					return b.String(), nil
				}
				return b.String(), err
			}
			if isSpace(c) {
				if b.Len() > 0 {
					return b.String(), nil
				}
				continue
			}
			b.WriteByte(c)
		}
	}
	first, err := word()
	if err != nil || first != "unsat" {
		return nil, errors.New("the core does not start with 'unsat'")
	}
	for {
		c, err := br.ReadByte()
		if err != nil {
			return nil, errors.New("no '(' after 'unsat'")
		}
		if c == '(' {
			break
		}
		if !isSpace(c) {
			return nil, fmt.Errorf("unexpected %q before the core's '('", c)
		}
	}
	names := map[string]bool{}
	for {
		w, err := word()
		if w == "" {
			return nil, errors.New("the core's list is not closed")
		}
		done := false
		if strings.HasSuffix(w, ")") {
			w, done = w[:len(w)-1], true
		}
		if w != "" {
			names[w] = true
		}
		if done {
			return names, nil
		}
		if err != nil {
			return nil, errors.New("the core's list is not closed")
		}
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
