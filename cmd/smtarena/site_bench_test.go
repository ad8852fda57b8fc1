package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
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
		if m := regexp.MustCompile(`reading and scoring the store ([^,]+), the site ([^)]+)\)`).FindStringSubmatch(string(msg)); m != nil {
			d1, _ := time.ParseDuration(m[1])
			d2, _ := time.ParseDuration(m[2])
			b.ReportMetric(d1.Seconds(), "s-read-score")
			b.ReportMetric(d2.Seconds(), "s-build-write")
		}
		os.RemoveAll(out)
		b.StartTimer()
	}
	b.ReportMetric(wall.Seconds()/float64(b.N), "s/site")
	b.ReportMetric(float64(rss)/1024, "peak-RSS-MB")
}

// BenchmarkServeMillion measures serve's page latency on a competition of
// one million pairs while a writer completes its last pairs as compete
// does (CompletePair, 200 a second): serve polls the pair counts and
// rebuilds the site in the background meanwhile. It reports the median and
// the 99th percentile of the latency of GETs of the main pages, benchmark
// pages, result listings and progress.json, for 30 s (SMTARENA_BENCH_SECONDS).
func BenchmarkServeMillion(b *testing.B) {
	n := 1000000
	if s := os.Getenv("SMTARENA_BENCH_PAIRS"); s != "" {
		fmt.Sscan(s, &n)
	}
	seconds := 30
	if s := os.Getenv("SMTARENA_BENCH_SECONDS"); s != "" {
		fmt.Sscan(s, &seconds)
	}
	ctx := context.Background()
	dir := b.TempDir()
	var solvers strings.Builder
	for s := 0; s < 10; s++ {
		fmt.Fprintf(&solvers, "[[solvers]]\nname = \"solver%d\"\ntracks = [\"single-query\"]\nlogics = [\".*\"]\ncommand = [\"true\"]\n", s)
	}
	def := filepath.Join(dir, "million.toml")
	if err := os.WriteFile(def, []byte("name = \"million\"\nrules = 2022\nworkdir = \"work\"\n[seed]\nvalue = 1\n[tracks.single-query]\ncpu_limit = \"1200s\"\nwall_limit = \"1200s\"\nmemory_mb = 2048\n"+solvers.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	db := filepath.Join(dir, "work", "smtarena.db")
	os.MkdirAll(filepath.Dir(db), 0o755)
	start := time.Now()
	st, err := store.Open(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	rs := millionResults("million", n)
	pairs := make([]store.Pair, len(rs))
	for i, r := range rs {
		pairs[i] = store.Pair{Competition: "million/single-query", Track: "single-query", Division: divisionOf(r), Logic: strings.Split(r.BenchmarkPath, "/")[1],
			Solver: r.Solver, Configuration: "default", BenchmarkID: int64(i / 10), BenchmarkPath: r.BenchmarkPath, Input: "x", Expected: r.Expected, Seq: int64(i)}
	}
	if _, err := st.PlanPairs(ctx, pairs); err != nil {
		b.Fatal(err)
	}
	// all but the last 10,000 are done
	left := min(10000, n/10)
	for i := 0; i < n-left; i += 50000 {
		if _, err := st.AddResults(ctx, rs[i:min(i+50000, n-left)]); err != nil {
			b.Fatal(err)
		}
	}
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE pairs SET state = 'done' WHERE id <= ?`, n-left); err != nil {
		b.Fatal(err)
	}
	raw.Close()
	b.Logf("store of %d pairs (%d done) written in %s", n, n-left, time.Since(start).Round(time.Millisecond))

	sctx, stop := context.WithCancel(ctx)
	defer stop()
	addrc := make(chan net.Addr, 1)
	start = time.Now()
	go func() {
		err := runServe(sctx, ServeOptions{Score: ScoreOptions{Config: def}, Addr: "127.0.0.1:0"}, streams{strings.NewReader(""), io.Discard, io.Discard},
			func(a net.Addr) { addrc <- a })
		if err != nil {
			b.Error(err)
		}
	}()
	addr := <-addrc
	b.Logf("serve ready in %s", time.Since(start).Round(time.Millisecond))
	// the writer: compete completing the last pairs
	wctx, stopWriter := context.WithCancel(ctx)
	defer stopWriter()
	written := 0
	go func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for i := n - left; i < n; i++ {
			select {
			case <-wctx.Done():
				return
			case <-t.C:
			}
			p := pairs[i]
			p.ID = int64(i + 1)
			if err := st.CompletePair(wctx, p, rs[i]); err != nil && wctx.Err() == nil {
				b.Error(err)
				return
			}
			written++
		}
	}()
	urls := []string{"index.html", "t/single-query/index.html", "t/single-query/QF_LinearIntArith.html", "t/single-query/QF_Bitvec.html",
		"solvers.html", "s/solver3.html", "api/progress.json", "wrong.html", "t/single-query/QF_LinearIntArith/results-7.html", "b/3/345.html",
		"b/0/12.html", "assets/site.js"}
	client := &http.Client{Timeout: time.Minute}
	var lat []time.Duration
	b.ResetTimer()
	end := time.Now().Add(time.Duration(seconds) * time.Second)
	for i := 0; time.Now().Before(end); i++ {
		u := "http://" + addr.String() + "/" + urls[i%len(urls)]
		t0 := time.Now()
		resp, err := client.Get(u)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		lat = append(lat, time.Since(t0))
		if d := time.Since(t0); d > 100*time.Millisecond && os.Getenv("SMTARENA_BENCH_DEBUG") != "" {
			b.Logf("%s took %s", u, d)
		}
		if resp.StatusCode != 200 {
			b.Fatalf("%s: %s", u, resp.Status)
		}
		time.Sleep(20 * time.Millisecond) // a few browsers, not a load test
	}
	b.StopTimer()
	stopWriter()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms-p99")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "ms-max")
	b.ReportMetric(float64(len(lat)), "requests")
	b.ReportMetric(float64(written), "pairs-written")
	var rusage syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &rusage)
	b.ReportMetric(float64(rusage.Maxrss)/1024, "peak-RSS-MB")
}
