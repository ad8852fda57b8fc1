package executor

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smtarena/smtarena/internal/store"
)

var _ Executor = (*Slurm)(nil)

// Slurm runs a job's pairs on a Slurm cluster: it submits worker jobs with
// sbatch, each an `smtarena worker` that claims pairs from the shared
// PostgreSQL store under leases and runs many of them, and it watches the
// store until every pair is recorded, submitting workers again while
// fewer than Jobs are queued or running (a node lost, a job cancelled).
// The coordinator may be stopped and started again at any moment: the
// workers carry on without it, and a new one finds them by their job name.
type Slurm struct {
	// Worker says how a job's workers run.
	Worker func(job Job) WorkerSpec
	// Jobs is how many worker jobs are kept queued or running (default 1).
	Jobs int
	// Partition, when set, is the partition the jobs go to.
	Partition string
	// Sbatch holds further sbatch options (--account, --time, ...).
	Sbatch []string
	// Dir holds the job scripts and the workers' output (on the shared
	// filesystem).
	Dir string
	// Poll is how often the store and the queue are looked at (default 2 s).
	Poll time.Duration
	// Progress, when set, is called after each look with the job's pair
	// counts by state and by node.
	Progress func(states map[string]int, nodes map[string]map[string]int)
}

// WorkerSpec is how the workers of a job run.
type WorkerSpec struct {
	// Args is the worker's command line: the smtarena binary on the
	// shared filesystem and its arguments.
	Args []string
	// Env holds NAME=value settings for the worker, kept out of its
	// command line (which every user of a node can read): the store's
	// DSN, with its password.
	Env []string
	// Nodes is how many nodes each worker job gets (default 1; the cloud
	// track's k, whose pairs start on the first and may use the others).
	Nodes int
}

// JobName is the Slurm job name of a competition key's workers: a
// restarted coordinator finds them by it.
func JobName(competition string) string {
	h := sha256.Sum256([]byte(competition))
	return fmt.Sprintf("smtarena-%x", h[:5])
}

// Run submits workers and waits until every pair of the job is done.
// Cancelling ctx stops the waiting only: the workers run on.
func (s *Slurm) Run(ctx context.Context, job Job) error {
	if st, ok := job.Store.(store.Store); ok {
		if err := store.Shared(st); err != nil {
			return fmt.Errorf("executor slurm: %w", err)
		}
	}
	if s.Worker == nil {
		return errors.New("executor slurm: no worker command")
	}
	for _, prog := range []string{"sbatch", "squeue"} {
		if _, err := exec.LookPath(prog); err != nil {
			return fmt.Errorf("executor slurm: %s not found: is this a Slurm submit host? %w", prog, err)
		}
	}
	want := max(s.Jobs, 1)
	poll := s.Poll
	if poll <= 0 {
		poll = 2 * time.Second
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return fmt.Errorf("executor slurm: %w", err)
	}
	name := JobName(job.Competition)
	spec := s.Worker(job)
	script, err := s.writeScript(spec, name)
	if err != nil {
		return err
	}
	// Workers that die at once (a binary not on the nodes, a store they
	// cannot reach) would be submitted again forever: give up after
	// several submissions in a row during which no pair was done or
	// claimed.
	fruitless, lastDone, lastRunning := 0, -1, -1
	var lastJob string
	for {
		states, err := job.Store.PairCounts(ctx, job.Competition)
		if err != nil {
			return err
		}
		c := map[string]int{}
		for _, m := range states {
			for k, n := range m {
				c[k] += n
			}
		}
		if s.Progress != nil {
			nodes, err := job.Store.NodeCounts(ctx, job.Competition)
			if err != nil {
				return err
			}
			s.Progress(c, nodes)
		}
		if c[store.PairPending]+c[store.PairRunning] == 0 {
			// Running workers find nothing left and end; a job still
			// queued (requeued from a lost node) would only do the same.
			_ = exec.CommandContext(ctx, "scancel", "--user", strconv.Itoa(os.Getuid()), "--name", name, "--state", "PENDING").Run()
			return nil
		}
		if c[store.PairDone] != lastDone || c[store.PairRunning] != lastRunning {
			// Workers done or claimed pairs (slow ones may take long).
			fruitless, lastDone, lastRunning = 0, c[store.PairDone], c[store.PairRunning]
		}
		live, err := s.queued(ctx, name)
		if err != nil {
			return err
		}
		for i := live; i < want; i++ {
			if fruitless >= 2*want+2 {
				return fmt.Errorf("executor slurm: %d worker jobs in a row ended without completing a pair; the last one's output: %s%s",
					fruitless, s.output(lastJob), tail(s.output(lastJob)))
			}
			id, err := s.submit(ctx, script, name, spec.Nodes)
			if err != nil {
				return err
			}
			fruitless++
			lastJob = id
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// writeScript writes the batch script of the job's workers.
func (s *Slurm) writeScript(spec WorkerSpec, name string) (string, error) {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# An smtarena worker: claims pairs from the store and runs them until all are done.\n")
	for _, kv := range spec.Env {
		name, value, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "export %s=%s\n", name, shellQuote(value))
	}
	b.WriteString("exec")
	for _, a := range spec.Args {
		b.WriteString(" " + shellQuote(a))
	}
	b.WriteString("\n")
	path := filepath.Join(s.Dir, name+".sh")
	// Readable by its owner alone: it holds the store's DSN.
	if err := os.WriteFile(path, []byte(b.String()), 0o700); err != nil {
		return "", fmt.Errorf("executor slurm: %w", err)
	}
	if err := os.Chmod(path, 0o700); err != nil { // made wider by an older smtarena
		return "", fmt.Errorf("executor slurm: %w", err)
	}
	return path, nil
}

// submit submits one worker job and returns its id. Nodes are used
// exclusively: a worker's pairs share its node with nothing else.
func (s *Slurm) submit(ctx context.Context, script, name string, nodes int) (string, error) {
	args := []string{"--parsable", "--job-name", name, "--nodes", strconv.Itoa(max(nodes, 1)), "--exclusive",
		"--output", filepath.Join(s.Dir, "worker-%j.out"), "--chdir", s.Dir}
	if s.Partition != "" {
		args = append(args, "--partition", s.Partition)
	}
	args = append(args, s.Sbatch...)
	args = append(args, script)
	out, err := exec.CommandContext(ctx, "sbatch", args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("executor slurm: sbatch: %w: %s", err, strings.TrimSpace(string(out)))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	return id, nil
}

// queued counts the worker jobs of a name that are pending or running.
func (s *Slurm) queued(ctx context.Context, name string) (int, error) {
	// Ours: another user's competition of the same name is not.
	out, err := exec.CommandContext(ctx, "squeue", "--noheader", "--user", strconv.Itoa(os.Getuid()), "--name", name, "--format", "%i %T").CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("executor slurm: squeue: %w: %s", err, strings.TrimSpace(string(out)))
	}
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[1] {
		case "PENDING", "RUNNING", "CONFIGURING", "REQUEUED", "RESIZING", "SUSPENDED":
			n++
		}
	}
	return n, nil
}

// output is the path of a worker job's output file.
func (s *Slurm) output(id string) string {
	return filepath.Join(s.Dir, "worker-"+id+".out")
}

// tail returns the last lines of a file, for an error message.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return "\n" + strings.Join(lines, "\n")
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,@%+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
