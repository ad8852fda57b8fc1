package model

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/scramble"
	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/smtarena/smtarena/internal/testenv"
)

// The 2022 model-validation track's logics (§6).
var mvLogics = []string{"QF_BV", "QF_IDL", "QF_RDL", "QF_LIA", "QF_LRA", "QF_LIRA", "QF_UF",
	"QF_UFBV", "QF_UFIDL", "QF_UFLIA", "QF_UFLRA", "QF_ABV", "QF_AUFLIA"}

// solverLimit is the solvers' own time limit in solverArgs.
const solverLimit = 5 * time.Second

var solverArgs = map[string][]string{
	"z3":   {"z3", "-T:5"},
	"cvc5": {"cvc5", "--tlimit=5000"},
	"cvc4": {"cvc4", "--tlimit=5000"},
}

// solverCmd is how runSolver starts a solver (cvc5-fp: cvc5 with its
// floating-point solver for any format).
var solverCmd = map[string][]string{"cvc5-fp": {"cvc5", "--tlimit=5000", "--fp-exp"}}

// z3Timeout finds the "timeout" z3 prints where its limit struck, also in
// the middle of a model.
var z3Timeout = regexp.MustCompile(`(?m)^\s*timeout\s*$`)

// satBenchmarks lists the shared sat benchmarks of the model-validation
// logics (and the array logics, which the validator takes too).
func satBenchmarks(t *testing.T) []string {
	root := testenv.Shared(t, "benchmarks/non-incremental")
	var out []string
	for _, l := range mvLogics {
		if _, err := os.Stat(filepath.Join(root, l)); err != nil {
			continue // no benchmarks of this logic in the shared set
		}
		for _, f := range testenv.Files(t, filepath.Join(root, l), ".smt2") {
			meta, err := smtlib.ScanMetaFile(f)
			if err == nil && meta.Status == "sat" {
				out = append(out, f)
			}
		}
	}
	return out
}

// modelInput is the benchmark as the track gives it to a solver: the
// scrambler's model-validation mode without renaming.
func modelInput(t testing.TB, file string) []byte {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := scramble.Scramble(&buf, bytes.NewReader(src), file, scramble.Options{Track: scramble.ModelValidation, SupportNonSMTCOMP: true}); err != nil {
		t.Fatalf("scramble %s: %v", file, err)
	}
	return buf.Bytes()
}

func runSolver(t testing.TB, solver string, input []byte) []byte {
	args := solverArgs[solver]
	if a, ok := solverCmd[solver]; ok {
		args = a
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	var cmd *exec.Cmd
	if args[0] == "z3" {
		cmd = exec.CommandContext(ctx, args[0], append(args[1:], "-in", "-smt2")...)
	} else {
		cmd = exec.CommandContext(ctx, args[0], append(args[1:], "--lang=smt2")...)
	}
	cmd.Stdin = bytes.NewReader(input)
	out, _ := cmd.Output()
	if ctx.Err() != nil {
		return nil // killed at the limit, maybe in the middle of its model
	}
	return out
}

func validate(t *testing.T, bench string, resp []byte, opts Options) Result {
	t.Helper()
	f, err := os.Open(bench)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := Validate(context.Background(), bench, f, "response", bytes.NewReader(resp), opts)
	if err != nil {
		t.Fatalf("%s: %v", bench, err)
	}
	return res
}

// TestRealModels: the models z3, cvc5 and cvc4 print for the shared sat
// benchmarks of the model-validation logics are VALID; each z3 model with
// one value changed gets the verdict z3 gives for the benchmark with the
// changed model's definitions in place of the declarations.
func TestRealModels(t *testing.T) {
	benches := satBenchmarks(t)
	for s := range solverArgs {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s (make deps): %v", s, err)
		}
	}
	if testing.Short() {
		benches = benches[:min(len(benches), 10)]
	}
	type job struct{ bench, solver string }
	jobs := make(chan job)
	var mu sync.Mutex
	counts := map[string]int{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				start := time.Now()
				out := runSolver(t, j.solver, modelInput(t, j.bench))
				took := time.Since(start)
				if !bytes.HasPrefix(bytes.TrimSpace(out), []byte("sat")) || z3Timeout.Match(out) {
					// No answer, or z3's limit struck while it printed the model.
					mu.Lock()
					counts[j.solver+" no sat answer"]++
					mu.Unlock()
					continue
				}
				res := validate(t, j.bench, out, Options{})
				if res.Reason == ReasonTruncated && took >= solverLimit*9/10 {
					// The solver's own limit (-T:5, --tlimit) struck while it
					// printed the model, without saying so: no answer.
					mu.Lock()
					counts[j.solver+" cut at its limit"]++
					mu.Unlock()
					continue
				}
				mu.Lock()
				counts[j.solver+" "+res.String()]++
				mu.Unlock()
				if res.Verdict != Valid {
					t.Errorf("%s %s: %s: %s at %s\n%s", j.solver, j.bench, res, res.Detail, res.Position, clip(string(out), 2000))
					continue
				}
				mutant(t, j.solver, j.bench, out, &mu, counts)
			}
		}()
	}
	for _, b := range benches {
		for _, s := range []string{"z3", "cvc5", "cvc4"} {
			jobs <- job{b, s}
		}
	}
	close(jobs)
	wg.Wait()
	t.Logf("%d benchmarks; verdicts: %v", len(benches), counts)
}

