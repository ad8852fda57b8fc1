package compete

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/executor"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// BenchmarkCoreValidation prints the validation cost of the unsat-core
// track: on the shared unsat benchmarks (several assertions, solved by z3
// and cvc5 within a second each by solver-answers.tsv) with z3, cvc4 and
// cvc5 as entrants and as validators, how many validation runs each core
// answer costs and the wall time the validation phase adds to the track
// (from the last solver pair recorded to the last core decided), with
// identical cores validated once (share) and each on its own (no-share).
func BenchmarkCoreValidation(b *testing.B) {
	if os.Geteuid() != 0 {
		testenv.Skipf(b, "competitions run solvers in the sandbox, which needs root")
	}
	for _, s := range []string{"z3", "cvc4", "cvc5"} {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(b, "needs %s: %v", s, err)
		}
	}
	shared := testenv.Shared(b, "benchmarks")
	lib := b.TempDir()
	n := coreBenchLibrary(b, shared, lib)
	for _, share := range []bool{true, false} {
		name := "share"
		if !share {
			name = "no-share"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m := runCoreBench(b, lib, share)
				b.ReportMetric(float64(n), "benchmarks")
				b.ReportMetric(float64(m.answers), "core-answers")
				b.ReportMetric(float64(m.cores), "validated-cores")
				b.ReportMetric(float64(m.runs), "validation-runs")
				b.ReportMetric(float64(m.runs)/float64(max(m.answers, 1)), "runs/core-answer")
				b.ReportMetric(m.solverPhase.Seconds(), "s-solver-phase")
				b.ReportMetric(m.validationPhase.Seconds(), "s-validation-phase")
				b.ReportMetric(m.runWall, "s-validation-runs-summed")
			}
		})
	}
}

// coreBenchLibrary copies the shared unsat benchmarks the figure uses into
// dir and returns how many.
func coreBenchLibrary(b *testing.B, shared, dir string) int {
	f, err := os.Open(filepath.Join(shared, "solver-answers.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 6 || c[1] != "unsat" || !strings.HasPrefix(c[0], "non-incremental/") {
			continue
		}
		z3, _ := strconv.ParseFloat(c[3], 64)
		cvc5, _ := strconv.ParseFloat(c[5], 64)
		if z3 > 1 || cvc5 > 1 {
			continue
		}
		data, err := os.ReadFile(filepath.Join(shared, c[0]))
		if err != nil {
			b.Fatal(err)
		}
		if strings.Count(string(data), "(assert") < 2 {
			continue
		}
		dst := filepath.Join(dir, c[0])
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return n
}

type coreBenchFigures struct {
	answers, cores, runs         int
	solverPhase, validationPhase time.Duration
	runWall                      float64
}

func runCoreBench(b *testing.B, lib string, share bool) coreBenchFigures {
	dir := b.TempDir()
	toml := fmt.Sprintf(`name = "figure"
rules = 2022
library = [%q]
workdir = "work"
[seed]
value = 5
[tracks.unsat-core]
wall_limit = "20s"
memory_mb = 2048
validation_limit = "20s"
validators = ["z3", "cvc4", "cvc5"]
share_cores = %v
[[solvers]]
name = "z3"
tracks = ["unsat-core"]
logics = [".*"]
command = ["z3", "{file}"]
[[solvers]]
name = "cvc4"
tracks = ["unsat-core"]
logics = [".*"]
command = ["cvc4", "--lang", "smt2", "{file}"]
[[solvers]]
name = "cvc5"
tracks = ["unsat-core"]
logics = [".*"]
command = ["cvc5", "{file}"]
`, lib, share)
	path := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(path, []byte(toml), 0o644); err != nil {
		b.Fatal(err)
	}
	def, err := config.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dir, "store.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	p, err := Prepare(ctx, def, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	start := time.Now()
	var lastSolver, lastValidation time.Time
	onPair := func(pr store.Pair, _ store.Result) {
		mu.Lock()
		defer mu.Unlock()
		if pr.Track == ValidationTrack {
			lastValidation = time.Now()
		} else {
			lastSolver = time.Now()
		}
	}
	if err := Run(ctx, p, Options{Executor: &executor.Local{}, OnPair: onPair}); err != nil {
		b.Fatal(err)
	}
	end := time.Now()
	var m coreBenchFigures
	m.solverPhase = lastSolver.Sub(start)
	if !lastValidation.IsZero() {
		m.validationPhase = end.Sub(lastSolver)
	}
	rs, err := st.Results(ctx, store.ResultFilter{Track: "unsat-core"})
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range rs {
		if f, ok := ReadCoreFacts(r.Extra); ok && f.Hash != "" {
			m.answers++
		}
	}
	cores, err := st.Cores(ctx, ValidationKey(def.Name))
	if err != nil {
		b.Fatal(err)
	}
	m.cores = len(cores)
	vs, err := st.Results(ctx, store.ResultFilter{Track: ValidationTrack})
	if err != nil {
		b.Fatal(err)
	}
	m.runs = len(vs)
	for _, r := range vs {
		m.runWall += r.Wall
	}
	return m
}
