package executor

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/smtarena/smtarena/internal/store"
)

// RunFunc runs one pair on a worker slot (slots index disjoint core sets)
// and returns its result. An error means the pair could not be judged
// (the context was cancelled): it is left for a later run.
type RunFunc func(ctx context.Context, slot int, p store.Pair) (store.Result, error)

// Job is the planned pairs of one competition key (a track), as an
// executor runs them.
type Job struct {
	Store       store.PairStore
	Competition string
	// Workers is how many pairs run at once.
	Workers int
	// MemoryPerPair is the memory limit of one pair (0: none).
	MemoryPerPair int64
	RunPair       RunFunc
	// OnDone is called after each completed pair (progress display).
	OnDone func(store.Pair, store.Result)
}

// Executor runs a job's pairs until every one is recorded, or ctx ends
// (run it again to resume). Local, a pool of workers on this machine, is
// the first; a Slurm executor, whose workers on other machines claim pairs
// from the same PostgreSQL store, comes next. Only cmd/ picks one.
type Executor interface {
	Run(ctx context.Context, job Job) error
}

var _ Executor = (*Local)(nil)

// Local runs pairs on this machine, job.Workers at a time.
type Local struct {
	// Lease is how long a claimed pair stays ours without renewal
	// (default 1 min); leases are renewed every Lease/3.
	Lease time.Duration
	// MemoryBudget is what the pairs running at once may use together
	// (default: nine tenths of the machine's memory, the rest for the
	// system and smtarena). Fewer than job.Workers pairs run at once when
	// the budget holds fewer at job.MemoryPerPair each, so that the kernel
	// never has to take memory from a solver that stays within its limit.
	MemoryBudget int64
	// Owner names this worker process in the store; default
	// host/pid/start time, which lets a restarted coordinator on the same
	// host take back the pairs of a dead one at once.
	Owner string
	// UntilDone makes Run wait, when it has nothing to claim, for the
	// pairs other workers hold: it returns only when every pair of the
	// job is done, and takes over a pair whose lease expires (its worker
	// or node lost). Workers on many machines run this way; on
	// cancellation they give their running pairs back at once.
	UntilDone bool
	// ByBenchmark claims a benchmark's pairs together (every solver on
	// it), so that they all run here, one after another as slots free:
	// the 2006 controller's fairness, for workers on many machines.
	ByBenchmark bool
	// Poll is how often a worker with UntilDone looks for expired leases
	// (default: a tenth of the lease, between 100 ms and 5 s).
	Poll time.Duration
}

// Owner returns this process's owner name.
func Owner() string {
	host, _ := os.Hostname()
	return OwnerOn(host)
}

// OwnerOn returns this process's owner name on a named node (a Slurm
// node name, which several nodes on one host keep apart): node/pid/start.
func OwnerOn(node string) string {
	return fmt.Sprintf("%s/%d/%d", node, os.Getpid(), processStart(os.Getpid()))
}

// processStart returns the start time of a process (clock ticks since
// boot, from /proc), 0 if unknown: with the pid it names a process
// uniquely.
func processStart(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return 0
	}
	n, _ := strconv.ParseInt(f[19], 10, 64)
	return n
}

// machineMemory is the machine's memory in bytes (MemTotal), or a
// practically unbounded number when /proc/meminfo cannot be read.
func machineMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 1 << 62
}

// deadLocal reports whether owner is a process of this host that no longer
// runs.
func deadLocal(owner string) bool {
	host, _ := os.Hostname()
	parts := strings.Split(owner, "/")
	if len(parts) != 3 || parts[0] != host {
		return false
	}
	pid, err1 := strconv.Atoi(parts[1])
	start, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	return processStart(pid) != start || start == 0
}

