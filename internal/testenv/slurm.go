package testenv

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// NodeMemoryMB is the memory each node of a test cluster has (of the
// machine's, shared): jobs may ask for part of it (sbatch --mem).
const NodeMemoryMB = 4000

// SlurmCluster is a Slurm cluster a test started on loopback: munged,
// slurmctld and one slurmd per node (`slurmd -N n1`, each on a port of its
// own), all on this machine, with a configuration, state and logs in a
// temporary directory.
type SlurmCluster struct {
	Dir   string
	Conf  string   // the slurm.conf; SLURM_CONF names it for the client commands
	Nodes []string // n1, n2, ...
	procs []*exec.Cmd
	sock  string
}

// Slurm starts a cluster of n nodes for the calling test, sets SLURM_CONF
// for the test (so sbatch, squeue and the workers find it), and stops it
// when the test ends. It skips (or fails under
// SMTARENA_TEST_DISALLOW_SKIP) where one cannot run: slurmd runs jobs as
// their users, so it needs root, and Debian's slurm-wlm and munge.
func Slurm(t testing.TB, n int) *SlurmCluster {
	t.Helper()
	if os.Geteuid() != 0 {
		Skipf(t, "needs root to run a Slurm cluster (slurmd)")
	}
	bins := map[string]string{}
	for _, name := range []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel", "sinfo"} {
		p, err := exec.LookPath(name)
		if err != nil {
			p = "/usr/sbin/" + name
			if _, err2 := os.Stat(p); err2 != nil {
				Skipf(t, "needs Slurm and munge (Debian's slurm-wlm and munge; scripts/install-deps.sh): %s: %v", name, err)
			}
		}
		bins[name] = p
	}
	dir, err := os.MkdirTemp("", "smtarena-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	c := &SlurmCluster{Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), sock: filepath.Join(dir, "run", "munge.sock")}
	t.Cleanup(func() { c.stop(t) })
	for _, d := range []string{"munge", "run", "state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// munged insists on a private key directory and key.
	if err := os.Chmod(filepath.Join(dir, "munge"), 0o700); err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 1024)
	_, _ = rand.Read(key)
	if err := os.WriteFile(filepath.Join(dir, "munge", "key"), key, 0o400); err != nil {
		t.Fatal(err)
	}
	c.start(t, bins["munged"], "-F", "-f", "-S", c.sock, "--key-file="+filepath.Join(dir, "munge", "key"),
		"--log-file="+filepath.Join(dir, "log", "munge.log"), "--pid-file="+filepath.Join(dir, "run", "munged.pid"),
		"--seed-file="+filepath.Join(dir, "munge", "seed"))
	ports := freePorts(t, n+1)
	var nodes strings.Builder
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("n%d", i+1)
		c.Nodes = append(c.Nodes, name)
		fmt.Fprintf(&nodes, "NodeName=%s NodeHostname=localhost NodeAddr=127.0.0.1 Port=%d CPUs=%d RealMemory=%d State=UNKNOWN\n",
			name, ports[i+1], cpus(), NodeMemoryMB)
	}
	conf := fmt.Sprintf(`# A test cluster of smtarena (internal/testenv): all on loopback.
ClusterName=smtarena-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=%d
AuthType=auth/munge
AuthInfo=socket=%s
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=%s/state
SlurmdSpoolDir=%s/spool/%%n
SlurmctldPidFile=%s/run/slurmctld.pid
SlurmdPidFile=%s/run/slurmd-%%n.pid
SlurmctldLogFile=%s/log/slurmctld.log
SlurmdLogFile=%s/log/slurmd-%%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
SlurmdTimeout=5
SlurmctldTimeout=5
MessageTimeout=5
InactiveLimit=0
MinJobAge=5
KillWait=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
%sPartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`, ports[0], c.sock, dir, dir, dir, dir, dir, dir, nodes.String())
	if err := os.WriteFile(c.Conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SLURM_CONF", c.Conf)
	waitFor(t, 10*time.Second, "munged", func() bool { _, err := os.Stat(c.sock); return err == nil })
	c.start(t, bins["slurmctld"], "-D", "-f", c.Conf)
	for _, node := range c.Nodes {
		c.start(t, bins["slurmd"], "-D", "-f", c.Conf, "-N", node)
	}
	waitFor(t, 30*time.Second, "the nodes to be idle", func() bool {
		out, _ := exec.Command("sinfo", "--noheader", "--format", "%N %t").Output()
		return strings.Count(string(out), "idle") > 0 && c.idle() == n
	})
	return c
}

