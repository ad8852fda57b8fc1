package benchgen

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// CorpusOptions shape a corpus: many planted-solution benchmarks of a
// given total size, for indexing figures.
type CorpusOptions struct {
	Seed  uint64
	Files int
	Bytes int64 // total size to reach, about
	// Workers write files in parallel (default GOMAXPROCS); the bytes of
	// every file depend only on the seed and its index.
	Workers int
	// Progress, if set, is called after each file with the files and bytes
	// written so far (from several goroutines, never at once).
	Progress func(files int, bytes int64)
}

// corpusKinds are the kinds of corpus files and how often they occur (per
// hundred).
var corpusKinds = []struct {
	logic       string
	incremental bool
	weight      int
}{
	{"QF_LIA", false, 25},
	{"QF_LRA", false, 20},
	{"QF_IDL", false, 20},
	{"QF_RDL", false, 15},
	{"QF_LIA", true, 10},
	{"QF_LRA", true, 10},
}

// CorpusInstances lists the files of a corpus: planted-solution
// benchmarks of QF_LIA, QF_LRA, QF_IDL and QF_RDL, and incremental
// planted traces of QF_LIA and QF_LRA, each sat or unsat, with sizes drawn
// uniformly between half and one and a half times the mean, in families of
// the form corpus-NN.
func CorpusInstances(o CorpusOptions) ([]Instance, error) {
	if o.Files < 1 || o.Bytes < 1 {
		return nil, fmt.Errorf("corpus: need a positive number of files and bytes, have %d and %d", o.Files, o.Bytes)
	}
	mean := float64(o.Bytes) / float64(o.Files)
	out := make([]Instance, o.Files)
	for i := range out {
		seed := instanceSeed(o.Seed, "corpus", fmt.Sprint(i))
		r := rand.New(rand.NewPCG(seed, 0xc0))
		k := r.IntN(100)
		kind := corpusKinds[0]
		for _, c := range corpusKinds {
			if k < c.weight {
				kind = c
				break
			}
			k -= c.weight
		}
		size := int64(mean * (0.5 + r.Float64()))
		vars := int(min(max(size/400, 5), 5000))
		clause := 1 + r.IntN(3)
		unsat := r.IntN(2) == 0
		family := fmt.Sprintf("corpus-%02d", r.IntN(10))
		in := Instance{Logic: kind.logic, Family: family, Incremental: kind.incremental}
		if kind.incremental {
			o := TraceOptions{Logic: kind.logic, Seed: seed, Vars: vars, Bytes: size, Clause: clause,
				Queries: randomQueries(seed, 2+r.IntN(19))}
			in.Name = fmt.Sprintf("trace-%06d.smt2", i)
			in.Statuses = o.Queries
			in.Write = func(w io.Writer) error { return Trace(w, o) }
		} else {
			o := PlantedOptions{Logic: kind.logic, Seed: seed, Vars: vars, Bytes: size, Clause: clause, Unsat: unsat}
			in.Name = fmt.Sprintf("planted-%06d-%s.smt2", i, o.Status())
			in.Statuses = []benchmark.Status{o.Status()}
			in.Write = func(w io.Writer) error { return Planted(w, o) }
		}
		out[i] = in
	}
	return out, nil
}

// CorpusStats say what WriteCorpus wrote.
type CorpusStats struct {
	Files int
	Bytes int64
}

// WriteCorpus writes the files of CorpusInstances(o) under dir.
func WriteCorpus(ctx context.Context, dir string, o CorpusOptions) (CorpusStats, error) {
	list, err := CorpusInstances(o)
	if err != nil {
		return CorpusStats{}, err
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		next, files atomic.Int64
		bytes       atomic.Int64
		mu          sync.Mutex
		firstErr    error
		wg          sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(list) || ctx.Err() != nil {
					return
				}
				in := list[i]
				n, err := writeFile(filepath.Join(dir, in.Path()), in.Write)
				if err != nil {
					fail(err)
					return
				}
				f, b := files.Add(1), bytes.Add(n)
				if o.Progress != nil {
					mu.Lock()
					o.Progress(int(f), b)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	st := CorpusStats{Files: int(files.Load()), Bytes: bytes.Load()}
	if firstErr != nil {
		return st, firstErr
	}
	return st, ctx.Err()
}
