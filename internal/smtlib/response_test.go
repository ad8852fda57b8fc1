package smtlib

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// formatResponse prints a response in canonical form: what a solver would
// print for it, with terms as the printer writes them. Garbage prints as a
// comment, which reads back as nothing.
func formatResponse(r Response) string {
	s := r.Script
	var b strings.Builder
	switch r.Kind {
	case RespGarbage:
		return "; garbage: " + strings.ReplaceAll(r.Message, "\n", " ")
	case RespError:
		return `(error "` + strings.ReplaceAll(r.Message, `"`, `""`) + `")`
	case RespValues:
		b.WriteByte('(')
		for i, v := range r.Values {
			if i > 0 {
				b.WriteString("\n ")
			}
			b.WriteString("(" + s.TermString(v.Term) + " " + s.TermString(v.Value) + ")")
		}
		b.WriteByte(')')
	case RespInfo:
		b.WriteByte('(')
		for i, a := range r.Attrs {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(a.Keyword)
			if s.Kind(a.Value) != KindNone {
				b.WriteString(" " + s.TermString(a.Value))
			}
		}
		b.WriteByte(')')
	case RespUnsatCore:
		b.WriteByte('(')
		for i, n := range r.Core {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(QuoteSymbol(n))
		}
		b.WriteByte(')')
	case RespModel:
		b.WriteByte('(')
		for _, c := range s.Commands() {
			b.WriteString("\n  ")
			if c.Kind == CmdAssert {
				b.WriteString(s.TermString(s.CmdArg(c, 0)))
			} else {
				b.WriteString(s.CommandString(c))
			}
		}
		b.WriteString("\n)")
	case RespSExpr:
		return s.TermString(r.Term)
	default:
		return r.Kind.String()
	}
	return b.String()
}

// parseOne parses src, which must hold exactly one response.
func parseOne(t *testing.T, src string) Response {
	t.Helper()
	rs, _ := ParseResponses("t", []byte(src))
	if len(rs) != 1 {
		var kinds []string
		for _, r := range rs {
			kinds = append(kinds, r.Kind.String()+" "+r.Message)
		}
		t.Fatalf("%q: %d responses %v, want 1", src, len(rs), kinds)
	}
	return rs[0]
}

