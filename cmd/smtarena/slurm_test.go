package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// slurmSetup starts a two-node Slurm cluster and PostgreSQL for a test,
// and makes the workers that sbatch starts (this test binary) act as
// smtarena.
func slurmSetup(t testing.TB) (*testenv.SlurmCluster, string) {
	t.Helper()
	needRootForRuns(t)
	c := testenv.Slurm(t, 2)
	dsn := testenv.Postgres(t)
	t.Setenv("SMTARENA_TEST_MAIN", "1")
	return c, dsn
}

// answers maps solver and benchmark to the answer of each sat/unsat
// result, and counts the results.
func answers(t *testing.T, st store.Store) (map[string]string, int) {
	t.Helper()
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rs {
		if r.Answer == "sat" || r.Answer == "unsat" {
			out[r.Solver+" "+r.BenchmarkPath] = r.Answer
		}
	}
	return out, len(rs)
}

// TestCompeteSlurm runs a competition of z3, cvc4 and cvc5 on the shared
// benchmarks with the Slurm executor on a two-node cluster over
// PostgreSQL, and with the local executor over SQLite: the same pairs, the
// same answers, each pair recorded once, pairs run on both nodes.
func TestCompeteSlurm(t *testing.T) {
	for _, s := range []string{"z3", "cvc4", "cvc5"} {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s: %v", s, err)
		}
	}
	lib := testenv.Shared(t, "benchmarks")
	cluster, dsn := slurmSetup(t)
	dir := t.TempDir()
	// The local run gets a work directory of its own: the solvers'
	// inputs there are named by the benchmark ids of its store.
	writeDef := func(name, workdir string) string {
		def := filepath.Join(dir, name)
		if err := os.WriteFile(def, []byte(fmt.Sprintf(`name = "slurm"
rules = 2022
library = [%q]
workdir = %q
[seed]
value = 11
[tracks.single-query]
cpu_limit = "5s"
wall_limit = "8s"
memory_mb = 1024
logics = ["QF_LRA"]
[[solvers]]
name = "z3"
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["z3", "{file}"]
[[solvers]]
name = "cvc5"
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["cvc5", "{file}"]
[[solvers]]
name = "cvc4"
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["cvc4", "{file}"]
`, lib, workdir)), 0o644); err != nil {
			t.Fatal(err)
		}
		return def
	}
	def := writeDef("c.toml", "work")
	localDef := writeDef("local.toml", "work-local")
	// The SQLite store refuses an executor on many machines, clearly.
	code, _, errs := runCLI(t, "", "compete", "--quiet", "--executor", "slurm", def)
	if code == 0 || !strings.Contains(errs, "needs a PostgreSQL store") {
		t.Errorf("slurm over SQLite: exit %d, %s", code, errs)
	}
	start := time.Now()
	code, out, errs := runCLI(t, "", "compete", "--db", dsn, "--executor", "slurm", "--slurm-jobs", "2", "--lease", "5s", def)
	if code != 0 {
		t.Fatalf("compete --executor slurm: exit %d\n%s\n%s\n%s", code, out, errs, cluster.Logs())
	}
	t.Logf("slurm run: %s", time.Since(start).Round(time.Millisecond))
	// The store's DSN is in the worker's environment, not its command
	// line, and its job script is its owner's alone.
	scripts, _ := filepath.Glob(filepath.Join(dir, "work", "slurm", "*.sh"))
	for _, sc := range scripts {
		fi, err := os.Stat(sc)
		b, _ := os.ReadFile(sc)
		_, execLine, _ := strings.Cut(string(b), "\nexec ")
		if err != nil || fi.Mode().Perm() != 0o700 || strings.Contains(execLine, dsn) || !strings.Contains(string(b), "export SMTARENA_DB=") {
			t.Errorf("job script %s (%v, %v):\n%s", sc, fi.Mode(), err, b)
		}
	}
	if len(scripts) == 0 {
		t.Error("no job script")
	}
	local := filepath.Join(dir, "local.db")
	if code, out, errs := runCLI(t, "", "compete", "--quiet", "--db", local, localDef); code != 0 {
		t.Fatalf("compete (local): exit %d\n%s\n%s", code, out, errs)
	}
	pg, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	lo, err := store.Open(context.Background(), local)
	if err != nil {
		t.Fatal(err)
	}
	defer lo.Close()
	sa, sn := answers(t, pg)
	la, ln := answers(t, lo)
	if sn != ln || sn == 0 {
		t.Errorf("%d results on Slurm, %d locally", sn, ln)
	}
	if len(sa) < sn/2 {
		t.Errorf("only %d of %d results answered sat or unsat", len(sa), sn)
	}
	for k, a := range sa {
		if b, ok := la[k]; ok && a != b {
			t.Errorf("%s: %s on Slurm, %s locally", k, a, b)
		}
	}
	for k, a := range la {
		if _, ok := sa[k]; !ok {
			// The benchmarks take a fraction of the limits: no run may
			// end in a timeout on one executor and not on the other.
			t.Errorf("%s: %s locally, not answered on Slurm", k, a)
		}
	}
	ps, _ := pg.Pairs(context.Background(), "slurm/single-query")
	if len(ps) != sn {
		t.Errorf("%d pairs, %d results", len(ps), sn)
	}
	// Every solver of a benchmark ran on the same node.
	nodeOf := map[int64]string{}
	for _, p := range ps {
		n, _, _ := strings.Cut(p.Owner, "/")
		if m, ok := nodeOf[p.BenchmarkID]; ok && m != n {
			t.Errorf("%s: its solvers ran on %s and %s", p.BenchmarkPath, m, n)
		}
		nodeOf[p.BenchmarkID] = n
	}
	// status shows the pairs each node ran.
	code, out, _ = runCLI(t, "", "status", "--db", dsn, def)
	if code != 0 || !strings.Contains(out, " n1 ") || !strings.Contains(out, " n2 ") {
		t.Errorf("status: exit %d, no line per node:\n%s", code, out)
	}
	t.Logf("%d pairs, %d answered sat or unsat\n%s", sn, len(sa), out)
	// serve shows them too, a progress row per node.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	served := make(chan error, 1)
	go func() {
		served <- runServe(ctx, ServeOptions{Score: ScoreOptions{Config: def, DB: dsn}, Addr: "127.0.0.1:0"},
			streams{strings.NewReader(""), discardWriter{}, discardWriter{}}, func(a net.Addr) { addrc <- a })
	}()
	select {
	case a := <-addrc:
		resp, err := http.Get("http://" + a.String() + "/api/progress.json")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, n := range []string{"n1", "n2"} {
			if !strings.Contains(string(body), `"division":"node `+n+`"`) {
				t.Errorf("serve's progress.json has no row for node %s: %s", n, body)
			}
		}
	case err := <-served:
		t.Fatalf("serve: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not start")
	}
}

