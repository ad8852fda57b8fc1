package smtlib

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// deepTerm returns a script asserting a term nested n levels deep, built
// from open and close around a core.
func deepScript(n int, open, core, close string) []byte {
	var b bytes.Buffer
	b.WriteString("(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert ")
	b.WriteString(strings.Repeat(open, n))
	b.WriteString(core)
	b.WriteString(strings.Repeat(close, n))
	b.WriteString(")\n(check-sat)\n")
	return b.Bytes()
}

// TestDeepNesting parses, prints, re-parses and compares terms nested a
// million levels deep, with the Go stack limited to 1 MB: any recursion on
// depth would overflow it. Nothing raises a ulimit.
func TestDeepNesting(t *testing.T) {
	if testing.Short() {
		t.Skip("deep nesting takes a few seconds")
	}
	old := debug.SetMaxStack(1 << 20)
	defer debug.SetMaxStack(old)
	const depth = 1_000_000
	cases := map[string][]byte{
		"not":     deepScript(depth, "(not ", "(= x 0)", ")"),
		"plus":    deepScript(depth, "(+ 1 ", "x", ")"),
		"let":     deepScript(depth, "(let ((y x)) ", "(= y 0)", ")"),
		"forall":  deepScript(depth, "(forall ((y Int)) ", "(= y 0)", ")"),
		"annot":   deepScript(depth, "(! ", "(= x 0)", " :weight 1)"),
		"pattern": deepScript(1, "(forall ((y Int)) (! (= y 0) :pattern (", strings.Repeat("(f ", depth)+"y"+strings.Repeat(")", depth), ")))"),
		"match":   deepScript(depth, "(match x ((y ", "(= y 0)", ")))"),
		"sort":    []byte("(declare-fun a () " + strings.Repeat("(Array Int ", depth) + "Int" + strings.Repeat(")", depth) + ")"),
		"sexpr":   []byte("(set-info :notes " + strings.Repeat("(", depth) + "a" + strings.Repeat(")", depth) + ")"),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			roundTrip(t, name, src)
			// The sort checker walks the same depth with its own stack.
			if s, err := Parse(name, src, 0); err == nil {
				Check(s, 0)
			}
			runtime.GC() // the freed arena must not crash the collector either
		})
	}
}

// TestParseErrors checks messages, positions, the cap and partial results.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
		cmds int // commands in the partial result
	}{
		{"(set-logic QF_LIA)\n(assert (and x\n(check-sat)\n",
			[]string{"f:3:1: expected ')', found 'check-sat' (missing ')' before this command?)"}, 2},
		{"(assert (+ 1 2)", []string{"f:1:16: expected ')', found end of file"}, 0},
		{"(assert x))\n(check-sat)", []string{"f:1:11: expected '(' to start a command, found ')'"}, 2},
		{"(frobnicate 1)\n(check-sat)", []string{"f:1:2: unknown command 'frobnicate'"}, 1},
		{"(assert (f))", []string{"f:1:11: an application needs at least one argument; write 'f' without parentheses"}, 0},
		{"(assert (let ((x 1)) ))", []string{"f:1:22: expected a term, found ')'"}, 0},
		{"(declare-fun let () Int)", []string{"f:1:14: expected a function name, found the reserved word 'let'"}, 0},
		{"(declare-sort U)", []string{"f:1:16: declare-sort needs the sort's arity, e.g. (declare-sort U 0)"}, 0},
		{"(assert #b012)", []string{"f:1:13: unexpected \"2\" in literal"}, 0},
		{"(assert \"abc)", []string{"f:1:9: string literal not terminated"}, 0},
		{"(push)", []string{"f:1:6: expected a numeral (the number of levels), found ')'"}, 0},
		{"(assert (! x))", []string{"f:1:13: '!' needs at least one attribute"}, 0},
		{"(assert ((f x) y))", []string{"f:1:11: expected '_' or 'as' (a function symbol in parentheses must be indexed or qualified), found 'f'"}, 0},
	} {
		s, err := Parse("f", []byte(tc.src), 0)
		if s == nil {
			t.Fatalf("%q: no partial result", tc.src)
		}
		var got []string
		if el, ok := err.(ErrorList); ok {
			for _, e := range el {
				got = append(got, e.Error())
			}
		}
		gotS, wantS := strings.Join(got, "\n"), strings.Join(tc.want, "\n")
		if gotS != wantS && !(len(tc.want) == 1 && len(got) > 0 && got[0] == tc.want[0]) {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, gotS, wantS)
		}
		if len(s.Commands()) != tc.cmds {
			t.Errorf("%q: %d commands in the partial result, want %d", tc.src, len(s.Commands()), tc.cmds)
		}
	}
}