func TestResponseKinds(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		kind      ResponseKind
		want      string // formatResponse of the result
	}{
		{"success", "success\n", RespSuccess, "success"},
		{"sat", "sat\n", RespSat, "sat"},
		{"unsat", "unsat", RespUnsat, "unsat"},
		{"unknown", "  unknown  \n", RespUnknown, "unknown"},
		{"unsupported", "unsupported\n", RespUnsupported, "unsupported"},
		{"error", `(error "line 1 column 5: unknown constant x")`, RespError, `(error "line 1 column 5: unknown constant x")`},
		{"error without string", `(error oops 1)`, RespError, `(error "oops 1")`},
		{"values", "((x 1) ((f x) (- 2)) (a ((as const (Array Int Int)) 0)))", RespValues,
			"((x 1)\n ((f x) (- 2))\n (a ((as const (Array Int Int)) 0)))"},
		{"assignment", "((a true) (|b c| false))", RespValues, "((a true)\n (|b c| false))"},
		{"values with lambda", "((a (lambda ((x Int)) (ite (= x 1) 5 0))))", RespValues, "((a (lambda ((x Int)) (ite (= x 1) 5 0))))"},
		{"info", `(:name "Z3")`, RespInfo, `(:name "Z3")`},
		{"info many", "(:reason-unknown incomplete :flag :time 0.5 :nested (a (b)))", RespInfo,
			"(:reason-unknown incomplete :flag :time 0.5 :nested (a (b)))"},
		{"unsat core", "(a1 |a 2| a3)", RespUnsatCore, "(a1 |a 2| a3)"},
		{"unsat core on lines", "(\n|a 2|\na1\n)", RespUnsatCore, "(|a 2| a1)"},
		{"model", "(\n  (define-fun x () Int 1)\n  (define-fun f ((a Int) (b Bool)) Int (ite b a 0))\n)", RespModel,
			"(\n  (define-fun x () Int 1)\n  (define-fun f ((a Int) (b Bool)) Int (ite b a 0))\n)"},
		{"old model", "(model (define-fun x () Int 1))", RespModel, "(\n  (define-fun x () Int 1)\n)"},
		{"empty old model", "(model)", RespModel, "(\n)"},
		{"echo string", `"marker"`, RespSExpr, `"marker"`},
		{"echo symbol", "marker", RespSExpr, "marker"},
		{"option value", "true", RespSExpr, "true"},
		{"numeral", "42", RespSExpr, "42"},
		{"empty list", "()", RespSExpr, "()"},
		{"objectives", "(objectives ((x 3)))", RespSExpr, "(objectives ((x 3)))"},
		{"unsat assumptions", "(a (not b))", RespSExpr, "(a (not b))"},
		{"keyword", ":all", RespSExpr, ":all"},
		{"escaped string in info", `(:authors "say \"hi\" (or not) \\ ok")`, RespInfo, `(:authors "say ""hi"" (or not) \ ok")`},
		{"echo with backslashes", `"hi \"there\""`, RespSExpr, `"hi ""there"""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := parseOne(t, tc.src)
			if r.Kind != tc.kind {
				t.Fatalf("%q: kind %s (%s), want %s", tc.src, r.Kind, r.Message, tc.kind)
			}
			if got := formatResponse(r); got != tc.want {
				t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
			}
			if r.Text != strings.TrimSpace(tc.src) {
				t.Errorf("Text %q, want %q", r.Text, strings.TrimSpace(tc.src))
			}
			if r.Err() != nil {
				t.Errorf("Err() = %v for a good response", r.Err())
			}
		})
	}
}

func TestCheckSatHelpers(t *testing.T) {
	for _, tc := range []struct {
		src    string
		answer bool
		status string
	}{
		{"sat", true, "sat"}, {"unsat", true, "unsat"}, {"unknown", true, "unknown"},
		{"success", false, ""}, {"unsupported", false, ""}, {`(error "x")`, false, ""},
		{"timeout", false, ""}, {"|sat|", false, ""}, {"satx", false, ""},
	} {
		r := parseOne(t, tc.src)
		if r.IsCheckSatAnswer() != tc.answer || r.Status() != tc.status {
			t.Errorf("%q: IsCheckSatAnswer %v Status %q, want %v %q", tc.src, r.IsCheckSatAnswer(), r.Status(), tc.answer, tc.status)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	for _, tc := range []struct{ name, src, msg string }{
		{"plain", `(error "boom")`, "boom"},
		{"2.6 escapes", `(error "unknown constant ""x""")`, `unknown constant "x"`},
		{"2.6 escapes before the end", `(error "a "")"" b")`, `a ")" b`},
		{"backslash escapes (z3)", `(error "line 5 column 17: unknown constant c\"d")`, `line 5 column 17: unknown constant c"d`},
		{"raw quotes (cvc5)", "(error \"Parse Error: f.smt2:5.22: Symbol c\"d is not declared.\n\n  (assert (= |a\"b| |c\"d|))\n                      ^\n\")",
			"Parse Error: f.smt2:5.22: Symbol c\"d is not declared.\n\n  (assert (= |a\"b| |c\"d|))\n                      ^\n"},
		{"multi-line", "(error \"line 1\nline 2\")", "line 1\nline 2"},
		{"spaces", "( error  \"x\" )", "x"},
		{"empty", `(error "")`, ""},
		{"ends with a quote", `(error "say """)`, `say "`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := parseOne(t, tc.src+"\n")
			if r.Kind != RespError || r.Message != tc.msg {
				t.Errorf("%q: %s %q, want error %q", tc.src, r.Kind, r.Message, tc.msg)
			}
		})
	}
	// The error ends at the first '")' that ends a line, so what follows on
	// later lines is read on its own.
	rs, errs := ParseResponses("t", []byte("(error \"a\"b\")\nsat\n(error \"c\")\n"))
	if len(errs) != 0 || len(rs) != 3 || rs[0].Message != `a"b` || rs[1].Kind != RespSat || rs[2].Message != "c" {
		t.Errorf("got %v %v", rs, errs)
	}
}

