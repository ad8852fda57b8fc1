package store

import (
	"context"
	"runtime"
	"slices"
	"sync"
)

// FactsAhead looks up benchmarks' facts while their paths are still being
// read: each chunk of paths (one query's) as soon as it is complete, on
// goroutines of their own, so that the lookups use the processors the
// reading leaves (scoring the 2024 unsat-core results, the 66,188 paths
// take longer to look up than their rows to read). The paths given are
// those of a slice that is only appended to: the elements of a chunk sent
// are not written again (if an append moves the slice, the chunk keeps the
// old array). Wait or Stop ends it.
type FactsAhead struct {
	ctx    context.Context
	cancel context.CancelFunc
	fs     FactStore
	sent   int // paths sent so far
	chunks int // chunks sent so far
	work   chan factsChunk
	wg     sync.WaitGroup
	mu     sync.Mutex
	facts  [][]BenchFact // by chunk
	err    error         // the first failure (then nothing more is looked up)
}

// factsChunk is a chunk of paths to look up, the no-th.
type factsChunk struct {
	no    int
	paths []string
}

// NewFactsAhead starts looking up the facts of paths to come.
func NewFactsAhead(ctx context.Context, fs FactStore) *FactsAhead {
	ctx, cancel := context.WithCancel(ctx)
	a := &FactsAhead{ctx: ctx, cancel: cancel, fs: fs, work: make(chan factsChunk, 64)}
	for range runtime.GOMAXPROCS(0) {
		a.wg.Go(func() {
			for c := range a.work {
				if a.failed() {
					continue
				}
				facts, err := a.fs.BenchFacts(a.ctx, c.paths)
				a.mu.Lock()
				if err != nil && a.err == nil {
					a.err = err
				}
				if len(a.facts) <= c.no {
					a.facts = slices.Grow(a.facts, c.no+1-len(a.facts))[:c.no+1]
				}
				a.facts[c.no] = facts
				a.mu.Unlock()
			}
		})
	}
	return a
}

func (a *FactsAhead) failed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err != nil
}

// send sends the paths not sent yet.
func (a *FactsAhead) send(paths []string) {
	a.work <- factsChunk{no: a.chunks, paths: paths[a.sent:len(paths):len(paths)]}
	a.chunks++
	a.sent = len(paths)
}

// Offer gives the paths read so far; those not sent yet are looked up once
// there are a chunk of them.
func (a *FactsAhead) Offer(paths []string) {
	if len(paths)-a.sent >= benchFactsChunk {
		a.send(paths)
	}
}

// Wait looks up the paths not sent yet and returns the facts of all the
// paths, in their order (as BenchFacts(paths) would).
func (a *FactsAhead) Wait(paths []string) ([]BenchFact, error) {
	if a.sent < len(paths) {
		a.send(paths)
	}
	close(a.work)
	a.wg.Wait()
	a.cancel()
	if a.err != nil {
		return nil, a.err
	}
	return slices.Concat(a.facts...), nil
}

// Stop ends the lookups, those under way cut short.
func (a *FactsAhead) Stop() {
	a.cancel()
	close(a.work)
	a.wg.Wait()
}
