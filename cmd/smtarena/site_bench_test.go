package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/store"
)

// millionLogics are the logics of the generated million-pair competition.
var millionLogics = []string{"QF_LIA", "QF_IDL", "QF_BV", "QF_ABV", "QF_UF", "QF_LRA", "QF_RDL", "QF_NIA", "QF_AUFLIA", "QF_S"}

// millionResults is a competition of 10 solvers on 100,000 benchmarks of 10
// logics: results as compete writes them (their division and output in the
// extra columns), some wrong, some timeouts.
func millionResults(name string, n int) []store.Result {
	const solvers = 10
	out := make([]store.Result, 0, n)
	for i := 0; len(out) < n; i++ {
		logic := millionLogics[i%len(millionLogics)]
		path := fmt.Sprintf("non-incremental/%s/family%d/b%06d.smt2", logic, i%37, i)
		expected := []string{"sat", "unsat", "unknown"}[i%3]
		for s := 0; s < solvers && len(out) < n; s++ {
			h := uint32(i*7919 + s*104729)
			h ^= h >> 13
			h *= 0x5bd1e995
			status, answer := "complete", expected
			wall := float64(h%100000) / 1000
			switch {
			case h%17 == 0:
				status, answer, wall = "timeout", "unknown", 1200
			case expected == "unknown":
				answer = []string{"sat", "unsat"}[h%2]
			}
			wrong := h%997 == 0 && expected != "unknown"
			if wrong {
				answer = map[string]string{"sat": "unsat", "unsat": "sat"}[expected]
			}
			out = append(out, store.Result{Competition: name, Year: 2022, Track: "single-query", Solver: fmt.Sprintf("solver%d", s),
				Configuration: "default", BenchmarkPath: path, Status: status, Answer: answer, Expected: expected, CPU: wall * 0.9, Wall: wall,
				MemoryMB:  float64(h % 2000),
				Extra:     fmt.Sprintf(`{"division":%q,"logic":%q,"output":"%s\n","wrong":%t,"reason":"completed"}`, divisionOfLogic(logic), logic, answer, wrong),
				SourceKey: fmt.Sprintf("pair:%d", len(out)+1)})
		}
	}
	return out
}

func divisionOfLogic(l string) string {
	switch l {
	case "QF_LIA", "QF_IDL", "QF_RDL", "QF_LRA", "QF_NIA":
		return "QF_LinearIntArith"
	case "QF_BV", "QF_ABV":
		return "QF_Bitvec"
	}
	return l
}

// millionStore writes the million results into a fresh SQLite store.
func millionStore(b *testing.B, dir string, n int) string {
	b.Helper()
	db := filepath.Join(dir, "million.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	rs := millionResults("million", n)
	for i := 0; i < len(rs); i += 50000 {
		if _, err := st.AddResults(context.Background(), rs[i:min(i+50000, len(rs))]); err != nil {
			b.Fatal(err)
		}
	}
	return db
}

// BenchmarkReportMillion times `smtarena report` on a store of one million
// results (10 solvers, 100,000 benchmarks), end to end in its own process:
// reading the store, scoring by the 2022 rules, building and writing the
// site. It reports the time, the process's peak memory, the files written
// and the largest page (the issue: at most 60 s, 2 GB and 1 MB a page).
func BenchmarkReportMillion(b *testing.B) {
	n := 1000000
	if s := os.Getenv("SMTARENA_BENCH_PAIRS"); s != "" {
		fmt.Sscan(s, &n)
	}
	dir := b.TempDir()
	start := time.Now()
	db := millionStore(b, dir, n)
	b.Logf("store of %d results written in %s", n, time.Since(start).Round(time.Millisecond))
	b.ResetTimer()
	var wall time.Duration
	var rss int64
	for i := 0; i < b.N; i++ {
		out := filepath.Join(dir, fmt.Sprintf("site%d", i))
		cmd := exec.Command(os.Args[0], "report", "--db", db, "--rules", "2022", "--competition", "million", "--out", out)
		cmd.Env = append(os.Environ(), "SMTARENA_TEST_MAIN=1")
		start := time.Now()
		msg, err := cmd.CombinedOutput()
		wall += time.Since(start)
		if err != nil {
			b.Fatalf("report: %v\n%s", err, msg)
		}
		rss = max(rss, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) // KB
		b.StopTimer()
		files, largestHTML, largestAny := 0, int64(0), int64(0)
		var largestName string
		filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			files++
			info, _ := d.Info()
			if strings.HasSuffix(p, ".html") && info.Size() > largestHTML {
				largestHTML, largestName = info.Size(), p
			}
			if !strings.HasPrefix(p, filepath.Join(out, "data")) {
				largestAny = max(largestAny, info.Size())
			}
			return nil
		})
		b.ReportMetric(float64(files), "files")
		b.ReportMetric(float64(largestHTML)/1024, "largest-page-KB")
		b.ReportMetric(float64(largestAny)/1024, "largest-non-download-KB")
		b.Logf("largest page %s; %s", largestName, strings.TrimSpace(string(msg)))
		os.RemoveAll(out)
		b.StartTimer()
	}
	b.ReportMetric(wall.Seconds()/float64(b.N), "s/site")
	b.ReportMetric(float64(rss)/1024, "peak-RSS-MB")
}
