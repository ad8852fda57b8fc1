package smtlib

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// TestCheckSharedBenchmarks sort-checks every shared benchmark: all of them
// are well formed but one, whose let binds the same variable twice.
func TestCheckSharedBenchmarks(t *testing.T) {
	dir := testenv.Shared(t, "benchmarks")
	ill := map[string]string{"let-overload2.smt2": "let binds l twice"}
	for _, f := range testenv.Files(t, dir, ".smt2") {
		s, err := ParseFile(f, 0)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		_, err = Check(s, 0)
		switch want, bad := ill[filepath.Base(f)]; {
		case bad && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: got %v, want %q", f, err, want)
		case !bad && err != nil:
			t.Errorf("%v", err)
		}
	}
}

// TestCheckLetDistinct: the variables of one let are pairwise distinct;
// a nested let may shadow an outer one.
func TestCheckLetDistinct(t *testing.T) {
	for src, want := range map[string]string{
		"(assert (let ((l true) (l false)) l))":                       "x.smt2:1:25: let binds l twice",
		"(assert (let ((l true) (m false)) (and l m)))":               "",
		"(assert (let ((l true)) (let ((l false)) l)))":               "",
		"(assert (let ((l true) (m (let ((l false)) l))) (and l m)))": "",
	} {
		s, err := Parse("x.smt2", []byte(src), 0)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		_, err = Check(s, 0)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", src, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: got %v, want %q", src, err, want)
		}
	}
}

// TestCheckTheories checks well-sorted scripts over every theory, and that
// cvc5 agrees they are well sorted (it answers without an error).
func TestCheckTheories(t *testing.T) {
	files, _ := filepath.Glob("testdata/check/*.smt2")
	if len(files) == 0 {
		t.Fatal("no testdata/check files")
	}
	cvc5, cvc5Err := exec.LookPath("cvc5")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s, err := ParseFile(f, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Check(s, AllErrors); err != nil {
				t.Fatalf("%v", err)
			}
			if cvc5Err != nil {
				testenv.Skipf(t, "needs cvc5 to cross-check: %v", cvc5Err)
			}
			out, _ := exec.Command(cvc5, "--incremental", f).CombinedOutput()
			if strings.Contains(string(out), "error") {
				t.Errorf("cvc5 rejects the file the checker accepts:\n%s", out)
			}
		})
	}
}