func TestErrorCap(t *testing.T) {
	src := strings.Repeat("(frob)\n", 50)
	_, err := Parse("f", []byte(src), 0)
	if n := len(err.(ErrorList)); n != maxErrors {
		t.Errorf("%d errors, want the cap %d", n, maxErrors)
	}
	_, err = Parse("f", []byte(src), AllErrors)
	if n := len(err.(ErrorList)); n != 50 {
		t.Errorf("AllErrors: %d errors, want 50", n)
	}
}

// TestSyntaxCoverage round-trips every construct of the 2.6 grammar.
func TestSyntaxCoverage(t *testing.T) {
	src := `; a comment
(set-option :print-success false)
(set-option :produce-models true)
(set-info :smt-lib-version 2.6)
(set-info :source |multi
line source with "quotes"|)
(set-info :notes ("nested" (list :k 1.5) #x0F #b01))
(set-logic ALL)
(declare-sort U 0)
(define-sort Arr (X) (Array Int X))
(declare-fun f (U Int) Bool)
(declare-const |quoted sym| (_ BitVec 8))
(declare-const c U)
(define-fun g ((a Int) (b (Arr Int))) Int (+ a (select b a)))
(define-fun-rec fact ((n Int)) Int (ite (<= n 0) 1 (* n (fact (- n 1)))))
(define-funs-rec ((ev ((n Int)) Bool) (od ((n Int)) Bool)) ((ite (= n 0) true (od (- n 1))) (ite (= n 0) false (ev (- n 1)))))
(declare-datatype Color ((red) (green) (blue)))
(declare-datatypes ((List 1) (Tree 0)) ((par (T) ((nil) (cons (hd T) (tl (List T))))) ((leaf) (node (left Tree) (right Tree)))))
(push 1)
(assert (! (f c 3) :named a1))
(assert (forall ((x Int) (y Int)) (! (=> (> x y) (f c x)) :pattern ((g x (as const (Arr Int)))) :pattern ((fact y)) :weight 2)))
(assert (exists ((l (List Int))) (match l ((nil false) ((cons h t) (= h 0))))))
(assert (let ((p (= ((_ extract 3 0) |quoted sym|) #b0101)) (q (bvult |quoted sym| #x0f))) (and p q)))
(assert (= (str.++ "a""b" "c") (str.at "abc" 1)))
(assert (= ((_ to_fp 8 24) RNE 1.5) (fp #b0 #b01111111 #b10000000000000000000000)))
(assert (is-cons (as nil (List Int))))
(assert ((_ is cons) (cons 1 nil)))
(assert (= (_ char #x41) "A"))
(check-sat)
(check-sat-assuming (a1 (not a1)))
(get-value ((g 1 (as const (Arr Int))) c))
(get-assignment)
(get-model)
(get-unsat-core)
(get-unsat-assumptions)
(get-proof)
(get-info :reason-unknown)
(get-option :produce-models)
(get-assertions)
(echo "done ""now""")
(pop 1)
(reset-assertions)
(reset)
(exit)
`
	roundTrip(t, "coverage", []byte(src))
	s, _ := Parse("coverage", []byte(src), 0)
	seen := map[CommandKind]bool{}
	for _, c := range s.Commands() {
		seen[c.Kind] = true
	}
	for k := CmdAssert; k < numCommands; k++ {
		if !seen[k] {
			t.Errorf("command %s not covered", k)
		}
	}
	// |x| and x are one symbol.
	s, _ = Parse("q", []byte("(assert (= |abc| abc))"), 0)
	c := s.Commands()[0]
	eq := s.CmdArg(c, 0)
	if !Equal(s, s.Arg(eq, 0), s, s.Arg(eq, 1)) {
		t.Errorf("|abc| and abc differ")
	}
}

func TestPositions(t *testing.T) {
	src := "(set-logic QF_LIA)\n(assert\n  (and x\n       (f  y)))\n"
	s, err := Parse("p.smt2", []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Commands()[1]
	and := s.CmdArg(c, 0)
	fy := s.Arg(and, 1)
	for _, tc := range []struct {
		t    Term
		want string
	}{
		{and, "p.smt2:3:3"}, {s.Head(and), "p.smt2:3:4"}, {s.Arg(and, 0), "p.smt2:3:8"},
		{fy, "p.smt2:4:8"}, {s.Head(fy), "p.smt2:4:9"}, {s.Arg(fy, 0), "p.smt2:4:12"},
	} {
		if got := s.Position(s.Pos(tc.t)).String(); got != tc.want {
			t.Errorf("%s at %s, want %s", s.TermString(tc.t), got, tc.want)
		}
	}
	if got := s.Position(c.Pos).String(); got != "p.smt2:2:1" {
		t.Errorf("command at %s", got)
	}
}