func TestModels(t *testing.T) {
	z3 := `(
  ;; universe for U:
  ;;   U!val!1 U!val!0
  ;; definitions for universe elements:
  (declare-fun U!val!1 () U)
  (declare-fun U!val!0 () U)
  ;; cardinality constraint:
  (forall ((x U)) (or (= x U!val!1) (= x U!val!0)))
  (define-fun u1 () U
    U!val!0)
  (define-fun a () (Array Int Int)
    (_ as-array k!0))
  (define-fun k!0 ((x!0 Int)) Int
    (ite (= x!0 1) 5 0))
  (define-fun g ((x!0 Int)) Int (lambda ((y Int)) y))
)`
	cvc4 := `(model
; cardinality of U is 2
(declare-sort U 0)
; rep: @uc_U_0
(define-fun u1 () U @uc_U_0)
(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(define-fun l () L (cons (- 1) nil))
(define-fun-rec fact ((n Int)) Int (ite (<= n 0) 1 (* n (fact (- n 1)))))
(define-funs-rec ((ev ((n Int)) Bool) (od ((n Int)) Bool)) ((ite (= n 0) true (od (- n 1))) (ite (= n 0) false (ev (- n 1)))))
(declare-const c Int)
(define-sort S () Int)
)`
	for _, tc := range []struct {
		name, src string
		defs      []string // name: kind params -> sort = body
		cmds      int
	}{
		{"z3", z3, []string{
			"U!val!1: declare-fun () -> U = -",
			"U!val!0: declare-fun () -> U = -",
			"u1: define-fun () -> U = U!val!0",
			"a: define-fun () -> (Array Int Int) = (_ as-array k!0)",
			"k!0: define-fun (x!0 Int) -> Int = (ite (= x!0 1) 5 0)",
			"g: define-fun (x!0 Int) -> Int = (lambda ((y Int)) y)",
		}, 7},
		{"cvc4", cvc4, []string{
			"U: declare-sort () -> - = -",
			"u1: define-fun () -> U = @uc_U_0",
			"l: define-fun () -> L = (cons (- 1) nil)",
			"fact: define-fun-rec (n Int) -> Int = (ite (<= n 0) 1 (* n (fact (- n 1))))",
			"ev: define-funs-rec (n Int) -> Bool = (ite (= n 0) true (od (- n 1)))",
			"od: define-funs-rec (n Int) -> Bool = (ite (= n 0) false (ev (- n 1)))",
			"c: declare-const () -> Int = -",
		}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := parseOne(t, tc.src)
			if r.Kind != RespModel {
				t.Fatalf("kind %s: %s", r.Kind, r.Message)
			}
			var got []string
			for _, d := range r.Defs {
				got = append(got, formatDef(r.Script, d))
			}
			if g, w := strings.Join(got, "\n"), strings.Join(tc.defs, "\n"); g != w {
				t.Errorf("definitions:\n%s\nwant\n%s", g, w)
			}
			if n := len(r.Script.Commands()); n != tc.cmds {
				t.Errorf("%d commands, want %d", n, tc.cmds)
			}
			for _, want := range tc.defs {
				name := want[:strings.IndexByte(want, ':')]
				d, ok := r.Lookup(name)
				if !ok || d.Name != name {
					t.Errorf("Lookup(%q) = %v, %v", name, d.Name, ok)
				}
			}
			if _, ok := r.Lookup("nope"); ok {
				t.Error("Lookup found an undefined name")
			}
		})
	}
	// Positions of model terms are positions in the stream.
	rs, _ := ParseResponses("out", []byte("sat\n(\n  (define-fun x () Int\n    42)\n)\n"))
	d, _ := rs[1].Lookup("x")
	if got := rs[1].Script.Position(rs[1].Script.Pos(d.Body)).String(); got != "out:4:5" {
		t.Errorf("body at %s, want out:4:5", got)
	}
	if got := rs[1].Script.Position(d.Pos).String(); got != "out:3:3" {
		t.Errorf("definition at %s, want out:3:3", got)
	}
}

