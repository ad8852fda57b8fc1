package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/executor"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/spf13/cobra"
)

// WorkerOptions are the flags of `smtarena worker`.
type WorkerOptions struct {
	DB      string
	Track   string
	Lease   time.Duration
	Workers int
	Node    string
	Quiet   bool
	Split   bool
}

func newWorkerCmd(io streams) *cobra.Command {
	var opts WorkerOptions
	cmd := &cobra.Command{
		Use:   "worker --db DSN [--track T] [--lease D] [--workers N] competition.toml",
		Short: "Run a competition's planned pairs on this node until all are done",
		Long: `Run pairs that compete (with --executor slurm) planned in a shared store:
claim pairs under a lease, keep the lease alive while they run, run each in the
sandbox on this node, record its result once, claim the next. It returns when
every pair of the track is done, taking over pairs whose lease expired (a node
lost, a worker killed). Stopped by a signal (scancel), it gives its running
pairs back for others to run at once. On a Slurm node the memory budget of its
pairs is the allocation's (SLURM_MEM_PER_NODE), its node name SLURMD_NODENAME,
and in the cloud track the allocation's nodes are written to a hostfile whose
path the solver gets in SMTARENA_HOSTFILE (and for {hostfile} in its command);
the solver may start steps on those nodes with srun, and the CPU and time of
each node are recorded with its result (node_usage).`,
		Example: `  smtarena worker --db postgres://arena@db/smtcomp --track single-query comp.toml`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWorker(cmd.Context(), opts, args[0], io)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", os.Getenv("SMTARENA_DB"), "the competition's store (PostgreSQL when workers run on many machines)")
	cmd.Flags().StringVar(&opts.Track, "track", "", "run this track's pairs only (default: every track, in order)")
	cmd.Flags().DurationVar(&opts.Lease, "lease", time.Minute, "how long a claimed pair stays this worker's without a heartbeat")
	cmd.Flags().IntVar(&opts.Workers, "workers", 0, "pairs run at once (default: the node's CPUs / cores per pair)")
	cmd.Flags().StringVar(&opts.Node, "node", "", "this node's name in the store (default: SLURMD_NODENAME, else the host name)")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "no line per pair")
	cmd.Flags().BoolVar(&opts.Split, "split-benchmarks", false, "claim pairs one by one (a benchmark's solvers may then run on different nodes)")
	return cmd
}

func runWorker(ctx context.Context, opts WorkerOptions, path string, io streams) error {
	if opts.Lease <= 0 {
		return fmt.Errorf("--lease %s: must be positive", opts.Lease)
	}
	def, st, err := openCompetition(ctx, path, opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	var tracks []benchmark.Track
	if opts.Track != "" {
		if _, ok := def.Tracks[opts.Track]; !ok {
			return fmt.Errorf("--track %s: %s has no such track (it has %v)", opts.Track, path, def.TrackNames())
		}
		tracks = []benchmark.Track{benchmark.Track(opts.Track)}
	}
	node := opts.Node
	if node == "" {
		node = os.Getenv("SLURMD_NODENAME")
	}
	if node == "" {
		node, _ = os.Hostname()
	}
	local := &executor.Local{Lease: opts.Lease, Owner: executor.OwnerOn(node), UntilDone: true, ByBenchmark: !opts.Split}
	// The memory the allocation grants (MB), not the machine's: other
	// jobs may share the machine with a non-exclusive allocation.
	if mb, err := strconv.ParseInt(os.Getenv("SLURM_MEM_PER_NODE"), 10, 64); err == nil && mb > 0 {
		local.MemoryBudget = mb << 20
	}
	mv, mvEnv := modelValidatorCommand()
	copts := compete.Options{Executor: local, Workers: opts.Workers, Tracks: tracks, ModelValidator: mv, ModelValidatorEnv: mvEnv,
		Log: slog.New(slog.NewTextHandler(io.err, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	if _, ok := def.Tracks[string(benchmark.Cloud)]; ok && (opts.Track == "" || opts.Track == string(benchmark.Cloud)) {
		if copts.Hostfile, err = writeHostfile(ctx, def); err != nil {
			return err
		}
	}
	// No planning: the coordinator planned the pairs; a worker only runs
	// them. With none planned at all it would return at once, saying
	// nothing: say why instead.
	planned := 0
	for _, t := range def.TrackNames() {
		c, err := st.PairCounts(ctx, compete.Key(def, t))
		if err != nil {
			return err
		}
		for _, n := range c[string(t)] {
			planned += n
		}
	}
	if planned == 0 {
		return fmt.Errorf("%s: no pairs of competition %q are planned in its store: a worker runs the pairs smtarena compete plans (has it run, with the same --db?)", path, def.Name)
	}
	var mu sync.Mutex
	ran := 0
	copts.OnPair = func(p store.Pair, r store.Result) {
		mu.Lock()
		defer mu.Unlock()
		ran++
		if !opts.Quiet {
			fmt.Fprintf(io.err, "%s: pair %d %s %s %s: %s %s %.2fs\n", node, p.ID, p.Track, p.Solver, p.BenchmarkPath, r.Status, r.Answer, r.Wall)
		}
	}
	err = compete.Run(ctx, &compete.Prepared{Def: def, Store: st}, copts)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("worker on %s stopped: its running pairs are given back", node)
	}
	if err == nil && !opts.Quiet {
		which := "every track"
		if opts.Track != "" {
			which = "the " + opts.Track + " track"
		}
		fmt.Fprintf(io.err, "%s: %d pairs run here; every pair of %s is done\n", node, ran, which)
	}
	return err
}

// writeHostfile writes the nodes of this Slurm allocation, one per line,
// the first (where the worker and each pair's solver start) first, into
// the work directory, and returns its path; outside Slurm, this host alone.
func writeHostfile(ctx context.Context, def *config.Competition) (string, error) {
	nodes := []string{}
	if list := os.Getenv("SLURM_JOB_NODELIST"); list != "" {
		out, err := exec.CommandContext(ctx, "scontrol", "show", "hostnames", list).Output()
		if err != nil {
			return "", fmt.Errorf("hostfile: scontrol show hostnames %s: %w", list, err)
		}
		nodes = strings.Fields(string(out))
	}
	if len(nodes) == 0 {
		h, _ := os.Hostname()
		nodes = []string{h}
	}
	first := os.Getenv("SLURMD_NODENAME")
	for i, n := range nodes {
		if n == first && i > 0 {
			nodes[0], nodes[i] = nodes[i], nodes[0]
		}
	}
	dir := filepath.Join(def.Path(def.WorkDir), "hostfiles")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("hostfile: %w", err)
	}
	name := os.Getenv("SLURM_JOB_ID")
	if name == "" {
		name = strconv.Itoa(os.Getpid())
	}
	path := filepath.Join(dir, "hostfile-"+name)
	if err := os.WriteFile(path, []byte(strings.Join(nodes, "\n")+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("hostfile: %w", err)
	}
	return path, nil
}
