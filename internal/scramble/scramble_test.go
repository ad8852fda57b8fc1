package scramble

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/smtarena/smtarena/internal/testenv"
)

func scrambleString(t testing.TB, src string, o Options) (string, *Result, error) {
	t.Helper()
	var out bytes.Buffer
	res, err := Scramble(&out, strings.NewReader(src), "f", o)
	return out.String(), res, err
}

// deepScript asserts a term nested n levels deep, written in the
// scrambler's own layout so that seed 0 gives it back unchanged.
func deepScript(n int, open, core, close string) string {
	var b strings.Builder
	b.WriteString("(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert ")
	b.WriteString(strings.Repeat(open, n))
	b.WriteString(core)
	b.WriteString(strings.Repeat(close, n))
	b.WriteString(")\n(check-sat)\n")
	return b.String()
}

// TestDeepNesting scrambles terms, sorts and s-expressions nested a million
// levels deep with the Go stack limited to 1 MB: any recursion on depth
// would overflow it. The official scrambler needs a 1 GB stack for these.
func TestDeepNesting(t *testing.T) {
	if testing.Short() {
		t.Skip("deep nesting takes a few seconds")
	}
	old := debug.SetMaxStack(1 << 20)
	defer debug.SetMaxStack(old)
	const depth = 1_000_000
	cases := map[string]string{
		"not":     deepScript(depth, "(not ", "(= x 0)", ")"),
		"plus":    deepScript(depth, "(+ 1 ", "x", ")"),
		"compare": deepScript(depth, "(ite (< x ", "0", ") true false)"),
		"let":     deepScript(depth, "(let ((y x)) ", "(= y 0)", ")"),
		"forall":  deepScript(depth, "(forall ((y Int)) ", "(= y 0)", ")"),
		"annot":   deepScript(depth, "(! ", "(= x 0)", " :weight 1)"),
		"pattern": deepScript(1, "(forall ((y Int)) (! (= y 0) :pattern (", strings.Repeat("(f ", depth)+"y"+strings.Repeat(")", depth), ")))"),
		"sort":    "(set-logic QF_AUFLIA)\n(declare-fun a () " + strings.Repeat("(Array Int ", depth) + "Int" + strings.Repeat(")", depth) + ")\n",
		"sexpr":   "(set-info :notes " + strings.Repeat("(", depth) + "a" + strings.Repeat(")", depth) + ")\n(set-logic QF_LIA)\n",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			// seed 0 writes the input back in the same layout
			got, _, err := scrambleString(t, src, Options{Annot: AnnotAll})
			if err != nil {
				t.Fatal(err)
			}
			want := "(set-option :print-success false)\n" + src
			if name == "sexpr" {
				want = "(set-option :print-success false)\n(set-logic QF_LIA)\n"
			}
			if got != want {
				t.Fatalf("seed 0 changed the script: got %d bytes, want %d", len(got), len(want))
			}
			// seed 42 scrambles; the result must be a script of the same size
			// that smtlib reads back
			got, _, err = scrambleString(t, src, Options{Seed: 42, Annot: AnnotAll})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := smtlib.Parse("scrambled", []byte(got), 0); err != nil {
				t.Fatalf("the scrambled script does not parse: %v", err)
			}
			runtime.GC()
		})
	}
}

