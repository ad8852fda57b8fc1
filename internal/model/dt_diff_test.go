package model

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/smtarena/smtarena/internal/testenv"
)

// The datatypes of the random benchmarks. The list is called Lst: z3
// knows a List of its own when no logic is set, as in z3CheckScript.
const pdtDiffDecls = `(declare-datatypes ((Lst 1)) ((par (T) ((lnil) (lcons (hd T) (tl (Lst T)))))))
(declare-datatypes ((Pair 2)) ((par (A B) ((mkpair (fst A) (snd B))))))
(declare-datatypes ((Option 1)) ((par (T) ((none) (some (val T))))))
`

// gsort is a sort of the random benchmarks: Int, Bool, or a datatype
// instance.
type gsort struct {
	name string
	args []*gsort
}

func (s *gsort) String() string {
	if len(s.args) == 0 {
		return s.name
	}
	parts := []string{s.name}
	for _, a := range s.args {
		parts = append(parts, a.String())
	}
	return "(" + strings.Join(parts, " ") + ")"
}

var (
	gInt  = &gsort{name: "Int"}
	gBool = &gsort{name: "Bool"}
)

func gLst(t *gsort) *gsort               { return &gsort{name: "Lst", args: []*gsort{t}} }
func gOption(t *gsort) *gsort            { return &gsort{name: "Option", args: []*gsort{t}} }
func gPair(a, b *gsort) *gsort           { return &gsort{name: "Pair", args: []*gsort{a, b}} }
func sameSort(a, b *gsort) bool          { return a.String() == b.String() }
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// gen draws random terms over a benchmark's constants.
type gen struct {
	r      *rand.Rand
	consts []gconst
}

type gconst struct {
	name string
	s    *gsort
}

// sel is a constructor of a sort with its selectors' names and sorts.
type gctor struct {
	name   string
	sels   []string
	fields []*gsort
}

func ctorsOf(s *gsort) []gctor {
	switch s.name {
	case "Lst":
		return []gctor{{"lnil", nil, nil}, {"lcons", []string{"hd", "tl"}, []*gsort{s.args[0], s}}}
	case "Pair":
		return []gctor{{"mkpair", []string{"fst", "snd"}, s.args}}
	case "Option":
		return []gctor{{"none", nil, nil}, {"some", []string{"val"}, s.args}}
	}
	return nil
}

func (g *gen) constOf(s *gsort) (string, bool) {
	var names []string
	for _, c := range g.consts {
		if sameSort(c.s, s) {
			names = append(names, c.name)
		}
	}
	if len(names) == 0 {
		return "", false
	}
	return pick(g.r, names), true
}

