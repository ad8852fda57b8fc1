package score_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
)

// synthetic makes n single-query result rows: 20 solvers (15 competitive,
// of 12 teams), n/20 benchmarks over 60 logics grouped into 40 divisions,
// statuses sat, unsat and unknown, answers mostly right, some wrong,
// timeouts and memouts.
func synthetic(n int) ([]score.Row, score.Registry, map[string][]string) {
	rng := rand.New(rand.NewPCG(1, 2))
	const solvers = 20
	reg := score.Registry{}
	for i := range solvers {
		reg[strconv.Itoa(i)] = score.Solver{Name: fmt.Sprintf("solver-%02d", i), Competitive: i < 15, Team: fmt.Sprintf("team-%d", i%12)}
	}
	divs := map[string][]string{}
	logics := make([]string, 60)
	for i := range logics {
		logics[i] = fmt.Sprintf("L%02d", i)
		d := fmt.Sprintf("D%02d", i%40)
		divs[d] = append(divs[d], logics[i])
	}
	nb := n / solvers
	rows := make([]score.Row, 0, n)
	statuses := []string{"sat", "unsat", "unknown"}
	for b := range nb {
		path := fmt.Sprintf("non-incremental/%s/fam%03d/sub%d/b%07d.smt2", logics[b%len(logics)], b%97, b%5, b)
		exp := statuses[rng.IntN(3)]
		truth := exp
		if truth == "unknown" {
			truth = statuses[rng.IntN(2)]
		}
		for s := range solvers {
			r := score.Row{Solver: strconv.Itoa(s), Benchmark: path, Status: "complete", Expected: exp,
				CPU: rng.Float64() * 1300, Wall: rng.Float64() * 1250}
			switch x := rng.IntN(100); {
			case x < 70:
				r.Answer = truth
			case x < 71 && (s >= 17 || exp == "unknown" && s == 5):
				// three unsound solvers, and one sound one that
				// contradicts others on unknown-status benchmarks
				r.Answer = map[string]string{"sat": "unsat", "unsat": "sat"}[truth]
			case x < 90:
				r.Status, r.Answer, r.Wall = "timeout (wallclock)", "--", 1200.05
			case x < 92:
				r.Status, r.Answer = "memout", "--"
			default:
				r.Answer = "unknown"
			}
			rows = append(rows, r)
		}
	}
	return rows, reg, divs
}

func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "?"
}

// BenchmarkScoreMillion scores one million result rows by the 2022 rules
// (every division score, per-logic breakdowns, biggest lead and largest
// contribution) and prints the time and the memory taken.
func BenchmarkScoreMillion(b *testing.B) {
	rows, reg, divs := synthetic(1_000_000)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	var rep *score.Report
	start := time.Now()
	for range b.N {
		var err error
		rep, err = score.Score(rows, score.Options{Rules: 2022, Track: benchmark.SingleQuery, Solvers: reg, Divisions: divs})
		if err != nil {
			b.Fatal(err)
		}
	}
	el := time.Since(start) / time.Duration(b.N)
	b.StopTimer()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	alloc := float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N) / (1 << 20)
	b.ReportMetric(alloc, "MB-alloc/op")
	b.Logf("scored %d rows (%d divisions, %d disagreements removed) in %v; %.0f MB allocated per scoring; peak heap %d MB; peak RSS of the process (rows included) %s",
		len(rows), len(rep.Divisions), len(rep.Disagreements), el.Round(time.Millisecond), alloc, after.HeapSys>>20, peakRSS())
}