func formatDef(s *Script, d Definition) string {
	str := func(t Term) string {
		if t == NoTerm {
			return "-"
		}
		return s.TermString(t)
	}
	var ps []string
	for _, p := range d.Params {
		ps = append(ps, strings.TrimSpace(p.Name+" "+str(p.Sort)))
	}
	return fmt.Sprintf("%s: %s (%s) -> %s = %s", d.Name, d.Kind, strings.Join(ps, ", "), str(d.Sort), str(d.Body))
}

func TestAs(t *testing.T) {
	for _, tc := range []struct {
		src  string
		as   ResponseKind
		want string // formatResponse, or "error"
	}{
		{"()", RespModel, "(\n)"},
		{"()", RespUnsatCore, "()"},
		{"()", RespValues, "()"},
		{"()", RespInfo, "()"},
		{"()", RespSExpr, "()"},
		{"()", RespSat, "error"},
		{"()", RespError, "error"},
		{"sat", RespSExpr, "sat"},
		{"sat", RespModel, "error"},
		{"((a b))", RespSExpr, "((a b))"},
		{"((a b))", RespModel, "error"},
		{"((not a) (f x))", RespSExpr, "((not a) (f x))"},
		{"(a b)", RespValues, "error"},
		{`(error "x")`, RespSExpr, `(error "x")`},
		{"(model (define-fun x () Int 1))", RespSExpr, "(model (|define-fun| x () Int 1))"},
		{"#x1", RespGarbage, "error"},
	} {
		r := parseOne(t, tc.src)
		got, err := r.As(tc.as)
		switch {
		case tc.want == "error":
			if err == nil {
				t.Errorf("%q as %s: no error, got %s", tc.src, tc.as, got.Kind)
			}
		case err != nil:
			t.Errorf("%q as %s: %v", tc.src, tc.as, err)
		case got.Kind != tc.as || formatResponse(got) != tc.want:
			t.Errorf("%q as %s: %s %q, want %q", tc.src, tc.as, got.Kind, formatResponse(got), tc.want)
		case got.Pos != r.Pos || got.End != r.End:
			t.Errorf("%q as %s: positions changed", tc.src, tc.as)
		}
	}
	g := parseOne(t, "12abc")
	if _, err := g.As(RespSExpr); err == nil {
		t.Error("garbage read as an s-expression")
	}
}

