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
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
)

// stepEpilog is the task epilog (SLURM_TASK_EPILOG, which srun reads) that
// a cloud-track solver's steps get: slurmstepd runs it on the task's node
// after each task ends, as a child of the step's slurmstepd, which has
// reaped the task, so that slurmstepd's children's CPU time (cutime and
// cstime of /proc/PPID/stat) is the CPU time of the step's tasks on this
// node so far. It appends the node, the step, that CPU time and the
// step's start and end (clock ticks since boot) to the pair's step log.
const stepEpilog = `#!/bin/sh
# smtarena: CPU and time of a cloud-track solver's Slurm step on this node.
[ -n "$SMTARENA_STEP_LOG" ] || exit 0
set -- $(sed 's/.*) //' /proc/$PPID/stat)
up=$(cut -d' ' -f1 /proc/uptime)
echo "$SLURMD_NODENAME $SLURM_STEP_ID $((${14} + ${15})) ${20} $up $(getconf CLK_TCK)" >> "$SMTARENA_STEP_LOG"
`

// inCluster gives a cloud-track run on a Slurm allocation what it needs to
// start steps on the allocation's nodes with srun (sandbox.Spec.Cluster:
// the host's network, the worker's user, slurm.conf and the munge socket
// visible) and the task epilog that records each step's CPU time per
// node. It returns the step log to read after the run ("" outside Slurm).
func (r *runner) inCluster(spec *sandbox.Spec, pairID int64) (string, error) {
	job := os.Getenv("SLURM_JOB_ID")
	if job == "" {
		return "", nil
	}
	spec.Cluster = true
	conf := os.Getenv("SLURM_CONF")
	if conf == "" {
		conf = "/etc/slurm/slurm.conf"
	}
	spec.Keep = append(spec.Keep, conf, "/run/munge", "/run/slurm") // slurmd's configless cache
	if sock := mungeSocket(conf); sock != "" {
		spec.Keep = append(spec.Keep, filepath.Dir(sock))
	}
	dir := filepath.Join(r.p.Def.Path(r.p.Def.WorkDir), "steps")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cloud track: %w", err)
	}
	epilog := filepath.Join(dir, "epilog.sh")
	if err := os.WriteFile(epilog+".new", []byte(stepEpilog), 0o755); err != nil {
		return "", fmt.Errorf("cloud track: %w", err)
	}
	if err := os.Rename(epilog+".new", epilog); err != nil {
		return "", fmt.Errorf("cloud track: %w", err)
	}
	log := filepath.Join(dir, fmt.Sprintf("pair-%d-job-%s.log", pairID, job))
	if err := os.WriteFile(log, nil, 0o666); err != nil {
		return "", fmt.Errorf("cloud track: %w", err)
	}
	_ = os.Chmod(log, 0o666)
	spec.Env = append(spec.Env, "SLURM_TASK_EPILOG="+epilog, "SMTARENA_STEP_LOG="+log)
	return log, nil
}

// mungeSocket is the munge socket slurm.conf names (AuthInfo socket=...).
func mungeSocket(conf string) string {
	f, err := os.Open(conf)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if !ok || !strings.EqualFold(k, "AuthInfo") {
			continue
		}
		for _, opt := range strings.Split(v, ",") {
			if s, ok := strings.CutPrefix(opt, "socket="); ok {
				return s
			}
		}
	}
	return ""
}

// nodeUsage is what a cloud-track pair used on one node.
type nodeUsage struct {
	CPU   float64 `json:"cpu"`   // seconds
	Wall  float64 `json:"wall"`  // seconds the node's steps ran (summed)
	Steps int     `json:"steps"` // Slurm steps the solver started there
}

// stepUsage reads a pair's step log: the CPU time and duration of the
// solver's steps, per node. The first node's entry also gets the run's
// own CPU and wall time (the solver, started there in the sandbox).
func stepUsage(log, first string, sr sandbox.Result) (map[string]*nodeUsage, error) {
	nodes := map[string]*nodeUsage{first: {CPU: sr.CPU.Seconds(), Wall: sr.Wall.Seconds()}}
	b, err := os.ReadFile(log)
	if err != nil {
		return nodes, fmt.Errorf("cloud track: step log: %w", err)
	}
	type key struct{ node, step string }
	type step struct{ cpu, wall float64 }
	steps := map[key]step{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		var v [4]float64
		bad := len(f) != 6
		for j := 0; !bad && j < 4; j++ {
			v[j], err = strconv.ParseFloat(f[2+j], 64)
			bad = err != nil
		}
		if bad || v[3] <= 0 {
			return nodes, fmt.Errorf("cloud track: step log %s:%d: want node, step, CPU ticks, start ticks, uptime, ticks per second: %q", log, i+1, line)
		}
		k := key{f[0], f[1]}
		s := step{cpu: v[0] / v[3], wall: v[2] - v[1]/v[3]}
		// Each task of a step appends; the counts grow: keep the last.
		if s.cpu >= steps[k].cpu {
			steps[k] = s
		}
	}
	for k, s := range steps {
		u := nodes[k.node]
		if u == nil {
			u = &nodeUsage{}
			nodes[k.node] = u
		}
		u.CPU += s.cpu
		u.Wall += s.wall
		u.Steps++
	}
	return nodes, nil
}

// cancelSteps ends the steps of this job the pair's solver left running
// (the limits hold for the whole allocation): every step but the batch
// step, in which the worker runs, and extern.
func cancelSteps(ctx context.Context) {
	job := os.Getenv("SLURM_JOB_ID")
	if job == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "squeue", "--noheader", "--steps", "--jobs", job, "--format", "%i").Output()
	if err != nil {
		return
	}
	for _, id := range strings.Fields(string(out)) {
		_, step, _ := strings.Cut(id, ".")
		if _, err := strconv.Atoi(step); err == nil {
			_ = exec.CommandContext(ctx, "scancel", "--signal=KILL", id).Run()
		}
	}
}

// sandboxSeconds is a duration of s seconds.
func sandboxSeconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