// mutant changes the first constant value of the model and compares the
// verdict with z3's.
func mutant(t *testing.T, solver, bench string, out []byte, mu *sync.Mutex, counts map[string]int) {
	resps, _ := smtlib.ParseResponses("response", out)
	if len(resps) < 2 {
		return
	}
	m, err := resps[1].As(smtlib.RespModel)
	if err != nil {
		return
	}
	s := m.Script
	for _, d := range m.Defs {
		if d.Name == "div0" || d.Name == "mod0" || d.Name == "/0" || strings.HasPrefix(d.Name, "@") {
			return // z3 would not read these as the validator does
		}
	}
	if bytes.Contains(out, []byte("(as @")) || bytes.Contains(out, []byte("@uc_")) {
		return // abstract values z3 cannot read back
	}
	for _, d := range m.Defs {
		if d.Kind != smtlib.CmdDefineFun || len(d.Params) > 0 || d.Body == smtlib.NoTerm {
			continue
		}
		text := s.Name(d.Body)
		var repl string
		switch s.Kind(d.Body) {
		case smtlib.KindNumeral:
			n, _ := new(big.Int).SetString(text, 10)
			repl = n.Add(n, big.NewInt(1)).String()
		case smtlib.KindDecimal:
			i := strings.IndexByte(text, '.')
			n, _ := new(big.Int).SetString(text[:i], 10)
			repl = n.Add(n, big.NewInt(1)).String() + text[i:]
		case smtlib.KindHex, smtlib.KindBinary:
			last := text[len(text)-1]
			flip := map[byte]byte{'0': '1', '1': '0'}[last]
			if flip == 0 {
				flip = '0'
			}
			repl = text[:len(text)-1] + string(flip)
		case smtlib.KindSymbol:
			switch text {
			case "true":
				repl = "false"
			case "false":
				repl = "true"
			}
		}
		if repl == "" {
			continue
		}
		off := s.Position(s.Pos(d.Body)).Offset
		mutated := append(append(append([]byte(nil), out[:off]...), repl...), out[off+len(text):]...)
		res := validate(t, bench, mutated, Options{})
		want := z3Judge(t, bench, mutated)
		mu.Lock()
		counts[fmt.Sprintf("mutant %s %s z3:%s", solver, res, want)]++
		mu.Unlock()
		switch {
		case want == "sat" && res.Verdict != Valid, want == "unsat" && res.Verdict != Invalid:
			t.Errorf("%s %s: %s changed to %s: validator %s (%s), z3 says %s", solver, bench, d.Name, repl, res, res.Detail, want)
		}
		return
	}
}

// z3Judge asks z3 whether the benchmark holds with the model's
// definitions in place of its declarations.
func z3Judge(t *testing.T, bench string, out []byte) string {
	script := z3CheckScript(t, bench, out)
	if script == "" {
		return "?"
	}
	ans := runSolver(t, "z3", []byte(script))
	return strings.TrimSpace(strings.SplitN(string(ans), "\n", 2)[0])
}

// z3CheckScript is the benchmark with the model's definitions in place of
// its declarations, for z3.
func z3CheckScript(t testing.TB, bench string, out []byte) string {
	resps, _ := smtlib.ParseResponses("response", out)
	if len(resps) < 2 {
		return ""
	}
	m, err := resps[1].As(smtlib.RespModel)
	if err != nil {
		return ""
	}
	src, err := os.ReadFile(bench)
	if err != nil {
		t.Fatal(err)
	}
	b, err := smtlib.Parse(bench, src, 0)
	if err != nil {
		return ""
	}
	ms := m.Script
	defs := map[string]string{}
	var aux []string
	abstract := map[string][]string{}
	for _, c := range ms.Commands() {
		switch c.Kind {
		case smtlib.CmdDefineFun:
			defs[ms.Name(ms.CmdArg(c, 0))] = ms.CommandString(c)
		case smtlib.CmdDeclareFun:
			aux = append(aux, ms.CommandString(c))
			srt := ms.TermString(ms.CmdArg(c, 2))
			abstract[srt] = append(abstract[srt], ms.Name(ms.CmdArg(c, 0)))
		}
	}
	declared, bdefined := map[string]bool{}, map[string]bool{}
	for _, c := range b.Commands() {
		if c.Kind == smtlib.CmdDefineFun {
			bdefined[b.Name(b.CmdArg(c, 0))] = true
		}
		if c.Kind == smtlib.CmdDeclareFun || c.Kind == smtlib.CmdDeclareConst {
			declared[b.Name(b.CmdArg(c, 0))] = true
		}
	}
	// The model's auxiliary declarations and definitions go before the
	// benchmark's first declaration of a function, and the definition of
	// each declared symbol in the place of its declaration; set-logic is
	// dropped, as z3 reads (as const ...) only without one.
	var sb strings.Builder
	auxDone := false
	for _, c := range b.Commands() {
		switch c.Kind {
		case smtlib.CmdDeclareFun, smtlib.CmdDeclareConst, smtlib.CmdDefineFun, smtlib.CmdAssert, smtlib.CmdCheckSat:
			if !auxDone {
				auxDone = true
				for _, a := range aux {
					sb.WriteString(a + "\n")
				}
				for _, names := range abstract {
					if len(names) > 1 {
						sb.WriteString("(assert (distinct " + strings.Join(names, " ") + "))\n")
					}
				}
				for _, c := range ms.Commands() {
					if n := ms.Name(ms.CmdArg(c, 0)); c.Kind == smtlib.CmdDefineFun && !declared[n] && !bdefined[n] {
						sb.WriteString(ms.CommandString(c) + "\n")
					}
				}
			}
		}
		switch c.Kind {
		case smtlib.CmdDeclareFun, smtlib.CmdDeclareConst:
			if d, ok := defs[b.Name(b.CmdArg(c, 0))]; ok {
				sb.WriteString(d + "\n")
				continue
			}
		case smtlib.CmdGetModel, smtlib.CmdExit, smtlib.CmdSetOption, smtlib.CmdSetLogic:
			continue
		}
		sb.WriteString(b.CommandString(c) + "\n")
	}
	return sb.String()
}