// faultDef writes a competition of n benchmarks and two fake solvers that
// take 0.3 s a pair.
func faultDef(t testing.TB, dir string, n int) string {
	t.Helper()
	writeLibrary(t, filepath.Join(dir, "lib"), n)
	def := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(def, []byte(`name = "faults"
rules = 2018
library = ["lib"]
[seed]
value = 3
[tracks.single-query]
wall_limit = "20s"
[[solvers]]
name = "a"
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["sh", "-c", "sleep 0.3; echo sat", "a", "{file}"]
[[solvers]]
name = "b"
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["sh", "-c", "sleep 0.3; echo unsat", "b", "{file}"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return def
}

// coordinator starts `compete --executor slurm` as a process of its own,
// its output in a file.
func coordinator(t testing.TB, dir, dsn, def string, n int, lease time.Duration) *exec.Cmd {
	t.Helper()
	exe, _ := os.Executable()
	out, err := os.Create(filepath.Join(dir, fmt.Sprintf("coordinator-%d.out", n)))
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(exe, "compete", "--db", dsn, "--executor", "slurm", "--slurm-jobs", "2", "--lease", lease.String(), def)
	c.Stdout, c.Stderr = out, out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill(); out.Close() })
	return c
}

// slurmTestLease is the lease of the fault tests.
const slurmTestLease = 3 * time.Second

// waitPairs waits until at least n pairs are done, failing after limit.
func waitPairs(t *testing.T, st store.Store, key string, n int, limit time.Duration, what string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		c, err := st.PairCounts(context.Background(), key)
		if err == nil && c["single-query"][store.PairDone] >= n {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	c, _ := st.PairCounts(context.Background(), key)
	t.Fatalf("%s: fewer than %d pairs done after %s (%v)", what, n, limit, c)
}

// TestSlurmFaults runs a 120-pair competition on the two-node cluster
// through every fault the executor must survive, one after the other, each
// within a time bound: kill -9 of the coordinator (started again), scancel
// of a worker job, a restart of PostgreSQL, and the loss of a node (its
// slurmd and every process of its jobs killed with SIGKILL), whose pairs
// run again on the other node. The competition finishes; every pair is
// recorded exactly once.
func TestSlurmFaults(t *testing.T) {
	cluster, dsn := slurmSetup(t)
	dir := t.TempDir()
	def := faultDef(t, dir, 60)
	const key = "faults/single-query"
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(outputs(dir))
		}
	})
	co := coordinator(t, dir, dsn, def, 1, slurmTestLease)
	st := openStoreWait(t, dsn)
	waitPairs(t, st, key, 10, 60*time.Second, "start")

	// The coordinator killed: the workers carry on; a new one takes over.
	_ = co.Process.Kill()
	_ = co.Wait()
	co = coordinator(t, dir, dsn, def, 2, slurmTestLease)
	waitPairs(t, st, key, 25, 30*time.Second, "after kill -9 of the coordinator")

	// A worker job cancelled: its pairs are given back, and the
	// coordinator submits another worker.
	out, err := exec.Command("squeue", "--noheader", "--format", "%A", "--states", "RUNNING").Output()
	if err != nil || len(strings.Fields(string(out))) == 0 {
		t.Fatalf("squeue: %v %q", err, out)
	}
	if out, err := exec.Command("scancel", strings.Fields(string(out))[0]).CombinedOutput(); err != nil {
		t.Fatalf("scancel: %v %s", err, out)
	}
	waitPairs(t, st, key, 40, 30*time.Second, "after scancel")

	// PostgreSQL restarted under the workers and the coordinator.
	testenv.RestartPostgres(t)
	waitPairs(t, st, key, 55, 30*time.Second, "after the PostgreSQL restart")

	// Node n1 lost with the pairs it runs: each runs again on n2, taken
	// over at most a lease (plus the claim poll) after the loss.
	lost, rerun := loseNode(t, cluster, st, key, "n1", slurmTestLease+30*time.Second)
	t.Logf("node loss: n1's %d pairs running again on n2 %s after the loss (lease %s)", lost, rerun.Round(time.Millisecond), slurmTestLease)

	done := make(chan error, 1)
	go func() { done <- co.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			b, _ := os.ReadFile(filepath.Join(dir, "coordinator-2.out"))
			t.Fatalf("coordinator: %v\n%s", err, b)
		}
	case <-time.After(90 * time.Second):
		t.Fatal("the coordinator did not finish within 90 s of the node loss")
	}
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, r := range rs {
		keys[r.SourceKey] = true
	}
	if len(rs) != 120 || len(keys) != 120 {
		t.Errorf("%d results for %d distinct pairs, want 120 each", len(rs), len(keys))
	}
	b, _ := os.ReadFile(filepath.Join(dir, "coordinator-2.out"))
	if !regexp.MustCompile(`\ba +60 +30 +30 +0 `).Match(b) {
		t.Errorf("summary:\n%s", b)
	}
}

// openStoreWait opens the store once the coordinator has made it.
func openStoreWait(t testing.TB, dsn string) store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// outputs returns the ends of the coordinators' and workers' outputs.
func outputs(dir string) string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(dir, "coordinator-*.out"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "slurm", "worker-*.out"))
	for _, f := range append(files, more...) {
		data, _ := os.ReadFile(f)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) > 8 {
			lines = lines[len(lines)-8:]
		}
		fmt.Fprintf(&b, "== %s\n%s\n", filepath.Base(f), strings.Join(lines, "\n"))
	}
	return b.String()
}

// TestSlurmTracks runs the parallel and the cloud track on the two-node
// cluster: a parallel-track pair gets a whole node (all its cores, no other
// pair beside it), and a cloud-track pair (nodes = 2) gets both nodes,
// listed in its hostfile, whose path it has in SMTARENA_HOSTFILE and as an
// argument.
func TestSlurmTracks(t *testing.T) {
	_, dsn := slurmSetup(t)
	dir := t.TempDir()
	writeLibrary(t, filepath.Join(dir, "lib"), 3)
	def := filepath.Join(dir, "c.toml")
	// Each run prints its answer, its start and end time and its hostfile
	// (from the variable and from the argument; empty outside the cloud
	// track); in the cloud track it also runs a busy loop on the other
	// node of its allocation through srun.
	solver := `s=$(date +%s.%N); sleep 0.4; ` +
		`if [ -n "$SMTARENA_HOSTFILE" ]; then srun --overlap -N1 -n1 -w "$(sed -n 2p "$1")" sh -c ` +
		`'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo "remote on $SLURMD_NODENAME"' 2>&1; fi; ` +
		`echo sat; echo "times $s $(date +%s.%N)"; ` +
		`echo "env $(tr '\n' ' ' < "$SMTARENA_HOSTFILE")"; echo "arg $(tr '\n' ' ' < "$1")"`
	if err := os.WriteFile(def, []byte(fmt.Sprintf(`name = "tracks"
rules = 2022
library = ["lib"]
[seed]
value = 5
[tracks.parallel]
wall_limit = "20s"
[tracks.cloud]
wall_limit = "20s"
nodes = 2
[[solvers]]
name = "a"
tracks = ["parallel", "cloud"]
logics = ["QF_UF"]
command = ["sh", "-c", %q, "a", "{hostfile}", "{file}"]
[[solvers]]
name = "b"
tracks = ["parallel", "cloud"]
logics = ["QF_UF"]
command = ["sh", "-c", %q, "b", "{hostfile}", "{file}"]
`, solver, solver)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", "compete", "--db", dsn, "--executor", "slurm", "--slurm-jobs", "2", "--lease", "5s", def)
	if code != 0 {
		t.Fatalf("compete: exit %d\n%s\n%s\n%s", code, out, errs, outputs(dir))
	}
	st := openStoreWait(t, dsn)
	for _, track := range []string{"parallel", "cloud"} {
		rs, err := st.Results(context.Background(), store.ResultFilter{Track: track})
		if err != nil {
			t.Fatal(err)
		}
		ps, err := st.Pairs(context.Background(), "tracks/"+track)
		if err != nil || len(ps) != 6 || len(rs) != 6 {
			t.Fatalf("%s: %d pairs, %d results (%v)", track, len(ps), len(rs), err)
		}
		node := map[string]string{}
		for _, p := range ps {
			node[fmt.Sprintf("pair:%d", p.ID)], _, _ = strings.Cut(p.Owner, "/")
		}
		type span struct{ from, to float64 }
		byNode := map[string][]span{}
		for _, r := range rs {
			var extra struct {
				Output string   `json:"output"`
				Cores  []int    `json:"cores"`
				Nodes  []string `json:"nodes"`
				Usage  map[string]struct {
					CPU   float64 `json:"cpu"`
					Wall  float64 `json:"wall"`
					Steps int     `json:"steps"`
				} `json:"node_usage"`
			}
			if err := json.Unmarshal([]byte(r.Extra), &extra); err != nil {
				t.Fatal(err)
			}
			if r.Answer != "sat" {
				t.Errorf("%s %s: %s %s", track, r.SourceKey, r.Status, extra.Output)
			}
			var sp span
			for _, line := range strings.Split(extra.Output, "\n") {
				fmt.Sscanf(line, "times %f %f", &sp.from, &sp.to)
			}
			byNode[node[r.SourceKey]] = append(byNode[node[r.SourceKey]], sp)
			switch track {
			case "parallel":
				if len(extra.Cores) != runtime.NumCPU() {
					t.Errorf("parallel pair on cores %v, want all %d of the node", extra.Cores, runtime.NumCPU())
				}
			case "cloud":
				if !strings.Contains(extra.Output, "env n1 n2 ") && !strings.Contains(extra.Output, "env n2 n1 ") ||
					!strings.Contains(extra.Output, "arg n1 n2 ") && !strings.Contains(extra.Output, "arg n2 n1 ") || len(extra.Nodes) != 2 {
					t.Errorf("cloud pair: hostfile lacks a node:\n%s\nnodes %v", extra.Output, extra.Nodes)
				}
				// The solver started a step on the other node, and
				// both nodes' time and CPU are recorded.
				if len(extra.Nodes) == 2 {
					other := extra.Nodes[1]
					u := extra.Usage[other]
					if !strings.Contains(extra.Output, "remote on "+other) || u.Steps != 1 || u.CPU <= 0 || u.Wall <= 0 ||
						extra.Usage[extra.Nodes[0]].Wall <= 0 || len(extra.Usage) != 2 {
						t.Errorf("cloud pair: no step on %s recorded:\n%s\nusage %+v", other, extra.Output, extra.Usage)
					}
					if r.CPU < u.CPU {
						t.Errorf("cloud pair: CPU %.2fs leaves out the other node's %.2fs", r.CPU, u.CPU)
					}
				}
			}
			t.Logf("%s %s on %s: %q usage %+v cpu %.2fs", track, r.SourceKey, node[r.SourceKey], extra.Output, extra.Usage, r.CPU)
		}
		// One pair at a time on a node (a cloud pair's allocation).
		for n, spans := range byNode {
			sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
			for i := 1; i < len(spans); i++ {
				if spans[i].from < spans[i-1].to {
					t.Errorf("%s: two pairs at once on %s: %v", track, n, spans)
				}
			}
		}
	}
}

// loseNode waits until node runs pairs, loses it (its slurmd and every
// process of its jobs get SIGKILL) and waits until each pair it held at
// that moment is claimed by another node. It returns how many pairs were
// lost and how long after the loss the last one was claimed again.
func loseNode(t testing.TB, c *testenv.SlurmCluster, st store.Store, key, node string, limit time.Duration) (int, time.Duration) {
	t.Helper()
	held := func(p store.Pair) bool { return strings.HasPrefix(p.Owner, node+"/") }
	running := func() []int64 {
		ps, _ := st.Pairs(context.Background(), key)
		var ids []int64
		for _, p := range ps {
			if p.State == store.PairRunning && held(p) {
				ids = append(ids, p.ID)
			}
		}
		return ids
	}
	for deadline := time.Now().Add(60 * time.Second); len(running()) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s runs no pair to lose", node)
		}
	}
	start := time.Now()
	c.KillNode(t, node)
	// What the node held when it died (a pair it finished just before
	// is done, not lost).
	lost := running()
	if len(lost) == 0 {
		t.Fatalf("%s held no pair when it was lost", node)
	}
	again := map[int64]bool{}
	for len(again) < len(lost) && time.Since(start) < limit {
		ps, _ := st.Pairs(context.Background(), key)
		for _, p := range ps {
			for _, id := range lost {
				// Run again elsewhere, or done by the node itself: a
				// commit it sent just before it died.
				if p.ID == id && (!held(p) || p.State == store.PairDone) {
					again[id] = true
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	took := time.Since(start)
	if len(again) < len(lost) {
		t.Fatalf("%d of %s's %d pairs ran again after %s", len(again), node, len(lost), took)
	}
	return len(lost), took
}

// TestSlurmMemoryBudget: a worker's pairs share the memory of its
// allocation, not the machine's: with 1500 MB allocated (sbatch --mem) and
// 1024 MB per pair, one pair at a time runs on a node, though it has two
// cores.
func TestSlurmMemoryBudget(t *testing.T) {
	_, dsn := slurmSetup(t)
	dir := t.TempDir()
	// A stampSolver that takes a while: two at once would overlap.
	def := stampDef(t, dir, "memory", 4, "", "memory_mb = 1024",
		[]string{"sh", "-c", `echo "t $(date +%s%N)"; sleep 0.3; echo sat; echo "t $(date +%s%N)"`, "s"})
	code, out, errs := runCLI(t, "", "compete", "--quiet", "--db", dsn, "--executor", "slurm", "--slurm-jobs", "1", "--sbatch=--mem=1500", def)
	if code != 0 {
		t.Fatalf("compete: exit %d\n%s\n%s\n%s", code, out, errs, outputs(dir))
	}
	st := openStoreWait(t, dsn)
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
	if err != nil || len(rs) != 8 {
		t.Fatalf("%d results: %v", len(rs), err)
	}
	var spans [][2]int64
	for _, r := range rs {
		var extra struct {
			Output string `json:"output"`
		}
		_ = json.Unmarshal([]byte(r.Extra), &extra)
		from, to, ok := stamps(extra.Output)
		if !ok {
			t.Fatalf("no times in %q", extra.Output)
		}
		spans = append(spans, [2]int64{from, to})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	for i := 1; i < len(spans); i++ {
		if spans[i][0] < spans[i-1][1] {
			t.Errorf("two pairs at once in an allocation of memory for one: %v", spans)
			break
		}
	}
}

// TestExecutorFlagErrors: bad executor settings are named, with exit 2.
func TestExecutorFlagErrors(t *testing.T) {
	dir := t.TempDir()
	def := faultDef(t, dir, 2)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compete", "--executor", "pbs", def}, "--executor pbs: want local or slurm"},
		{[]string{"compete", "--lease", "-1s", def}, "--lease -1s: must be positive"},
		{[]string{"worker", "--track", "cloud", def}, "--track cloud: " + def + " has no such track"},
		{[]string{"worker", "--lease", "0s", def}, "--lease 0s: must be positive"},
	} {
		code, _, errs := runCLI(t, "", c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, errs, c.want)
		}
	}
}

// TestDemoSlurm runs the demo's competition (examples/demo.toml, on the
// library `make demo` generates: every track, the four solvers, the
// unsat-core validation) with the Slurm executor on the two-node cluster
// and with the local executor: the same results, track by track.
func TestDemoSlurm(t *testing.T) {
	for _, s := range []string{"z3", "cvc4", "cvc5", "boolector"} {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s: %v", s, err)
		}
	}
	_, dsn := slurmSetup(t)
	dir := t.TempDir()
	if code, out, errs := runCLI(t, "", "generate", "--out", filepath.Join(dir, "out", "demo", "library"), "--seed", "7", "--size", "small"); code != 0 {
		t.Fatalf("generate: %s %s", out, errs)
	}
	src, err := os.ReadFile(filepath.Join(testenv.Root(), "examples", "demo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "examples"), 0o755); err != nil {
		t.Fatal(err)
	}
	def, localDef := filepath.Join(dir, "examples", "demo.toml"), filepath.Join(dir, "examples", "local.toml")
	local := strings.Replace(string(src), `workdir = "../out/demo/work"`, `workdir = "../out/demo/work-local"`, 1)
	if local == string(src) {
		t.Fatal("examples/demo.toml has no workdir line to change")
	}
	if err := os.WriteFile(def, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(localDef, []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, "", "compete", "--quiet", "--db", dsn, "--executor", "slurm", "--slurm-jobs", "2", def); code != 0 {
		t.Fatalf("compete --executor slurm: exit %d\n%s\n%s\n%s", code, out, errs, outputs(filepath.Join(dir, "out", "demo")))
	}
	localDB := filepath.Join(dir, "local.db")
	if code, out, errs := runCLI(t, "", "compete", "--quiet", "--db", localDB, localDef); code != 0 {
		t.Fatalf("compete (local): exit %d\n%s\n%s", code, out, errs)
	}
	pg := openStoreWait(t, dsn)
	lo := openStoreWait(t, localDB)
	cdef, err := config.Load(def)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range cdef.TrackNames() {
		results := func(st store.Store) map[string][]string {
			rs, err := st.Results(context.Background(), store.ResultFilter{Track: string(tr)})
			if err != nil {
				t.Fatal(err)
			}
			out := map[string][]string{}
			for _, r := range rs {
				k := r.Solver + " " + r.Configuration + " " + r.BenchmarkPath
				out[k] = append(out[k], r.Status+" "+r.Answer)
			}
			for _, v := range out {
				sort.Strings(v)
			}
			return out
		}
		a, b := results(pg), results(lo)
		if len(a) == 0 || len(a) != len(b) {
			t.Errorf("%s: %d results on Slurm, %d locally", tr, len(a), len(b))
		}
		for k, v := range a {
			if fmt.Sprint(v) != fmt.Sprint(b[k]) {
				t.Errorf("%s %s: %v on Slurm, %v locally", tr, k, v, b[k])
			}
		}
	}
}