// term draws a term of sort s; selectors are guarded by their tester, so
// that no assertion needs a selector's unspecified value.
func (g *gen) term(s *gsort, depth int) string {
	r := g.r
	if c, ok := g.constOf(s); ok && r.IntN(3) == 0 {
		return c
	}
	if depth > 0 && r.IntN(3) == 0 {
		// a guarded selection from a term of a datatype sort
		var from []gconst
		for _, c := range g.consts {
			for _, ct := range ctorsOf(c.s) {
				for _, f := range ct.fields {
					if sameSort(f, s) {
						from = append(from, c)
					}
				}
			}
		}
		if len(from) > 0 {
			c := pick(r, from)
			for _, ct := range ctorsOf(c.s) {
				for k, f := range ct.fields {
					if sameSort(f, s) {
						return fmt.Sprintf("(ite (is-%s %s) (%s %s) %s)", ct.name, c.name, ct.sels[k], c.name, g.term(s, depth-1))
					}
				}
			}
		}
	}
	switch {
	case s == gInt || s.name == "Int":
		if depth > 0 && r.IntN(4) == 0 {
			return "(+ " + g.term(gInt, depth-1) + " " + g.term(gInt, depth-1) + ")"
		}
		n := r.IntN(7) - 2
		if n < 0 {
			return fmt.Sprintf("(- %d)", -n)
		}
		return fmt.Sprint(n)
	case s.name == "Bool":
		if depth > 0 && r.IntN(2) == 0 {
			return g.atom(depth - 1)
		}
		return pick(r, []string{"true", "false"})
	}
	cts := ctorsOf(s)
	ct := pick(r, cts)
	if depth <= 0 {
		ct = cts[0] // the base constructor: lnil, none, mkpair
	}
	if len(ct.fields) == 0 {
		return "(as " + ct.name + " " + s.String() + ")"
	}
	parts := []string{ct.name}
	for _, f := range ct.fields {
		parts = append(parts, g.term(f, depth-1))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// atom draws a Boolean term: equalities and distinct over instances,
// testers, comparisons, match.
func (g *gen) atom(depth int) string {
	r := g.r
	c := pick(r, g.consts)
	switch r.IntN(7) {
	case 0, 1:
		return fmt.Sprintf("(= %s %s)", c.name, g.term(c.s, depth+1))
	case 2:
		return fmt.Sprintf("(not (= %s %s))", c.name, g.term(c.s, depth))
	case 3:
		return fmt.Sprintf("(distinct %s %s %s)", c.name, g.term(c.s, depth), g.term(c.s, depth))
	case 4:
		if cts := ctorsOf(c.s); len(cts) > 0 {
			return fmt.Sprintf("(is-%s %s)", pick(r, cts).name, c.name)
		}
	case 5:
		return fmt.Sprintf("(> %s %s)", g.term(gInt, depth+1), g.term(gInt, depth))
	case 6:
		if c.s.name == "Lst" {
			return fmt.Sprintf("(match %s ((lnil %s) ((lcons h r) %s)))", c.name, pick(r, []string{"true", "false"}),
				g.matchBody(c.s.args[0]))
		}
	}
	return fmt.Sprintf("(= %s %s)", c.name, g.term(c.s, depth))
}

// matchBody is the body of a list's lcons case: h is its head, r its tail.
func (g *gen) matchBody(el *gsort) string {
	switch el.name {
	case "Int":
		return "(> h " + g.term(gInt, 0) + ")"
	case "Bool":
		return "h"
	}
	return fmt.Sprintf("(= h %s)", g.term(el, 1))
}

// pdtBenchmark draws a benchmark over parametric datatypes.
func pdtBenchmark(r *rand.Rand) string {
	pool := []*gsort{gLst(gInt), gLst(gBool), gPair(gInt, gBool), gOption(gInt), gOption(gLst(gInt)),
		gLst(gLst(gInt)), gPair(gLst(gBool), gOption(gInt)), gLst(gPair(gInt, gInt)), gInt}
	g := &gen{r: r}
	var sb strings.Builder
	sb.WriteString("(set-logic ALL)\n(set-option :produce-models true)\n" + pdtDiffDecls)
	n := 2 + r.IntN(4)
	for k := range n {
		s := pick(r, pool)
		if k == 0 {
			s = pool[r.IntN(len(pool)-1)]
		}
		c := gconst{fmt.Sprintf("c%d", k), s}
		g.consts = append(g.consts, c)
		fmt.Fprintf(&sb, "(declare-const %s %s)\n", c.name, s)
	}
	for range 1 + r.IntN(4) {
		a := g.atom(1)
		if r.IntN(3) == 0 {
			a = "(or " + a + " " + g.atom(1) + ")"
		}
		sb.WriteString("(assert " + a + ")\n")
	}
	sb.WriteString("(check-sat)\n(get-model)\n")
	return sb.String()
}

// valueToken finds the numerals and Boolean constants of a model value.
var valueToken = regexp.MustCompile(`\b(true|false|[0-9]+)\b`)

// termEnd returns the end of the term that starts at off in text.
func termEnd(text []byte, off int) int {
	if off >= len(text) {
		return off
	}
	if text[off] != '(' {
		end := off
		for end < len(text) && !strings.ContainsRune(" \t\r\n()", rune(text[end])) {
			end++
		}
		return end
	}
	depth := 0
	for k := off; k < len(text); k++ {
		switch text[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k + 1
			}
		}
	}
	return len(text)
}

// pdtMutants returns the solver's output with one value changed: one
// list or option made empty, and one numeral or Boolean of a constant's
// value changed for each of at most max such tokens.
func pdtMutants(out []byte, r *rand.Rand, max int) [][]byte {
	resps, _ := smtlib.ParseResponses("response", out)
	if len(resps) < 2 {
		return nil
	}
	m, err := resps[1].As(smtlib.RespModel)
	if err != nil {
		return nil
	}
	s := m.Script
	var spans [][2]int
	for _, d := range m.Defs {
		if d.Kind != smtlib.CmdDefineFun || len(d.Params) > 0 || d.Body == smtlib.NoTerm {
			continue
		}
		off := s.Position(s.Pos(d.Body)).Offset
		end := termEnd(out, off)
		for _, loc := range valueToken.FindAllIndex(out[off:end], -1) {
			spans = append(spans, [2]int{off + loc[0], off + loc[1]})
		}
	}
	r.Shuffle(len(spans), func(i, j int) { spans[i], spans[j] = spans[j], spans[i] })
	var muts [][]byte
	// One structural change: a list or option replaced by the empty one.
	for _, k := range r.Perm(len(m.Defs)) {
		d := m.Defs[k]
		if d.Kind != smtlib.CmdDefineFun || len(d.Params) > 0 || d.Body == smtlib.NoTerm {
			continue
		}
		srt := s.TermString(d.Sort)
		empty := map[string]string{"Lst": "lnil", "Option": "none"}[strings.TrimPrefix(strings.Fields(srt)[0], "(")]
		off := s.Position(s.Pos(d.Body)).Offset
		end := termEnd(out, off)
		repl := "(as " + empty + " " + srt + ")"
		if empty == "" || string(out[off:end]) == repl {
			continue
		}
		muts = append(muts, append(append(append([]byte(nil), out[:off]...), repl...), out[end:]...))
		break
	}
	for _, sp := range spans[:min(len(spans), max)] {
		tok := string(out[sp[0]:sp[1]])
		repl := map[string]string{"true": "false", "false": "true"}[tok]
		if repl == "" {
			n, _ := new(big.Int).SetString(tok, 10)
			repl = n.Add(n, big.NewInt(1)).String()
		}
		muts = append(muts, append(append(append([]byte(nil), out[:sp[0]]...), repl...), out[sp[1]:]...))
	}
	return muts
}

// TestParametricDatatypeDifferential: random benchmarks over lists, pairs
// and options of Int and Bool. Every model z3, cvc5 and cvc4 print for them is
// VALID, and each model with a value changed gets the verdict z3 gives
// for the benchmark with the changed model's definitions in place of the
// declarations (sat: VALID, unsat: INVALID).
func TestParametricDatatypeDifferential(t *testing.T) {
	solvers := []string{"z3", "cvc5", "cvc4"}
	for _, s := range solvers {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s (make deps): %v", s, err)
		}
	}
	r := rand.New(rand.NewPCG(diffSeed(), 11))  // benchmarks
	rm := rand.New(rand.NewPCG(diffSeed(), 12)) // mutations
	n := 40
	if testing.Short() {
		n = 10
	}
	dir := t.TempDir()
	counts := map[string]int{}
	for k := range n {
		src := pdtBenchmark(r)
		bench := filepath.Join(dir, fmt.Sprintf("pdt%d.smt2", k))
		if err := os.WriteFile(bench, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, solver := range solvers {
			out := runSolver(t, solver, []byte(src))
			first := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
			switch {
			case first == "":
				counts[solver+" crashed or timed out"]++
				continue
			case strings.HasPrefix(first, "(error"):
				counts[solver+" rejected the benchmark"]++
				t.Logf("%s rejects %s: %s\n%s", solver, bench, clip(first, 300), src)
				continue
			case first != "sat":
				counts[solver+" answered "+clip(first, 20)]++
				continue
			}
			res := validate(t, bench, out, Options{})
			counts[solver+" model "+res.String()]++
			if res.Verdict != Valid {
				t.Errorf("%s model for %s: %s (%s) at %s\n%s\n%s", solver, bench, res, res.Detail, res.Position, src, out)
				continue
			}
			for _, mut := range pdtMutants(out, rm, 2) {
				res := validate(t, bench, mut, Options{})
				want := z3Judge(t, bench, mut)
				counts[fmt.Sprintf("mutant %s z3:%s", res, want)]++
				if want != "sat" && want != "unsat" {
					continue // z3 cannot tell (its time limit): nothing to compare
				}
				if (want == "sat" && res.Verdict != Valid) || (want == "unsat" && res.Verdict != Invalid) {
					t.Errorf("%s mutant for %s: validator %s (%s), z3 says %s\n%s\n%s", solver, bench, res, res.Detail, want, src, mut)
				}
			}
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb bytes.Buffer
	for _, k := range keys {
		fmt.Fprintf(&sb, "\n  %s: %d", k, counts[k])
	}
	t.Logf("%d random parametric-datatype benchmarks (seed %d):%s", n, diffSeed(), sb.String())
}