func TestGarbage(t *testing.T) {
	type want struct {
		kind ResponseKind
		text string // Text, or Message for garbage
		pos  string
	}
	for _, tc := range []struct {
		name, src string
		want      []want
	}{
		{"junk between answers", "sat\nthis is 12abc junk\nunsat\n", []want{
			{RespSat, "sat", "1:1"}, {RespSExpr, "this", "2:1"}, {RespSExpr, "is", "2:6"},
			{RespGarbage, `symbols cannot start with a digit: "12abc"`, "2:9"}, {RespUnsat, "unsat", "3:1"}}},
		{"unclosed error at the end", "sat\n(error", []want{
			{RespSat, "sat", "1:1"}, {RespGarbage, "missing ')' at the end of the input (1 unclosed)", "2:1"}}},
		{"unclosed error line then answers", "(error \"x\"\nsat\n", []want{
			{RespGarbage, `error message not terminated: missing '")' at the end of a line`, "1:1"}, {RespSat, "sat", "2:1"}}},
		{"unclosed list line then answers", "(model (define-fun x () Int 1)\nsat\n", []want{
			{RespGarbage, "missing ')' at the end of the input (1 unclosed)", "1:1"}, {RespSat, "sat", "2:1"}}},
		{"unterminated error message", "(error \"x\nsat\n", []want{
			{RespGarbage, `error message not terminated: missing '")' at the end of a line`, "1:1"}, {RespSat, "sat", "2:1"}}},
		{"stray close", "))) sat\nunsat\n", []want{{RespGarbage, "unexpected ')'", "1:1"}, {RespUnsat, "unsat", "2:1"}}},
		{"binary", "\x00\x01\xff(sat)\nsat", []want{{RespGarbage, `unexpected character '\x00'`, "1:1"}, {RespSat, "sat", "2:1"}}},
		{"bad literal in a list", "((x #b012))\nsat\n", []want{{RespGarbage, `unexpected "2" in literal`, "1:9"}, {RespSat, "sat", "2:1"}}},
		{"unterminated string", "\"abc\nsat\n", []want{{RespGarbage, "string literal not terminated", "1:1"}, {RespSat, "sat", "2:1"}}},
		{"unterminated string in a list", "(:a \"abc\n", []want{{RespGarbage, "string literal not terminated", "1:1"}}},
		{"unterminated quoted symbol", "|abc\nsat\n", []want{{RespGarbage, "quoted symbol not terminated", "1:1"}, {RespSat, "sat", "2:1"}}},
		{"comments and blanks only", "; nothing\n  \t\r\n; more", nil},
		{"garbage keeps columns", "  sat #\n", []want{{RespSat, "sat", "1:3"}, {RespGarbage, "'#' must be followed by 'x' or 'b'", "1:7"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, errs := ParseResponses("g", []byte(tc.src))
			var got []want
			for _, r := range rs {
				w := want{r.Kind, r.Text, fmt.Sprintf("%d:%d", r.Pos.Line, r.Pos.Column)}
				if r.Kind == RespGarbage {
					// Where the problem is, which may be inside.
					e := r.Err().(*Error)
					w.text, w.pos = r.Message, fmt.Sprintf("%d:%d", e.Pos.Line, e.Pos.Column)
				}
				got = append(got, w)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("%q:\n got %v\nwant %v", tc.src, got, tc.want)
			}
			n := 0
			for _, r := range rs {
				if r.Kind == RespGarbage {
					var e *Error
					if !errors.As(r.Err(), &e) || e.Pos.Filename != "g" || e.Pos.Line < 1 {
						t.Errorf("Err() = %v", r.Err())
					}
					n++
				}
			}
			if len(errs) != n {
				t.Errorf("%d errors for %d garbage responses", len(errs), n)
			}
			checkCoverage(t, []byte(tc.src), rs)
		})
	}
}

func TestOverlongResponse(t *testing.T) {
	big := "((x " + strings.Repeat("(+ 1 ", 5000) + "0" + strings.Repeat(")", 5000) + "))"
	line := strings.Repeat("z", 50000) + "\x00"
	src := "sat\n" + big + "\nunsat\n" + line + "\nsat\n"
	for _, reader := range []string{"chunks", "whole"} {
		t.Run(reader, func(t *testing.T) {
			var r io.Reader = strings.NewReader(src)
			if reader == "chunks" {
				r = iotest.HalfReader(r)
			}
			rr := NewResponseReader("big", r)
			rr.MaxSize = 1000
			var kinds []string
			for {
				resp, err := rr.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				kinds = append(kinds, resp.Kind.String())
				if resp.Kind == RespGarbage {
					if !strings.HasPrefix(resp.Message, "response longer than 1000 bytes") || len(resp.Text) > 1000 {
						t.Errorf("garbage %q with %d bytes of text", resp.Message, len(resp.Text))
					}
					if resp.End.Line != resp.Pos.Line {
						t.Errorf("garbage from %s to %s", resp.Pos, resp.End)
					}
				}
				if cap(rr.buf) > 1<<20 {
					t.Errorf("buffer grew to %d bytes", cap(rr.buf))
				}
			}
			if got := strings.Join(kinds, " "); got != "sat garbage unsat garbage sat" {
				t.Errorf("got %s", got)
			}
		})
	}
}

// TestManyUnclosed reads input where every line opens a response that
// never closes. Each would scan to the end of the input; after a budget
// linear in the input's size, the rest becomes one garbage response.
func TestManyUnclosed(t *testing.T) {
	for _, line := range []string{"(\n", "(error \"x\n", "(|\n"} {
		src := []byte(strings.Repeat(line, 100_000) + "sat\n")
		rs, errs := ParseResponses("u", src)
		checkCoverage(t, src, rs)
		last := rs[len(rs)-1]
		if len(rs) < 2 || len(rs) > 1000 || len(errs) != len(rs) || !strings.Contains(last.Message, "skipping the rest") {
			t.Errorf("%q: %d responses, the last %s %q", line, len(rs), last.Kind, last.Message)
		}
		// A few unclosed lines are each skipped on their own.
		rs, _ = ParseResponses("u", []byte(strings.Repeat(line, 5)+"sat\n"))
		if len(rs) != 6 || rs[5].Kind != RespSat {
			t.Errorf("%q: %d responses", line, len(rs))
		}
	}
}

// checkCoverage checks that the responses cover the input: in order, with
// their text, with positions that agree with the input's lines, and with
// only white space and comments between them.
func checkCoverage(t *testing.T, src []byte, rs []Response) {
	t.Helper()
	file := NewFile("", src)
	prev := 0
	for _, r := range rs {
		start, end := r.Pos.Offset, r.End.Offset
		if start < prev || end < start || end > len(src) {
			t.Fatalf("response %s at [%d,%d) after %d in %d bytes", r.Kind, start, end, prev, len(src))
		}
		gap := src[prev:start]
		var sc scanner
		bad := false
		sc.init(gap, func(Pos, string) { bad = true })
		if tok := sc.next(); tok.kind != tokEOF || bad {
			t.Fatalf("bytes %d..%d (%q) belong to no response", prev, start, gap)
		}
		if r.Text != string(src[start:end]) {
			t.Fatalf("Text %q, but the input there is %q", r.Text, src[start:end])
		}
		for _, p := range []Position{r.Pos, r.End} {
			want := file.Position(Pos(p.Offset + 1))
			if p.Line != want.Line || p.Column != want.Column {
				t.Fatalf("position %d:%d for offset %d, want %d:%d", p.Line, p.Column, p.Offset, want.Line, want.Column)
			}
		}
		prev = end
	}
	var sc scanner
	bad := false
	sc.init(src[prev:], func(Pos, string) { bad = true })
	if tok := sc.next(); tok.kind != tokEOF || bad {
		t.Fatalf("bytes from %d (%q) belong to no response", prev, src[prev:])
	}
}

// TestResponseDeepNesting reads a get-value answer whose value is nested a
// million levels deep, with the Go stack limited to 1 MB.
func TestResponseDeepNesting(t *testing.T) {
	if testing.Short() {
		t.Skip("deep nesting takes a few seconds")
	}
	old := debug.SetMaxStack(1 << 20)
	defer debug.SetMaxStack(old)
	const depth = 1_000_000
	deep := func(open, core, close string) string {
		return strings.Repeat(open, depth) + core + strings.Repeat(close, depth)
	}
	for _, tc := range []struct {
		name, src string
		kind      ResponseKind
	}{
		{"value", "((x " + deep("(+ 1 ", "0", ")") + "))", RespValues},
		{"sexpr", deep("(", "a", ")"), RespSExpr},
		{"model", "((define-fun x () Int " + deep("(- ", "1", ")") + "))", RespModel},
		{"unclosed", deep("(", "a", ""), RespGarbage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, stream := range []bool{false, true} {
				var rs []Response
				if stream {
					rr := NewResponseReader("deep", strings.NewReader(tc.src+"\nsat\n"))
					for {
						r, err := rr.Next()
						if err != nil {
							break
						}
						rs = append(rs, r)
					}
				} else {
					rs, _ = ParseResponses("deep", []byte(tc.src+"\nsat\n"))
				}
				if len(rs) != 2 || rs[0].Kind != tc.kind || rs[1].Kind != RespSat {
					t.Fatalf("got %d responses, the first %s", len(rs), rs[0].Kind)
				}
			}
			r := parseOne(t, tc.src)
			if r.Kind == RespGarbage {
				return
			}
			printed := formatResponse(r)
			r2 := parseOne(t, printed)
			checkSameResponse(t, r, r2)
		})
	}
}