// TestErrors checks that malformed input gets a SyntaxError with its
// position, and input the official scrambler refuses a RejectError.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		src    string
		want   string
		reject bool
	}{
		{"(set-logic QF_LIA)\n(assert (and x\n(check-sat)\n", "f:3:2: expected a function symbol or a binder, found the reserved word 'check-sat'", false},
		{"(set-logic QF_LIA)(assert (+ 1 2)", "f:1:34: expected ')', found end of file", false},
		{"(assert x))", "f:1:11: expected '(' to start a command, found ')'", false},
		{"(frobnicate 1)", "f:1:2: unknown command 'frobnicate'", false},
		{"(set-logic QF_LIA)(assert (f))", "f:1:29: expected a term, found ')'", false},
		{"(declare-fun let () Int)", "f:1:14: expected a function name, found the reserved word 'let'", false},
		{"(assert #b012)", "f:1:9: unexpected '2' in literal \"#b012\"", false},
		{"(assert \"abc)", "f:1:9: string literal not terminated", false},
		{"(assert |abc)", "f:1:9: quoted symbol not terminated", false},
		{"(set-logic QF_LIA)\n(assert (< 12abc 1))", "f:2:12: a symbol cannot start with a digit: \"12abc\"", false},
		{"(push)", "f:1:6: expected the number of levels, found ')'", false},
		{"(set-logic QF_UF)\n(assert (! x))", "f:2:13: expected an attribute, found ')'", false},
		{"(assert ((f x) y))", "f:1:11: expected '_' or 'as' (a function symbol in parentheses must be indexed or qualified), found 'f'", false},
		{"(set-logic QF_LIA)\n(assert (let () x))", "f:2:15: expected '(', found ')'", false},
		{"(set-logic QF_UF)\n\t(assert {)", "f:2:10: unexpected character '{'", false},
		// refused by the official scrambler (it exits 1)
		{"(set-option :produce-models true)", "f:1:2: Encountered non-SMT-COMP command: 'set-option'. Maybe you want to re-run with '-support-non-smtcomp true'.", true},
		{"(set-logic QF_UF)\n(declare-sort U 1)", "f:2:17: declare-sort with arity != 0", true},
		{"(set-logic QF_UF)\n(get-model)", "f:2:2: Encountered non-SMT-COMP command: 'get-model'. Maybe you want to re-run with '-support-non-smtcomp true'.", true},
		{"(set-logic QF_UF)\n(set-logic QF_UF)", "f:2:2: logic is already set", true},
		{"(assert (f x))", "f:1:13: logic has not been set", true},
	} {
		out, _, err := scrambleString(t, tc.src, Options{Seed: 1})
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if out != "" {
			t.Errorf("%q: partial output %q", tc.src, out)
		}
		if err.Error() != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, err, tc.want)
		}
		var rej *RejectError
		var syn *SyntaxError
		if tc.reject && !errors.As(err, &rej) || !tc.reject && !errors.As(err, &syn) {
			t.Errorf("%q: error of type %T", tc.src, err)
		}
	}
}

// TestNoPartialOutput checks that an error after a check-sat, where the
// official scrambler has already printed a segment, writes nothing.
func TestNoPartialOutput(t *testing.T) {
	src := "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> x 0))\n(check-sat)\n(push 1)\n(assert (> x\n"
	out, _, err := scrambleString(t, src, Options{Seed: 7, Track: Incremental})
	if err == nil || out != "" {
		t.Fatalf("got %q, %v; want an error and no output", out, err)
	}
}

// chunkReader returns what it reads in pieces of random sizes.
type chunkReader struct {
	r   io.Reader
	rng *rand.Rand
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if n := 1 + c.rng.IntN(64); len(p) > n {
		p = p[:n]
	}
	return c.r.Read(p)
}

