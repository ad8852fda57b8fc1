package smtlib

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/testenv"
)

// solvers are the installed solvers the tests run, with the arguments that
// make them read SMT-LIB 2 from a file or from stdin and answer every query.
var solvers = []struct {
	name string
	args []string
}{
	{"z3", nil},
	{"cvc4", []string{"--lang", "smt2", "--incremental"}},
	{"cvc5", []string{"--lang", "smt2", "--incremental"}},
}

func solverPath(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		testenv.Skipf(t, "needs the solver %s: %v", name, err)
	}
	return path
}

func kindsOf(rs []Response) string {
	var ks []string
	for _, r := range rs {
		ks = append(ks, r.Kind.String())
	}
	return strings.Join(ks, " ")
}

// TestSolverOutputs runs the solvers on the scripts in testdata/responses
// and checks what their answers read as, kinds and values.
func TestSolverOutputs(t *testing.T) {
	dir := filepath.Join("testdata", "responses")
	for _, sv := range solvers {
		t.Run(sv.name, func(t *testing.T) {
			path := solverPath(t, sv.name)
			run := func(t *testing.T, script string) []Response {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				cmd := exec.CommandContext(ctx, path, append(slices.Clone(sv.args), script)...)
				cmd.Dir = dir
				var out bytes.Buffer
				cmd.Stdout = &out
				// Solvers exit non-zero after errors; the output is what counts.
				if err := cmd.Run(); ctx.Err() != nil {
					t.Fatalf("%s %s: %v", sv.name, script, err)
				}
				rs, errs := ParseResponses(sv.name, out.Bytes())
				if len(errs) != 0 {
					t.Errorf("garbage in the output of %s: %v\n%s", sv.name, errs, out.Bytes())
				}
				checkCoverage(t, out.Bytes(), rs)
				return rs
			}
			t.Run("models", func(t *testing.T) {
				rs := run(t, "models.smt2")
				want := map[string]string{
					"z3":   "sat model values values info s-expression s-expression info unsat unsat-core unsat sat error",
					"cvc4": "sat model values values info s-expression s-expression error unsat unsat-core unsat sat error",
					"cvc5": "sat model values values info s-expression s-expression error unsat unsat-core unsat sat error",
				}[sv.name]
				if got := kindsOf(rs); got != want {
					t.Fatalf("kinds:\n got %s\nwant %s", got, want)
				}
				checkModelAnswers(t, sv.name, rs)
			})
			t.Run("errors", func(t *testing.T) {
				rs := run(t, "errors.smt2")
				if len(rs) == 0 || rs[0].Kind != RespError || !strings.Contains(rs[0].Message, `c"d`) {
					t.Fatalf("first answer %v, want an error about c\"d", rs)
				}
				if sv.name == "z3" { // cvc4 and cvc5 stop at the parse error
					if got, want := kindsOf(rs), "error error info sat error values s-expression s-expression s-expression"; got != want {
						t.Fatalf("kinds:\n got %s\nwant %s", got, want)
					}
					if !strings.Contains(rs[1].Message, "well_sorted_check") || !strings.HasSuffix(rs[1].Message, "(default: false)") {
						t.Errorf("multi-line error message cut: %q", rs[1].Message)
					}
					if v, ok := rs[2].Attr(":version"); !ok || v == "" {
						t.Errorf(":version %q %v", v, ok)
					}
					if v := rs[5].Values[0]; rs[5].Script.Name(v.Term) != `a"b` {
						t.Errorf("value of %s", rs[5].Script.TermString(v.Term))
					}
				}
			})
			t.Run("unknown", func(t *testing.T) {
				rs := run(t, "unknown.smt2")
				var answer, reason *Response
				for i := range rs {
					if rs[i].IsCheckSatAnswer() {
						answer = &rs[i]
					}
					if rs[i].Kind == RespInfo {
						reason = &rs[i]
					}
				}
				if answer == nil || answer.Status() == "sat" || reason == nil {
					t.Fatalf("kinds %s", kindsOf(rs))
				}
				if why, ok := reason.Attr(":reason-unknown"); !ok || answer.Kind == RespUnknown && why == "" {
					t.Errorf(":reason-unknown %q %v after %s", why, ok, answer.Status())
				}
			})
		})
	}
}

