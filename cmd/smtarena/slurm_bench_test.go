package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// stampSolver prints the time (ns) as it starts and as it ends, around
// its answer.
var stampSolver = []string{"sh", "-c", `echo "t $(date +%s%N)"; echo sat; echo "t $(date +%s%N)"`, "s"}

// stamps reads the two times a stampSolver run printed.
func stamps(out string) (from, to int64, ok bool) {
	var ts []int64
	for _, line := range strings.Split(out, "\n") {
		var v int64
		if _, err := fmt.Sscanf(line, "t %d", &v); err == nil {
			ts = append(ts, v)
		}
	}
	if len(ts) != 2 {
		return 0, 0, false
	}
	return ts[0], ts[1], true
}

// gaps returns the time from each run's end to the next run's start, the
// runs sorted by start, the first skip left out (warm-up).
func gaps(spans [][2]int64, skip int) []time.Duration {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var out []time.Duration
	for i := max(skip, 1); i < len(spans); i++ {
		out = append(out, time.Duration(spans[i][0]-spans[i-1][1]))
	}
	return out
}

// BenchmarkSlurmPairOverhead: the time a Slurm worker spends between two
// pairs at steady state (claiming from PostgreSQL, recording, starting
// the next in the sandbox), beyond the sandbox's own time between two runs
// made one after the other. 200 pairs of a solver that prints the time as
// it starts and ends, one slot on each of the two nodes of the local
// cluster; the median gap on each side and their difference.
func BenchmarkSlurmPairOverhead(b *testing.B) {
	_, dsn := slurmSetup(b)
	dir := b.TempDir()
	def := stampDef(b, dir, "overhead", 100, "jobs = 1", "", stampSolver)
	var errs bytes.Buffer
	if code := run(context.Background(), []string{"compete", "--quiet", "--db", dsn, "--executor", "slurm", "--slurm-jobs", "2", def},
		streams{strings.NewReader(""), io.Discard, &errs}); code != 0 {
		b.Fatalf("compete: %d %s", code, errs.String())
	}
	st := openStoreWait(b, dsn)
	ps, err := st.Pairs(context.Background(), "overhead/single-query")
	if err != nil {
		b.Fatal(err)
	}
	nodeOf := map[string]string{}
	for _, p := range ps {
		nodeOf[fmt.Sprintf("pair:%d", p.ID)], _, _ = strings.Cut(p.Owner, "/")
	}
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
	if err != nil {
		b.Fatal(err)
	}
	byNode := map[string][][2]int64{}
	for _, r := range rs {
		var extra struct {
			Output string `json:"output"`
		}
		_ = json.Unmarshal([]byte(r.Extra), &extra)
		if from, to, ok := stamps(extra.Output); ok {
			byNode[nodeOf[r.SourceKey]] = append(byNode[nodeOf[r.SourceKey]], [2]int64{from, to})
		}
	}
	var slurm []time.Duration
	for _, spans := range byNode {
		slurm = append(slurm, gaps(spans, 10)...)
	}
	// The sandbox alone: the same solver run 60 times in a row.
	var spans [][2]int64
	for i := 0; i < 60; i++ {
		var out bytes.Buffer
		if _, err := sandbox.Run(context.Background(), sandbox.Spec{Args: stampSolver, Limits: sandbox.Limits{Wall: 10 * time.Second, Cores: []int{0}}, Stdout: &out}); err != nil {
			b.Fatal(err)
		}
		if from, to, ok := stamps(out.String()); ok {
			spans = append(spans, [2]int64{from, to})
		}
	}
	local := gaps(spans, 10)
	if len(slurm) < 100 || len(local) < 40 {
		b.Fatalf("%d gaps on Slurm, %d in the sandbox", len(slurm), len(local))
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	gs, gl := testenv.Median(slurm), testenv.Median(local)
	b.ReportMetric(ms(gs), "ms-gap-slurm")
	b.ReportMetric(ms(gl), "ms-gap-sandbox")
	b.ReportMetric(ms(gs-gl), "ms-overhead/pair")
}

// BenchmarkSlurmNodeLoss: the time from a node's loss (its slurmd and
// every process of its jobs killed with SIGKILL) to the last of its pairs
// running again on the other node, with a 5 s lease (the default is 60 s;
// the bound is the lease plus 10 s).
func BenchmarkSlurmNodeLoss(b *testing.B) {
	cluster, dsn := slurmSetup(b)
	dir := b.TempDir()
	writeLibrary(b, filepath.Join(dir, "lib"), 20)
	def := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(def, []byte(`name = "loss"
rules = 2018
library = ["lib"]
[seed]
value = 4
[tracks.single-query]
wall_limit = "30s"
[[solvers]]
name = "a"
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["sh", "-c", "sleep 3; echo sat", "a", "{file}"]
[[solvers]]
name = "b"
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["sh", "-c", "sleep 3; echo unsat", "b", "{file}"]
`), 0o644); err != nil {
		b.Fatal(err)
	}
	const lease = 5 * time.Second
	const key = "loss/single-query"
	co := coordinator(b, dir, dsn, def, 1, lease)
	defer func() { _ = co.Process.Kill(); _ = co.Wait() }()
	st := openStoreWait(b, dsn)
	_, took := loseNode(b, cluster, st, key, "n1", lease+60*time.Second)
	b.ReportMetric(took.Seconds(), "s-loss-to-rerun")
	b.ReportMetric((took - lease).Seconds(), "s-beyond-lease")
}

// stampDef writes a competition of n benchmarks (writeLibrary) and two
// solvers a and b running cmd, in the single-query track with a 10 s wall
// limit; top and track add settings at the top and to the track.
func stampDef(t testing.TB, dir, name string, n int, top, track string, cmd []string) string {
	t.Helper()
	writeLibrary(t, filepath.Join(dir, "lib"), n)
	c, _ := json.Marshal(cmd)
	def := filepath.Join(dir, "c.toml")
	var solvers strings.Builder
	for _, s := range []string{"a", "b"} {
		fmt.Fprintf(&solvers, "[[solvers]]\nname = %q\ntracks = [\"single-query\"]\nlogics = [\"QF_UF\"]\ncommand = %s\n", s, c)
	}
	src := fmt.Sprintf("name = %q\nrules = 2018\nlibrary = [\"lib\"]\n%s\n[seed]\nvalue = 9\n[tracks.single-query]\nwall_limit = \"10s\"\n%s\n%s",
		name, top, track, solvers.String())
	if err := os.WriteFile(def, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return def
}