// idle counts the idle nodes.
func (c *SlurmCluster) idle() int {
	out, _ := exec.Command("sinfo", "--noheader", "--Node", "--format", "%N %t").Output()
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == "idle" {
			n++
		}
	}
	return n
}

func (c *SlurmCluster) start(t testing.TB, prog string, args ...string) {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.Conf)
	cmd.Dir = c.Dir
	cmd.Stdout, cmd.Stderr = nil, nil
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", prog, err)
	}
	c.procs = append(c.procs, cmd)
}

// KillNode loses a node as a machine fails: its slurmd and every process
// of the jobs on it (their slurmstepd and all below) get SIGKILL at once.
func (c *SlurmCluster) KillNode(t testing.TB, node string) {
	t.Helper()
	out, err := exec.Command("squeue", "--noheader", "--nodelist", node, "--format", "%A").Output()
	if err != nil {
		t.Fatalf("squeue: %v", err)
	}
	jobs := strings.Fields(string(out))
	var roots []int
	for _, p := range c.procs {
		if strings.HasSuffix(p.Path, "slurmd") && p.Args[len(p.Args)-1] == node {
			roots = append(roots, p.Process.Pid)
		}
	}
	for _, pid := range allPids() {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		for _, j := range jobs {
			if bytes.HasPrefix(cmdline, []byte("slurmstepd: ["+j+".")) {
				roots = append(roots, pid)
			}
		}
	}
	victims := descendants(roots)
	for _, pid := range victims {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	t.Logf("node %s lost: SIGKILL to %d processes (jobs %v)", node, len(victims), jobs)
}

// Logs returns the cluster's logs, for a failing test's message.
func (c *SlurmCluster) Logs() string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(c.Dir, "log", "*.log"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) > 15 {
			lines = lines[len(lines)-15:]
		}
		fmt.Fprintf(&b, "== %s\n%s\n", filepath.Base(f), strings.Join(lines, "\n"))
	}
	return b.String()
}

// stop cancels every job, stops the daemons and removes the directory.
func (c *SlurmCluster) stop(t testing.TB) {
	if len(c.procs) > 1 {
		_ = exec.Command("scancel", "--full", "--signal=KILL", "--user=root").Run()
		_ = exec.Command("scancel", "--user=root").Run()
		waitFor(nil, 10*time.Second, "", func() bool {
			out, err := exec.Command("squeue", "--noheader").Output()
			return err != nil || strings.TrimSpace(string(out)) == ""
		})
	}
	// Step daemons left behind (a killed node's jobs, a job whose end
	// slurmctld did not hear of) are not our children: find them, and
	// what runs below them, by the SLURM_CONF they got from slurmd.
	var roots []int
	mark := []byte("SLURM_CONF=" + c.Conf + "\x00")
	for _, pid := range allPids() {
		if env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid)); err == nil && bytes.Contains(env, mark) && pid != os.Getpid() {
			roots = append(roots, pid)
		}
	}
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		_ = p.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = p.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-p.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	for _, pid := range descendants(roots) {
		if pid != os.Getpid() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	if t != nil && t.Failed() {
		t.Logf("Slurm logs:\n%s", c.Logs())
	}
	os.RemoveAll(c.Dir)
}

// descendants returns the processes and all processes below them.
func descendants(roots []int) []int {
	children := map[int][]int{}
	for _, pid := range allPids() {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		children[ppid] = append(children[ppid], pid)
	}
	seen := map[int]bool{}
	var out []int
	var walk func(int)
	walk = func(p int) {
		if seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
		for _, c := range children[p] {
			walk(c)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return out
}

func allPids() []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// cpus is the number of CPUs a node claims: the machine's.
func cpus() int {
	out, err := exec.Command("nproc").Output()
	if n, err2 := strconv.Atoi(strings.TrimSpace(string(out))); err == nil && err2 == nil && n > 0 {
		return n
	}
	return 1
}

func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var lns []net.Listener
	var out []int
	for i := 0; i < n; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		out = append(out, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return out
}

// waitFor polls cond until it holds or the limit passes (then fails t, if
// not nil, naming what).
func waitFor(t testing.TB, limit time.Duration, what string, cond func() bool) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	if t != nil {
		t.Fatalf("waited %s for %s", limit, what)
	}
}