// checkModelAnswers checks the values that models.smt2 asks for.
func checkModelAnswers(t *testing.T, solver string, rs []Response) {
	t.Helper()
	m := rs[1]
	body := func(name string) (Term, bool) {
		d, ok := m.Lookup(name)
		if !ok {
			t.Errorf("%s: no definition of %s in the model", solver, name)
			return NoTerm, false
		}
		return d.Body, true
	}
	if b, ok := body("r"); ok {
		if s := m.Script.TermString(b); s != "(/ 1 3)" && s != "(/ 1.0 3.0)" {
			t.Errorf("r = %s", s)
		}
	}
	if b, ok := body("s"); ok && m.Script.Name(b) != `"a""b"` {
		t.Errorf("s = %s", m.Script.TermString(b))
	}
	if b, ok := body("bv"); ok {
		if v := bvValue(m.Script, b); v <= 0x10 {
			t.Errorf("bv = %s (%d), want > #x10", m.Script.TermString(b), v)
		}
	}
	if b, ok := body("l"); ok && !m.Script.IsSymbol(m.Script.Head(b), "cons") {
		t.Errorf("l = %s", m.Script.TermString(b))
	}
	u1, ok1 := body("u1")
	u2, ok2 := body("u2")
	if ok1 && ok2 && Equal(m.Script, u1, m.Script, u2) {
		t.Errorf("u1 and u2 are both %s", m.Script.TermString(u1))
	}
	if d, ok := m.Lookup("f"); ok && (len(d.Params) != 1 || !m.Script.IsSymbol(d.Params[0].Sort, "Int") || m.Script.Name(d.Body) != "7") {
		t.Errorf("f = %s", formatDef(m.Script, d))
	}
	if _, ok := body("a"); !ok {
		return
	}

	v := rs[2]
	if len(v.Values) != 8 {
		t.Fatalf("%d values, want 8", len(v.Values))
	}
	if s := v.Script.TermString(v.Values[6].Term) + " " + v.Script.TermString(v.Values[6].Value); s != "(f 3) 7" {
		t.Errorf("value %s", s)
	}
	if s := v.Script.TermString(v.Values[7].Value); s != "3" {
		t.Errorf("(+ 1 2) = %s", s)
	}
	if name, ok := rs[4].Attr(":name"); !ok || !strings.EqualFold(name, solver) {
		t.Errorf(":name %q", name)
	}
	core := rs[9].Core
	if len(core) == 0 {
		t.Error("empty unsat core")
	}
	for _, n := range core {
		if n != "neg" && n != "pos" && n != "s is zz" {
			t.Errorf("%q in the core", n)
		}
	}
	if last := rs[len(rs)-1]; !strings.Contains(last.Message, "undefined_x") {
		t.Errorf("last error %q", last.Message)
	}
}

// bvValue returns the value of a #x or #b literal, or -1.
func bvValue(s *Script, t Term) int64 {
	text := s.Name(t)
	base := 16
	if s.Kind(t) == KindBinary {
		base = 2
	} else if s.Kind(t) != KindHex {
		return -1
	}
	v, err := strconv.ParseInt(text[2:], base, 64)
	if err != nil {
		return -1
	}
	return v
}

// TestSolverInteractive talks to each solver over pipes as the runner
// will: one command, then its answer read from the stream as it comes.
func TestSolverInteractive(t *testing.T) {
	for _, sv := range solvers {
		t.Run(sv.name, func(t *testing.T) {
			path := solverPath(t, sv.name)
			args := sv.args
			if sv.name == "z3" {
				args = []string{"-in"}
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, path, args...)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				stdin.Close()
				cmd.Wait()
			}()
			rr := NewResponseReader(sv.name, stdout)
			ask := func(command string, want ResponseKind) Response {
				t.Helper()
				if _, err := io.WriteString(stdin, command+"\n"); err != nil {
					t.Fatal(err)
				}
				done := make(chan Response, 1)
				go func() {
					r, _ := rr.Next()
					done <- r
				}()
				select {
				case r := <-done:
					if r.Kind != want {
						t.Fatalf("%s: %s %q %s, want %s", command, r.Kind, r.Text, r.Message, want)
					}
					return r
				case <-time.After(30 * time.Second):
					t.Fatalf("%s: no answer", command)
				}
				return Response{}
			}
			io.WriteString(stdin, "(set-option :produce-models true)\n(set-logic ALL)\n"+
				"(declare-fun x () Int)\n(declare-fun b () (_ BitVec 4))\n(assert (> x 2))\n(assert (= b #xa))\n")
			ask("(check-sat)", RespSat)
			v := ask("(get-value (x b (+ x 1)))", RespValues)
			if got := formatResponse(v); !strings.Contains(got, "(b #b1010)") && !strings.Contains(got, "(b #xa)") {
				t.Errorf("values %s", got)
			}
			m := ask("(get-model)", RespModel)
			if _, ok := m.Lookup("x"); !ok {
				t.Errorf("no x in %s", formatResponse(m))
			}
			ask("(get-info :name)", RespInfo)
			ask(`(echo "sync")`, RespSExpr)
			io.WriteString(stdin, "(assert (< x 0))\n")
			ask("(check-sat)", RespUnsat)
			e := ask("(get-value (nope))", RespError) // cvc4 and cvc5 exit after it
			if !strings.Contains(e.Message, "nope") {
				t.Errorf("error %q", e.Message)
			}
		})
	}
}
