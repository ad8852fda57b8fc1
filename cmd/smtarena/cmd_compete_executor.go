package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/executor"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/spf13/cobra"
)

// ExecutorOptions are compete's flags that choose where pairs run; they
// override the competition file's [executor] table.
type ExecutorOptions struct {
	Executor  string
	Lease     time.Duration
	Jobs      int
	Partition string
	Sbatch    []string
}

func addExecutorFlags(cmd *cobra.Command, o *ExecutorOptions) {
	cmd.Flags().StringVar(&o.Executor, "executor", "", "where pairs run: local or slurm (default: the file's [executor] type, else local)")
	cmd.Flags().DurationVar(&o.Lease, "lease", 0, "how long a claimed pair stays its worker's without a heartbeat (default 1m)")
	cmd.Flags().IntVar(&o.Jobs, "slurm-jobs", 0, "Slurm worker jobs kept queued or running (default: [executor] jobs, else 1)")
	cmd.Flags().StringVar(&o.Partition, "partition", "", "Slurm partition of the worker jobs")
	cmd.Flags().StringArrayVar(&o.Sbatch, "sbatch", nil, "a further sbatch option for the worker jobs (repeatable)")
}

// competeExecutor builds the executor a competition runs on.
func competeExecutor(o ExecutorOptions, def *config.Competition, defPath, dsn string, st store.Store, progress io.Writer, quiet bool) (executor.Executor, error) {
	e := def.Executor
	kind := o.Executor
	if kind == "" {
		kind = e.Type
	}
	lease := o.Lease
	if lease == 0 {
		lease = e.Lease.Duration
	}
	if lease < 0 {
		return nil, fmt.Errorf("--lease %s: must be positive", lease)
	}
	switch kind {
	case "", "local":
		return &executor.Local{Lease: lease}, nil
	case "slurm":
	default:
		return nil, fmt.Errorf("--executor %s: want local or slurm", kind)
	}
	if err := store.Shared(st); err != nil {
		return nil, fmt.Errorf("--executor slurm: %w", err)
	}
	if lease == 0 {
		lease = time.Minute
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--executor slurm: the smtarena binary: %w", err)
	}
	abs, err := filepath.Abs(defPath)
	if err != nil {
		return nil, err
	}
	s := &executor.Slurm{Jobs: o.Jobs, Partition: o.Partition, Sbatch: append(append([]string(nil), e.Sbatch...), o.Sbatch...),
		Dir: filepath.Join(def.Path(def.WorkDir), "slurm")}
	if s.Jobs == 0 {
		s.Jobs = e.Jobs
	}
	if s.Partition == "" {
		s.Partition = e.Partition
	}
	s.Worker = func(job executor.Job) executor.WorkerSpec {
		// A track's key is NAME/TRACK; its later jobs are keys below it
		// (NAME/unsat-core/validation), which the track's worker runs
		// after the track's own pairs, as compete does.
		track, _, _ := strings.Cut(strings.TrimPrefix(job.Competition, def.Name+"/"), "/")
		spec := executor.WorkerSpec{Args: []string{exe, "worker", "--track", track, "--lease", lease.String(), abs},
			Env: []string{"SMTARENA_DB=" + dsn}, Nodes: 1}
		if track == string(benchmark.Cloud) {
			spec.Nodes = max(def.Tracks[track].Nodes, 1)
		}
		return spec
	}
	var mu sync.Mutex
	last := ""
	s.Progress = func(states map[string]int, nodes map[string]map[string]int) {
		line := fmt.Sprintf("slurm: %d done, %d running, %d pending", states[store.PairDone], states[store.PairRunning], states[store.PairPending])
		names := make([]string, 0, len(nodes))
		for n := range nodes {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			line += fmt.Sprintf("; %s: %d done, %d running", n, nodes[n][store.PairDone], nodes[n][store.PairRunning])
		}
		mu.Lock()
		defer mu.Unlock()
		if line != last && !quiet {
			fmt.Fprintln(progress, line)
			last = line
		}
	}
	return s, nil
}

// nodeCounts returns the pairs each node (the host, or Slurm node, of the
// worker that holds or ran them) runs and has done, by track.
func nodeCounts(ctx context.Context, def *config.Competition, st store.Store) (map[string]map[string]map[string]int, error) {
	out := map[string]map[string]map[string]int{}
	for _, t := range def.TrackNames() {
		c, err := st.NodeCounts(ctx, compete.Key(def, t))
		if err != nil {
			return nil, err
		}
		if len(c) > 0 {
			out[string(t)] = c
		}
	}
	return out, nil
}

// printNodes prints nodeCounts, track by track.
func printNodes(ctx context.Context, def *config.Competition, st store.Store, w io.Writer) error {
	all, err := nodeCounts(ctx, def, st)
	if err != nil {
		return err
	}
	var tw *tabwriter.Writer
	for _, t := range def.TrackNames() {
		c := all[string(t)]
		names := make([]string, 0, len(c))
		for n := range c {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if tw == nil {
				fmt.Fprintln(w)
				tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
				fmt.Fprintln(tw, "track\tnode\trunning\tdone\t")
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t\n", t, n, c[n][store.PairRunning], c[n][store.PairDone])
		}
	}
	if tw != nil {
		return tw.Flush()
	}
	return nil
}