// Run runs pairs until none is left to claim and none is running here. On
// cancellation it stops claiming, and the pairs it was running stay
// leased to it: a later run (after the lease, or at once on the same host)
// runs them again.
func (l *Local) Run(ctx context.Context, job Job) error {
	workers := max(job.Workers, 1)
	if job.MemoryPerPair > 0 {
		budget := l.MemoryBudget
		if budget <= 0 {
			budget = machineMemory() / 10 * 9
		}
		fit := budget / job.MemoryPerPair
		if fit < 1 {
			return fmt.Errorf("executor: a pair's memory limit (%d MB) is more than the memory budget (%d MB)", job.MemoryPerPair>>20, budget>>20)
		}
		workers = int(min(int64(workers), fit))
	}
	lease := l.Lease
	if lease <= 0 {
		lease = time.Minute
	}
	owner := l.Owner
	if owner == "" {
		owner = Owner()
	}
	owners, err := job.Store.RunningOwners(ctx, job.Competition)
	if err != nil {
		return err
	}
	for _, o := range owners {
		if o != owner && deadLocal(o) {
			if _, err := job.Store.ReleaseOwner(ctx, job.Competition, o); err != nil {
				return err
			}
		}
	}
	slots := make(chan int, workers)
	for i := 0; i < workers; i++ {
		slots <- i
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		firstEr error
	)
	renew := time.NewTicker(lease / 3)
	defer renew.Stop()
	// finished is signalled each time a pair ends: waiting on it, rather
	// than on a free slot, keeps the loop from claiming in a busy loop
	// while the last pairs run.
	finished := make(chan struct{}, workers)
	poll := l.Poll
	if poll <= 0 {
		poll = min(max(lease/10, 100*time.Millisecond), 5*time.Second)
	}
	// wait waits for a pair to end, for the next renewal or, with a
	// timeout (a slot free and nothing to claim), to look again for
	// leases that expired meanwhile.
	wait := func(timeout <-chan time.Time) {
		select {
		case <-finished:
		case <-renew.C:
			_ = job.Store.RenewLeases(ctx, job.Competition, owner, lease)
		case <-timeout:
		case <-ctx.Done():
		}
	}
	// queue holds the claimed pairs of a benchmark that wait for a slot
	// (ByBenchmark); they are leased, so their leases are renewed too.
	var queue []store.Pair
	for ctx.Err() == nil {
		free := len(slots)
		if free == 0 {
			wait(nil)
			continue
		}
		ps := queue
		if len(ps) == 0 {
			var err error
			if l.ByBenchmark {
				ps, err = job.Store.ClaimBenchmark(ctx, job.Competition, owner, lease)
			} else {
				ps, err = job.Store.ClaimPairs(ctx, job.Competition, owner, free, lease)
			}
			if err != nil {
				if ctx.Err() != nil {
					break
				}
				return err
			}
		}
		if len(ps) == 0 {
			if len(slots) == workers && l.UntilDone {
				left, err := unfinished(ctx, job)
				if err != nil {
					if ctx.Err() != nil {
						break
					}
					return err
				}
				if left > 0 { // held by others: wait for them, or their leases to expire
					select {
					case <-time.After(poll):
					case <-ctx.Done():
					}
					continue
				}
			}
			if len(slots) == workers {
				break // nothing running, nothing to claim: done
			}
			var timeout <-chan time.Time
			if l.UntilDone {
				timeout = time.After(poll)
			}
			wait(timeout) // for a running pair to end, then look again
			continue
		}
		// Only this loop takes slots: the first len(slots) are free now.
		n := min(len(ps), len(slots))
		queue = ps[n:]
		for _, p := range ps[:n] {
			slot := <-slots
			wg.Add(1)
			go func(p store.Pair, slot int) {
				defer wg.Done()
				res, err := job.RunPair(ctx, slot, p)
				// The slot's cores are free as soon as the solver is gone:
				// the next pair starts while this one is recorded.
				slots <- slot
				select { // a signal already pending wakes the loop as well
				case finished <- struct{}{}:
				default:
				}
				if err != nil || ctx.Err() != nil {
					return // not judged: stays leased, runs again later
				}
				if err := job.Store.CompletePair(context.WithoutCancel(ctx), p, res); err != nil {
					mu.Lock()
					if firstEr == nil {
						firstEr = err
					}
					mu.Unlock()
					return
				}
				if job.OnDone != nil {
					job.OnDone(p, res)
				}
			}(p, slot)
		}
	}
	wg.Wait()
	if l.UntilDone && ctx.Err() != nil {
		// Stopped (scancel, a signal): what we were running runs again
		// elsewhere now rather than when its lease expires.
		_, _ = job.Store.ReleaseOwner(context.WithoutCancel(ctx), job.Competition, owner)
	}
	if firstEr != nil {
		return firstEr
	}
	return ctx.Err()
}

// unfinished counts the job's pairs not yet done.
func unfinished(ctx context.Context, job Job) (int, error) {
	c, err := job.Store.PairCounts(ctx, job.Competition)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range c {
		n += m[store.PairPending] + m[store.PairRunning]
	}
	return n, nil
}
