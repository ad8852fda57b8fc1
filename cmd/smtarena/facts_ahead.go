package main

import (
	"context"
	"runtime"
	"slices"
	"sync"

	"github.com/smtarena/smtarena/internal/store"
)

// factsAhead looks up the facts of the rows' benchmarks while their
// results are still being read (rowsOf): each chunk of paths as soon as it
// is complete, on goroutines of their own, so that the lookups use the
// processors the reading leaves (the 66,188 benchmarks of the 2024
// unsat-core results take longer to look up than their rows to read). The
// paths given are those of a slice that is only appended to: the elements
// of a chunk sent are not written again (if an append moves the slice, the
// chunk keeps the old array).
type factsAhead struct {
	ctx    context.Context
	cancel context.CancelFunc
	st     store.Store
	sent   int // paths sent so far
	chunks int // chunks sent so far
	work   chan factsChunk
	wg     sync.WaitGroup
	mu     sync.Mutex
	facts  [][]store.BenchFact // by chunk
	err    error               // the first failure (then nothing more is looked up)
}

// factsChunk is a chunk of paths to look up, the no-th.
type factsChunk struct {
	no    int
	paths []string
}

// factsAheadChunk is how many paths make a lookup of their own while the
// results are read: one query of the store's (see store.BenchFactsChunk).
const factsAheadChunk = store.BenchFactsChunk

func newFactsAhead(ctx context.Context, st store.Store) *factsAhead {
	ctx, cancel := context.WithCancel(ctx)
	a := &factsAhead{ctx: ctx, cancel: cancel, st: st, work: make(chan factsChunk, 64)}
	for range runtime.GOMAXPROCS(0) {
		a.wg.Go(func() {
			for c := range a.work {
				if a.failed() {
					continue
				}
				facts, err := a.st.BenchFacts(a.ctx, c.paths)
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

func (a *factsAhead) failed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err != nil
}

// send sends the paths not sent yet.
func (a *factsAhead) send(paths []string) {
	a.work <- factsChunk{no: a.chunks, paths: paths[a.sent:len(paths):len(paths)]}
	a.chunks++
	a.sent = len(paths)
}

// offer sends the paths not sent yet once there are a chunk of them.
func (a *factsAhead) offer(paths []string) {
	if len(paths)-a.sent >= factsAheadChunk {
		a.send(paths)
	}
}

// wait looks up the paths not sent yet, and returns the facts of all the
// paths, in their order.
func (a *factsAhead) wait(paths []string) ([]store.BenchFact, error) {
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

// stop ends the lookups, those under way cut short.
func (a *factsAhead) stop() {
	a.cancel()
	close(a.work)
	a.wg.Wait()
}