// TestCheckErrors checks messages and positions of ill-sorted terms.
func TestCheckErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"assert int", "(set-logic QF_LIA)(declare-const x Int)(assert x)", "f:1:48: assertion has sort Int, expected Bool"},
		{"mixed", "(set-logic QF_LIA)(declare-const x Int)(declare-const b Bool)(assert (= (+ x b) 1))", "f:1:74: '+': argument 2 has sort Bool, expected Int like argument 1"},
		{"ite", "(set-logic QF_LIA)(assert (= 1 (ite true 1 false)))", "f:1:33: 'ite': branches have different sorts: Int and Bool"},
		{"unknown", "(set-logic QF_UF)(assert (p true))", "f:1:27: unknown function symbol 'p'"},
		{"unknown const", "(set-logic QF_UF)(assert q)", "f:1:26: unknown constant 'q'"},
		{"arity", "(set-logic QF_UF)(declare-fun p (Bool) Bool)(assert (p true false))", "f:1:54: 'p': expects 1 argument, got 2"},
		{"arrays not in logic", "(set-logic QF_LIA)(declare-const a (Array Int Int))", "f:1:37: sort Array (ArraysEx) is not in logic QF_LIA"},
		{"bv not in logic", "(set-logic QF_LIA)(assert (= #b01 #b01))", "f:1:30: bit-vector literal in logic QF_LIA, which has no bit-vectors"},
		{"reals not in LIA", "(set-logic QF_LIA)(assert (< 1.5 2))", "f:1:30: decimal 1.5 in logic QF_LIA, which has no reals"},
		{"int in LRA is real", "(set-logic QF_LRA)(declare-const x Int)", "f:1:36: sort Int (Ints) is not in logic QF_LRA"},
		{"bv width", "(set-logic QF_BV)(declare-const x (_ BitVec 8))(assert (= x #b1))", "f:1:57: '=': arguments have different sorts: (_ BitVec 8) and (_ BitVec 1) (argument 2)"},
		{"extract", "(set-logic QF_BV)(declare-const x (_ BitVec 8))(assert (= ((_ extract 8 0) x) x))", "f:1:60: 'extract': indices must satisfy 8 > i >= j >= 0, got 8 0"},
		{"quantifier in QF", "(set-logic QF_UF)(assert (forall ((x Bool)) x))", "f:1:26: quantifier in quantifier-free logic QF_UF"},
		{"select", "(set-logic QF_AX)(declare-sort I 0)(declare-sort E 0)(declare-const a (Array I E))(declare-const e E)(assert (= e (select a e)))", "f:1:116: 'select': argument 2 has sort E, expected I (the index sort)"},
		{"pop removes", "(set-logic QF_UF)(push 1)(declare-const x Bool)(pop 1)(assert x)", "f:1:63: unknown constant 'x'"},
		{"redeclare", "(set-logic QF_UF)(declare-const x Bool)(declare-fun x () Bool)", "f:1:53: 'x' is already declared"},
		{"theory symbol", "(set-logic QF_LIA)(declare-fun + (Int Int) Int)", "f:1:32: '+' is already declared"},
		{"define-fun body", "(set-logic QF_LIA)(define-fun f ((x Int)) Bool (+ x 1))", "f:1:48: body of 'f' has sort Int, expected Bool"},
		{"variable scope", "(set-logic LIA)(assert (and (forall ((x Int)) (> x 0)) (> x 0)))", "f:1:59: unknown constant 'x'"},
		{"sort arity", "(set-logic QF_UF)(declare-sort U 1)(declare-const x U)", "f:1:53: sort 'U' takes 1 argument, got 0"},
		{"datatypes not in logic", "(set-logic QF_UF)(declare-datatype D ((a) (b)))", "f:1:36: datatypes are not in logic QF_UF"},
		{"ambiguous nil", "(set-logic ALL)(declare-datatype L (par (T) ((nil) (cons (hd T) (tl (L T))))))(assert (= nil nil))", "f:1:90: 'nil': has an ambiguous sort (L T): qualify it with (as nil S)"},
		{"tester", "(set-logic ALL)(declare-datatype D ((a) (b)))(assert ((_ is c) a))", "f:1:55: 'c' is not a constructor"},
		{"match", "(set-logic ALL)(declare-datatype D ((a) (b)))(assert (match a ((a 1) (b true))))", "f:1:73: match case has sort Bool, the first case Int"},
		{"fp rm", "(set-logic QF_FP)(declare-const x Float32)(assert (fp.isZero (fp.add x x x)))", "f:1:63: 'fp.add': argument 1 has sort (_ FloatingPoint 8 24), expected RoundingMode"},
		{"string", "(set-logic QF_S)(assert (str.in_re \"a\" \"a\"))", "f:1:26: 'str.in_re': argument 2 has sort String, expected RegLan"},
		{"named", "(set-logic QF_UF)(assert (! true :named a))(assert (! false :named a))", "f:1:68: 'a' is already declared"},
		{"applied variable", "(set-logic LIA)(assert (forall ((x Int)) (x 1)))", "f:1:43: 'x' is a variable and cannot be applied to arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse("f", []byte(tc.src), 0)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			_, err = Check(s, 0)
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if got := err.(ErrorList)[0].Error(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestCheckResult checks the sorts and references the checker records for
// lint.
func TestCheckResult(t *testing.T) {
	src := "(set-logic QF_UFLRA)(declare-fun f (Real) Real)(declare-const y Real)(assert (let ((z (* 2 y))) (< (f z) 1)))"
	s, err := Parse("f", []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Check(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	let := s.CmdArg(s.Commands()[3], 0)
	val := s.Arg(let, 1)  // (* 2 y)
	body := s.Arg(let, 2) // (< (f z) 1)
	fz := s.Arg(body, 0)  // (f z)
	z := s.Arg(fz, 0)     // z
	one := s.Arg(body, 1) // 1
	two := s.Arg(val, 0)  // 2
	for _, tc := range []struct {
		t    Term
		sort string
	}{{let, "Bool"}, {val, "Real"}, {fz, "Real"}, {z, "Real"}, {one, "Real"}, {two, "Real"}} {
		if got := c.SortString(c.SortOf(tc.t)); got != tc.sort {
			t.Errorf("%s: sort %s, want %s", s.TermString(tc.t), got, tc.sort)
		}
	}
	if r := c.Ref(z); r.Bind != BindLet || r.Value != val {
		t.Errorf("z: ref %+v, want let bound to (* 2 y)", r)
	}
	if r := c.Ref(s.Head(fz)); r.Bind != BindDeclared {
		t.Errorf("f: ref %+v, want declared", r)
	}
	if r := c.Ref(s.Head(val)); r.Bind != BindTheory || r.Theory != TheoryReals {
		t.Errorf("*: ref %+v, want Reals", r)
	}
	if !c.Used[TheoryUF] || !c.Used[TheoryReals] || c.Used[TheoryInts] {
		t.Errorf("used theories %v", c.Used)
	}
}

// TestParseLogic checks the decomposition of logic names.
func TestParseLogic(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Logic
	}{
		{"QF_LIA", Logic{Ints: true, Arith: ArithLinear}},
		{"QF_AUFLIRA", Logic{Arrays: true, UF: true, FreeSorts: true, Ints: true, Reals: true, Arith: ArithLinear}},
		{"UFIDL", Logic{Quantifiers: true, UF: true, FreeSorts: true, Ints: true, Arith: ArithDifference}},
		{"QF_RDL", Logic{Reals: true, Arith: ArithDifference}},
		{"QF_ABVFP", Logic{Arrays: true, BitVectors: true, Floats: true}},
		{"QF_SLIA", Logic{Strings: true, Ints: true, Arith: ArithLinear}},
		{"QF_AX", Logic{Arrays: true, FreeSorts: true}},
		{"NRA", Logic{Quantifiers: true, Reals: true, Arith: ArithNonlinear}},
		{"UFDTLIA", Logic{Quantifiers: true, UF: true, FreeSorts: true, Datatypes: true, Ints: true, Arith: ArithLinear}},
	} {
		got := ParseLogic(tc.name)
		tc.want.Name, tc.want.Known = tc.name, true
		if got != tc.want {
			t.Errorf("%s: got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
	if l := ParseLogic("QF_FOO"); l.Known || !l.Arrays {
		t.Errorf("unknown logic: %+v", l)
	}
}

// FuzzCheck checks that the sort checker never panics on what parses.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob("testdata/check/*.smt2")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("(declare-datatypes ((L 1)) ((par (T) ((n) (c (h T) (t (L T)))))))(assert ((_ is c) (as n (L Int))))"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, _ := Parse("fuzz", src, AllErrors)
		c, err := Check(s, AllErrors)
		if c == nil {
			t.Fatal("nil result")
		}
		if el, ok := err.(ErrorList); ok {
			for _, e := range el {
				if e.Pos.Offset < 0 || e.Pos.Offset > len(src) {
					t.Fatalf("error outside the input: %v", e)
				}
			}
		}
	})
}