// checkSameResponse checks that b, read from the print of a, holds the same
// answer.
func checkSameResponse(t *testing.T, a, b Response) {
	t.Helper()
	b, err := b.As(a.Kind)
	if err != nil {
		t.Fatalf("the print of a %s response reads back as %s: %v\n%s", a.Kind, b.Kind, err, formatResponse(a))
	}
	same := func(x, y Term) bool {
		// Values that are not 2.6 terms were read as s-expressions; a
		// quoted reserved word in them may read back as a term, so those
		// compare by their print.
		return Equal(a.Script, x, b.Script, y) || a.Script.TermString(x) == b.Script.TermString(y)
	}
	ok := a.Message == b.Message && fmt.Sprint(a.Core) == fmt.Sprint(b.Core) &&
		len(a.Values) == len(b.Values) && len(a.Attrs) == len(b.Attrs) && len(a.Defs) == len(b.Defs)
	for i := 0; ok && i < len(a.Values); i++ {
		ok = same(a.Values[i].Term, b.Values[i].Term) && same(a.Values[i].Value, b.Values[i].Value)
	}
	for i := 0; ok && i < len(a.Attrs); i++ {
		ok = a.Attrs[i].Keyword == b.Attrs[i].Keyword && same(a.Attrs[i].Value, b.Attrs[i].Value)
	}
	if ok && a.Kind == RespModel {
		ok = len(a.Script.Commands()) == len(b.Script.Commands())
		for i := 0; ok && i < len(a.Script.Commands()); i++ {
			ca, cb := a.Script.Commands()[i], b.Script.Commands()[i]
			ok = ca.Kind == cb.Kind && a.Script.CmdNumArgs(ca) == b.Script.CmdNumArgs(cb)
			for j := 0; ok && j < a.Script.CmdNumArgs(ca); j++ {
				ok = same(a.Script.CmdArg(ca, j), b.Script.CmdArg(cb, j))
			}
		}
	}
	if ok && a.Kind == RespSExpr {
		ok = same(a.Term, b.Term)
	}
	if !ok {
		t.Fatalf("a %s response changes when printed and read back:\n%s\n%s", a.Kind, clip(formatResponse(a)), clip(formatResponse(b)))
	}
}

