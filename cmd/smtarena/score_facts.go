package main

import (
	"context"

	"github.com/smtarena/smtarena/internal/store"
)

// factChunk is how many paths factLookup sends to the store at a time.
const factChunk = 8192

// factLookup looks up the facts of the rows' benchmarks (BenchFacts) while
// the rows are read: the database looks a chunk of paths up while the
// results that follow are decoded, rather than all of them after.
type factLookup struct {
	todo  chan []string // chunks of paths, in order
	done  chan struct{}
	facts [][]store.BenchFact // of the chunks sent, in order
	err   error
	sent  int // paths sent
	// factAt's place: the chunk and the place of its first path
	chunk, first int
}

// add sends the paths not sent yet once they are a chunk, or all of them
// (the last ones); maxPaths bounds how many there will be.
func (l *factLookup) add(ctx context.Context, st store.FactStore, paths []string, all bool, maxPaths int) {
	if len(paths)-l.sent < factChunk && !(all && len(paths) > l.sent) {
		return
	}
	if l.todo == nil {
		// Room for every chunk: the reader never waits for the lookups
		// (a store with one connection may hold it while it reads).
		l.todo, l.done = make(chan []string, maxPaths/factChunk+2), make(chan struct{})
		go func() {
			defer close(l.done)
			for chunk := range l.todo {
				if l.err != nil {
					continue
				}
				facts, err := st.BenchFacts(ctx, chunk)
				if err != nil {
					l.err = err
					continue
				}
				l.facts = append(l.facts, facts)
			}
		}()
	}
	chunk := paths[l.sent:len(paths):len(paths)] // the paths so far never change
	if all {
		l.todo <- chunk
	} else {
		select {
		case l.todo <- chunk:
		default: // more paths than counted (results added meanwhile): sent with the last ones
			return
		}
	}
	l.sent = len(paths)
}

// wait ends the lookups; then factAt gives the facts of the paths sent.
func (l *factLookup) wait() error {
	if l.todo == nil {
		return nil
	}
	close(l.todo)
	<-l.done
	l.todo = nil
	return l.err
}

// factAt returns the facts of the i-th path sent; i never decreases from
// one call to the next.
func (l *factLookup) factAt(i int) store.BenchFact {
	for l.chunk < len(l.facts) && i >= l.first+len(l.facts[l.chunk]) {
		l.first += len(l.facts[l.chunk])
		l.chunk++
	}
	if l.chunk == len(l.facts) || i < l.first {
		return store.BenchFact{}
	}
	return l.facts[l.chunk][i-l.first]
}
