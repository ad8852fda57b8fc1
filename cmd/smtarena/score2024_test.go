package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/testenv"
)

// TestScore2024Parallel runs the README's 2024 steps on the parallel
// track: import the cloud and parallel results and (the part of) the
// benchmark list they need, score with defs.py and the submissions, write
// the website's JSON records. QF_IDL's record is the published page's
// (pages/qf_idl-parallel: 196 benchmarks, the parallel tracks' selections
// together; SMTS 2 errors, 37 correct, 39 solved).
func TestScore2024Parallel(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2024")
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	res := []string{filepath.Join(dir, "data/results-cloud-2024.json.gz"), filepath.Join(dir, "data/results-parallel-2024.json.gz")}
	if code, out, errs := runCLI(t, "", append([]string{"import", "--db", db, "smtcomp-json"}, res...)...); code != 0 || !strings.Contains(out, "800 rows, 800 added") {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	// A benchmark list of the logics of these tracks (the whole one takes
	// seconds to import).
	f, err := os.Open(filepath.Join(dir, "data/benchmarks-2024.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, _ := gzip.NewReader(f)
	var doc struct {
		NonIncremental []json.RawMessage `json:"non_incremental"`
	}
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var keep []json.RawMessage
	for _, b := range doc.NonIncremental {
		if strings.Contains(string(b), `"QF_IDL"`) {
			keep = append(keep, b)
		}
	}
	data, _ := json.Marshal(map[string]any{"non_incremental": keep})
	list := filepath.Join(tmp, "benchmarks-2024.json")
	os.WriteFile(list, data, 0o644)
	if code, _, errs := runCLI(t, "", "import", "--db", db, "benchmarks-json", list); code != 0 {
		t.Fatalf("import benchmarks: %d %s", code, errs)
	}
	out := filepath.Join(tmp, "web")
	code, stdout, errs := runCLI(t, "", "score", "--db", db, "--rules", "2024", "--track", "parallel", "--compat", "official",
		"--defs", filepath.Join(dir, "submissions/smtcomp/defs.py"), "--submissions", filepath.Join(dir, "submissions/submissions"),
		"--format", "web-json", "--out", out, "--date", "2024-07-08")
	if code != 0 || stdout != "wrote 18 pages to "+out+"\n" {
		t.Fatalf("score: %d %q %s", code, stdout, errs)
	}
	raw, err := os.ReadFile(filepath.Join(out, "qf_idl-parallel.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		NBenchmarks int    `json:"n_benchmarks"`
		MemLimit    int    `json:"mem_limit"`
		WinnerPar   string `json:"winner_par"`
		Parallel    []struct {
			Name                             string
			ErrorScore, CorrectScore, Solved int
			Unsolved                         int
		}
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.NBenchmarks != 196 || rec.MemLimit != 20480 || rec.WinnerPar != "SMTS" || len(rec.Parallel) != 2 ||
		rec.Parallel[0].Name != "SMTS" || rec.Parallel[0].ErrorScore != 2 || rec.Parallel[0].CorrectScore != 37 || rec.Parallel[0].Solved != 39 || rec.Parallel[0].Unsolved != 157 {
		t.Errorf("qf_idl-parallel: %s", raw)
	}
}

// BenchmarkImportScore2024 imports the four 2024 results files (205,138
// rows) and the benchmark list into a fresh SQLite store and scores every
// track as the official pages were (every division and logic page, biggest
// lead, largest contribution, summary, written as web-json files), and
// prints the time and peak memory, also per million result rows (target:
// at most 2 s and 1 GB per million rows).
func BenchmarkImportScore2024(b *testing.B) {
	dir := testenv.Shared(b, "official-results/2024")
	ctx := context.Background()
	var results []string
	for _, f := range []string{"results-cloud-2024.json.gz", "results-parallel-2024.json.gz", "results-inc-2024.json.gz", "results-uc-2024.json.gz"} {
		results = append(results, filepath.Join(dir, "data", f))
	}
	rows := 0
	for _, f := range results {
		rows += countJSONResults(b, f)
	}
	quiet := streams{strings.NewReader(""), io.Discard, io.Discard}
	var tImport, tBench, tScore time.Duration
	var cImport, cBench, cScore time.Duration // CPU time of the process
	var peaks [3]int                          // peak RSS of each phase, of the last round
	for range b.N {
		tmp := b.TempDir()
		db := filepath.Join(tmp, "s.db")
		resetPeakRSS()
		start, c := time.Now(), cpuTime()
		if err := runImport(ctx, ImportOptions{DB: db}, append([]string{"smtcomp-json"}, results...), quiet); err != nil {
			b.Fatal(err)
		}
		tImport += time.Since(start)
		cImport += cpuTime() - c
		peaks[0] = peakRSS()
		resetPeakRSS()
		start, c = time.Now(), cpuTime()
		if err := runImport(ctx, ImportOptions{DB: db}, []string{"benchmarks-json", filepath.Join(dir, "data/benchmarks-2024.json.gz")}, quiet); err != nil {
			b.Fatal(err)
		}
		tBench += time.Since(start)
		cBench += cpuTime() - c
		peaks[1] = peakRSS()
		resetPeakRSS()
		start, c = time.Now(), cpuTime()
		for _, track := range []string{"incremental", "unsat-core", "cloud", "parallel"} {
			err := runScore(ctx, ScoreOptions{DB: db, Rules: 2024, Year: 2024, Track: track, Compat: "official", Format: "web-json",
				Out: filepath.Join(tmp, track), Date: "2024-07-08", Defs: filepath.Join(dir, "submissions/smtcomp/defs.py"),
				Submissions: filepath.Join(dir, "submissions/submissions")}, quiet)
			if err != nil {
				b.Fatal(err)
			}
		}
		tScore += time.Since(start)
		cScore += cpuTime() - c
		peaks[2] = peakRSS()
	}
	n := time.Duration(b.N)
	perM := func(d time.Duration) time.Duration {
		return time.Duration(float64(d/n) * 1e6 / float64(rows)).Round(time.Millisecond)
	}
	total := (tImport + tBench + tScore) / n
	b.ReportMetric(float64(total.Milliseconds())*1e6/float64(rows), "ms/Mrow")
	b.Logf("%d result rows: import %v, benchmark list (482,964 entries) %v, scoring the 4 tracks with every page %v; total %v = %v per million result rows (import %v, scoring %v per million); peak RSS %d MB = %d MB per million result rows",
		rows, (tImport / n).Round(time.Millisecond), (tBench / n).Round(time.Millisecond), (tScore / n).Round(time.Millisecond),
		total.Round(time.Millisecond), perM(tImport+tBench+tScore), perM(tImport), perM(tScore), slices.Max(peaks[:]), slices.Max(peaks[:])*1000000/rows)
	b.Logf("CPU time (both cores; the machine is shared, wall times vary with its load): import %v, benchmark list %v, scoring %v; peak RSS of each: %d, %d, %d MB",
		(cImport / n).Round(time.Millisecond), (cBench / n).Round(time.Millisecond), (cScore / n).Round(time.Millisecond), peaks[0], peaks[1], peaks[2])
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func countJSONResults(b *testing.B, path string) int {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	var doc struct{ Results []json.RawMessage }
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		b.Fatal(err)
	}
	return len(doc.Results)
}

// resetPeakRSS starts the peak resident set (VmHWM) anew from the
// current one (Linux: /proc/self/clear_refs), so that each phase's peak is
// its own; the peak of the whole run is then the largest of them.
func resetPeakRSS() {
	runtime.GC()
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakRSS is the process's peak resident set (VmHWM) in MB, 0 if unknown.
func peakRSS() int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb / 1000
		}
	}
	return 0
}

// score2024DB is a store holding the 2024 results and benchmark list,
// imported once per test process (BenchmarkScore2024's runs share it).
var score2024DB struct {
	once sync.Once
	path string
	err  error
}

// BenchmarkScore2024 is the scoring phase of BenchmarkImportScore2024
// alone: the four tracks scored with every page from a store imported
// once, so that a profile (-cpuprofile) shows the scoring's costs; it
// prints the time and CPU time of the four runScore calls.
func BenchmarkScore2024(b *testing.B) {
	dir := testenv.Shared(b, "official-results/2024")
	ctx := context.Background()
	quiet := streams{strings.NewReader(""), io.Discard, io.Discard}
	score2024DB.once.Do(func() {
		tmp, err := os.MkdirTemp("", "score2024")
		if err != nil {
			score2024DB.err = err
			return
		}
		db := filepath.Join(tmp, "s.db")
		var results []string
		for _, f := range []string{"results-cloud-2024.json.gz", "results-parallel-2024.json.gz", "results-inc-2024.json.gz", "results-uc-2024.json.gz"} {
			results = append(results, filepath.Join(dir, "data", f))
		}
		if err := runImport(ctx, ImportOptions{DB: db}, append([]string{"smtcomp-json"}, results...), quiet); err != nil {
			score2024DB.err = err
			return
		}
		score2024DB.err = runImport(ctx, ImportOptions{DB: db}, []string{"benchmarks-json", filepath.Join(dir, "data/benchmarks-2024.json.gz")}, quiet)
		score2024DB.path = db
	})
	if score2024DB.err != nil {
		b.Fatal(score2024DB.err)
	}
	b.ResetTimer()
	start, c := time.Now(), cpuTime()
	for range b.N {
		// New pages each time, as in BenchmarkImportScore2024 (ext4
		// flushes a file truncated and written again when it is closed).
		out := b.TempDir()
		for _, track := range []string{"incremental", "unsat-core", "cloud", "parallel"} {
			err := runScore(ctx, ScoreOptions{DB: score2024DB.path, Rules: 2024, Year: 2024, Track: track, Compat: "official", Format: "web-json",
				Out: filepath.Join(out, track), Date: "2024-07-08", Defs: filepath.Join(dir, "submissions/smtcomp/defs.py"),
				Submissions: filepath.Join(dir, "submissions/submissions")}, quiet)
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	n := time.Duration(b.N)
	b.ReportMetric(float64(time.Since(start)/n)/1e6, "ms-wall")
	b.ReportMetric(float64((cpuTime()-c)/n)/1e6, "ms-cpu")
}