// goldenOutputs are solver outputs captured from the scripts beside them.
func goldenOutputs(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "responses", "*.out"))
	if err != nil || len(files) < 9 {
		t.Fatalf("found %d solver outputs: %v", len(files), err)
	}
	return files
}

// dumpResponses describes responses for the golden files: position, kind,
// canonical print.
func dumpResponses(rs []Response) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%d:%d %s\n", r.Pos.Line, r.Pos.Column, r.Kind)
		if r.Kind == RespSat || r.Kind == RespUnsat || r.Kind == RespUnknown || r.Kind == RespSuccess || r.Kind == RespUnsupported {
			continue
		}
		for _, line := range strings.Split(formatResponse(r), "\n") {
			b.WriteString("\t" + line + "\n")
		}
		for _, d := range r.Defs {
			b.WriteString("\tdef " + formatDef(r.Script, d) + "\n")
		}
	}
	return b.String()
}

// TestGoldenOutputs reads captured outputs of z3, cvc4 and cvc5 and compares
// what it reads with the .golden files (go test -update rewrites them).
func TestGoldenOutputs(t *testing.T) {
	for _, f := range goldenOutputs(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rs, errs := ParseResponses(filepath.Base(f), src)
			if len(errs) != 0 {
				t.Errorf("garbage in a solver's output: %v", errs)
			}
			checkCoverage(t, src, rs)
			got := dumpResponses(rs)
			golden := strings.TrimSuffix(f, ".out") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("responses differ from %s (go test -update rewrites it):\n%s", golden, got)
			}
			for _, r := range rs {
				checkSameResponse(t, r, parseOne(t, formatResponse(r)))
			}
		})
	}
}