// TestStreaming feeds the golden inputs one byte at a time and in random
// pieces: the scanner's window refills must not change a byte of output.
func TestStreaming(t *testing.T) {
	dir := testenv.Shared(t, "benchmarks")
	files := testenv.Files(t, dir, ".smt2")
	for i, f := range files {
		if testing.Short() && i%10 != 0 {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		o := Options{Seed: 42, Annot: AnnotPattern, SupportNonSMTCOMP: true}
		var want, one, chunks bytes.Buffer
		_, errW := Scramble(&want, bytes.NewReader(src), f, o)
		_, err1 := Scramble(&one, iotest.OneByteReader(bytes.NewReader(src)), f, o)
		_, errC := Scramble(&chunks, &chunkReader{bytes.NewReader(src), rand.New(rand.NewPCG(uint64(i), 1))}, f, o)
		if errString(errW) != errString(err1) || errString(errW) != errString(errC) {
			t.Errorf("%s: errors differ: %v / %v / %v", f, errW, err1, errC)
		}
		if !bytes.Equal(want.Bytes(), one.Bytes()) || !bytes.Equal(want.Bytes(), chunks.Bytes()) {
			t.Errorf("%s: the output depends on how the input is read", filepath.Base(f))
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestLongTokens crosses the scanner's window with tokens longer than it.
func TestLongTokens(t *testing.T) {
	long := strings.Repeat("a", 3*scanWindow)
	src := "(set-logic QF_UF)\n(set-info :source |" + strings.Repeat("x\n", scanWindow) + "|)\n" +
		"(declare-fun " + long + " () Bool)\n(assert " + long + ")\n(assert (= \"" + long + "\"\"\" \"b\"))\n; " + long + "\n(check-sat)\n"
	got, _, err := scrambleString(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "(set-option :print-success false)\n(set-logic QF_UF)\n(declare-fun " + long + " () Bool)\n(assert " + long + ")\n(assert (= \"" + long + "\"\"\" \"b\"))\n(check-sat)\n"
	if got != want {
		t.Fatalf("long tokens changed (%d bytes, want %d)", len(got), len(want))
	}
	got, _, err = scrambleString(t, src, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "(declare-fun x1 () Bool)\n") || !strings.Contains(got, "(assert x1)\n") {
		t.Fatalf("the long name was not renamed:\n%.300s", got)
	}
	// positions after a multi-line quoted symbol
	_, _, err = scrambleString(t, "(set-info :source |a\nb\nc|) (assert\n {)", Options{})
	if err == nil || err.Error() != "f:4:2: unexpected character '{'" {
		t.Fatalf("got %v", err)
	}
}

// TestRenaming checks the renaming, the map and the assert order.
func TestRenaming(t *testing.T) {
	src := `(set-logic QF_UF)
(declare-sort U 0)
(declare-fun |f| (U) U)
(declare-fun a () U)
(declare-fun b () U)
(assert (= (f a) b))
(assert (distinct a b))
(assert (let ((c (f b))) (= c a)))
(check-sat)
`
	got, res, err := scrambleString(t, src, Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Names) != 5 {
		t.Fatalf("names: %v", res.Names)
	}
	// applying the map to the output gives back the input's names
	back := got
	for _, r := range res.Names {
		back = strings.ReplaceAll(back, r.New+" ", "\x00"+r.Original+" ")
		back = strings.ReplaceAll(back, r.New+")", "\x00"+r.Original+")")
	}
	back = strings.ReplaceAll(back, "\x00", "")
	for _, w := range []string{"(declare-sort U 0)", "(declare-fun |f| (U) U)", "(declare-fun a () U)"} {
		if !strings.Contains(back, w) {
			t.Errorf("the map does not restore %q:\n%s", w, back)
		}
	}
	if len(res.AssertOrder) != 3 || res.Asserts != 3 {
		t.Fatalf("assert order %v", res.AssertOrder)
	}
	lines := strings.Split(got, "\n")
	orig := strings.Split(src, "\n")
	for i, k := range res.AssertOrder {
		// the i-th assert printed is the k-th of the input: same length
		// modulo renaming is enough of a check here
		g := lines[6+i]
		if !strings.HasPrefix(g, "(assert") || !strings.HasPrefix(orig[5+k], "(assert") {
			t.Fatalf("assert order %v does not match", res.AssertOrder)
		}
	}
}

// TestCoreAnswer reads solver answers to get-unsat-core as -core does.
func TestCoreAnswer(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		bad  bool
	}{
		{"unsat\n(smtcomp1 smtcomp3)\n", []string{"smtcomp1", "smtcomp3"}, false},
		{"unsat (a)", []string{"a"}, false},
		{"unsat\n()\n", nil, false},
		{"unsat\n( a b )", []string{"a", "b"}, false},
		{"sat\n(a)", nil, true},
		{"unsat\nx (a)", nil, true},
		{"unsat\n(a b", nil, true},
	} {
		got, err := ParseCore(strings.NewReader(tc.in))
		if (err != nil) != tc.bad {
			t.Errorf("%q: error %v", tc.in, err)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
		}
		for _, n := range tc.want {
			if !got[n] {
				t.Errorf("%q: %s missing", tc.in, n)
			}
		}
	}
}

// TestSupportNonSMTCOMP keeps the commands the competition does not use.
func TestSupportNonSMTCOMP(t *testing.T) {
	src := "(set-option :produce-models true)\n(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> x 0))\n(check-sat)\n(get-value (x))\n(get-model)\n"
	got, _, err := scrambleString(t, src, Options{SupportNonSMTCOMP: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "(set-option :print-success false)\n" + src
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// FuzzScramble checks that no input makes the scrambler panic, and that
// what it writes for an input that smtlib reads is read by smtlib too.
func FuzzScramble(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(testenv.Root(), "..", "shared", "benchmarks", "*", "*", "*", "*.smt2"))
	for i, p := range seeds {
		if i%8 != 0 {
			continue
		}
		if b, err := os.ReadFile(p); err == nil && len(b) < 8<<10 {
			f.Add(b, uint64(42), uint8(0))
		}
	}
	f.Add([]byte("(set-logic ALL)(assert (let ((x 1)) (forall ((y Int)) (! (match x ((a b) ((c d e) f))) :named n))))"), uint64(1), uint8(2))
	f.Add([]byte("(set-logic QF_BVFP)(declare-datatypes ((L 0)) (((n) (c (h Int) (t L)))))(assert (fp.lt (fp.add RNE a b) c (bvult x y)))"), uint64(9), uint8(1))
	f.Fuzz(func(t *testing.T, src []byte, seed uint64, mode uint8) {
		o := Options{Seed: seed, Track: Track(mode % 5), Annot: AnnotMode(mode / 5 % 3)}
		var out bytes.Buffer
		_, err := Scramble(&out, bytes.NewReader(src), "fuzz", o)
		if err != nil {
			if out.Len() != 0 {
				t.Fatalf("output despite the error %v", err)
			}
			var rej *RejectError
			var syn *SyntaxError
			if !errors.As(err, &rej) && !errors.As(err, &syn) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if _, err := smtlib.Parse("in", src, 0); err != nil {
			return
		}
		if _, err := smtlib.Parse("out", out.Bytes(), 0); err != nil {
			t.Fatalf("the scrambled script does not parse: %v\n%s", err, out.Bytes())
		}
	})
}

// TestNamePrintedBeforeDeclared reproduces an official quirk: printing
// looks every name up, which enters an unknown name with id 0, so a name
// printed in a segment before its declaration is never renamed, and takes
// no place in the permutation.
func TestNamePrintedBeforeDeclared(t *testing.T) {
	src := "(set-logic QF_UF)\n(declare-fun a () Bool)\n(assert (or a b))\n(check-sat)\n(declare-fun b () Bool)\n(declare-fun c () Bool)\n(assert (and b c))\n(check-sat)\n"
	got, res, err := scrambleString(t, src, Options{Seed: 11, Track: Incremental})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "(declare-fun b () Bool)") || strings.Count(got, " b") != 3 {
		t.Errorf("b was renamed:\n%s", got)
	}
	if len(res.Names) != 2 {
		t.Errorf("names %v, want a and c only", res.Names)
	}
	// without the first check-sat, b is declared before it is printed
	got, _, err = scrambleString(t, strings.Replace(src, "(check-sat)\n", "", 1), Options{Seed: 11, Track: Incremental})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, " b") {
		t.Errorf("b was not renamed:\n%s", got)
	}
}