// TestStreaming reads every captured output through readers that return one
// byte, or half of what is asked, at a time, and checks that the responses
// are those that ParseResponses finds.
func TestStreaming(t *testing.T) {
	var all []byte
	for _, f := range goldenOutputs(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, src...)
		all = append(all, "junk 12x (error\n)\n"...)
	}
	want, _ := ParseResponses("s", all)
	for name, wrap := range map[string]func(io.Reader) io.Reader{
		"one byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
		"data+EOF": iotest.DataErrReader,
	} {
		t.Run(name, func(t *testing.T) {
			rr := NewResponseReader("s", wrap(bytes.NewReader(all)))
			var got []Response
			for {
				r, err := rr.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, r)
			}
			if len(got) != len(want) {
				t.Fatalf("%d responses, want %d", len(got), len(want))
			}
			for i := range got {
				g, w := got[i], want[i]
				if g.Kind != w.Kind || g.Pos != w.Pos || g.End != w.End || g.Text != w.Text || g.Message != w.Message ||
					formatResponse(g) != formatResponse(w) {
					t.Fatalf("response %d: %s at %s, want %s at %s", i, g.Kind, g.Pos, w.Kind, w.Pos)
				}
			}
			checkCoverage(t, all, got)
		})
	}
}

// TestInteractive checks that Next returns a response as soon as its last
// line is in, without waiting for more output: a solver waits for its next
// command after answering.
func TestInteractive(t *testing.T) {
	pr, pw := io.Pipe()
	rr := NewResponseReader("pipe", pr)
	answers := []string{"sat\n", "(\n  (define-fun x () Int 1)\n)\n", `(error "no ""model""")` + "\n", "\"marker\"\n",
		"(error \"line 5 column 17: unknown constant c\\\"d\")\n", "((x 1))\n", "unknown ; comment\n", "(:name \"x\")"}
	// The writer writes one answer when told, a byte at a time; bytes after
	// the response's end stay unread until the next Next.
	next := make(chan string)
	go func() {
		for a := range next {
			for i := 0; i < len(a); i++ {
				pw.Write([]byte{a[i]})
			}
		}
		pw.Close()
	}()
	for _, a := range answers {
		done := make(chan Response, 1)
		go func() {
			r, _ := rr.Next()
			done <- r
		}()
		next <- a
		select {
		case r := <-done:
			if r.Kind == RespGarbage || r.Text != strings.TrimSpace(strings.TrimSuffix(a, "; comment\n")) {
				t.Errorf("%q: got %s %q %s", a, r.Kind, r.Text, r.Message)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q: Next waits for more than the response", a)
		}
	}
	close(next)
	if _, err := rr.Next(); err != io.EOF {
		t.Errorf("after the last response: %v, want EOF", err)
	}
}

// TestReadError checks that a failing reader ends the stream with its
// error, after the responses read before it.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	rr := NewResponseReader("e", io.MultiReader(strings.NewReader("sat\n(model"), iotest.ErrReader(boom)))
	r, err := rr.Next()
	if err != nil || r.Kind != RespSat {
		t.Fatalf("first: %s %v", r.Kind, err)
	}
	r, err = rr.Next()
	if err != nil || r.Kind != RespGarbage {
		t.Fatalf("second: %s %v", r.Kind, err)
	}
	if _, err = rr.Next(); !errors.Is(err, boom) {
		t.Fatalf("third: %v, want boom", err)
	}
}
