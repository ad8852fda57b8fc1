package main

import (
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
)

// summaryEvery is how often compete prints a summary line when its output
// is not a terminal.
const summaryEvery = 5 * time.Second

// pairProgress shows compete's progress: on a terminal a bar per track
// (done/total, ETA, wrong answers, errors); elsewhere one summary line
// every few seconds and one at the end.
type pairProgress struct {
	w      io.Writer
	mu     sync.Mutex
	tracks []string
	by     map[string]*trackProgress
	bars   *mpb.Progress
	stop   chan struct{}
	wg     sync.WaitGroup
	start  time.Time
}

type trackProgress struct {
	done, total, startDone int
	wrong, errors          int
	last, first            time.Time // the last and the first pair completed here
	bar                    *mpb.Bar
}

// newPairProgress starts showing progress; done counts the pairs of each
// track already recorded (a resumed competition).
func newPairProgress(w io.Writer, tty bool, planned map[benchmark.Track]int, done map[string]int) *pairProgress {
	p := &pairProgress{w: w, by: map[string]*trackProgress{}, start: time.Now()}
	for t, n := range planned {
		p.tracks = append(p.tracks, string(t))
		p.by[string(t)] = &trackProgress{total: n, done: done[string(t)], startDone: done[string(t)], last: p.start}
	}
	sort.Slice(p.tracks, func(i, j int) bool { return trackOrder(p.tracks[i]) < trackOrder(p.tracks[j]) })
	if tty {
		p.bars = mpb.New(mpb.WithOutput(w), mpb.WithWidth(40), mpb.WithRefreshRate(200*time.Millisecond))
		width := 0
		for _, t := range p.tracks {
			width = max(width, len(t))
		}
		for _, t := range p.tracks {
			tp := p.by[t]
			tp.bar = p.bars.AddBar(int64(tp.total),
				mpb.PrependDecorators(decor.Name(t, decor.WC{W: width + 1, C: decor.DindentRight}), decor.CountersNoUnit("%d/%d", decor.WCSyncSpace)),
				mpb.AppendDecorators(decor.EwmaETA(decor.ET_STYLE_GO, 30, decor.WCSyncSpace),
					decor.Any(func(decor.Statistics) string {
						p.mu.Lock()
						defer p.mu.Unlock()
						return fmt.Sprintf(" %d wrong, %d errors", tp.wrong, tp.errors)
					})))
			tp.bar.SetCurrent(int64(tp.done))
		}
		return p
	}
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(summaryEvery)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.summary()
			}
		}
	}()
	return p
}

// onPair counts a completed pair.
func (p *pairProgress) onPair(pr store.Pair, r store.Result) {
	p.mu.Lock()
	tp := p.by[pr.Track]
	if tp == nil {
		p.mu.Unlock()
		return
	}
	tp.done++
	if r.Status == "error" {
		tp.errors++
	}
	if isWrong(r) {
		tp.wrong++
	}
	now := time.Now()
	if tp.first.IsZero() {
		tp.first, tp.startDone = now, tp.done
	}
	took := now.Sub(tp.last)
	tp.last = now
	p.mu.Unlock()
	if tp.bar != nil {
		tp.bar.EwmaIncrement(took)
	}
}

// summary prints one line: every track's done/total, ETA, wrong answers
// and errors.
func (p *pairProgress) summary() {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("[%s]", time.Since(p.start).Round(time.Second))
	for _, t := range p.tracks {
		tp := p.by[t]
		eta := "-"
		if n := tp.done - tp.startDone; n > 0 && tp.done < tp.total {
			eta = (time.Duration(float64(time.Since(tp.first)) / float64(n) * float64(tp.total-tp.done))).Round(time.Second).String()
		} else if tp.done >= tp.total {
			eta = "done"
		}
		line += fmt.Sprintf(" %s %d/%d ETA %s, %d wrong, %d errors;", t, tp.done, tp.total, eta, tp.wrong, tp.errors)
	}
	fmt.Fprintln(p.w, line[:len(line)-1])
}

// finish stops the display: bars of tracks not finished (an interruption)
// are left as they are.
func (p *pairProgress) finish() {
	if p.bars != nil {
		for _, t := range p.tracks {
			if tp := p.by[t]; !tp.bar.Completed() {
				tp.bar.Abort(false)
			}
		}
		p.bars.Wait()
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.summary()
}

// trackOrder is a track's place in the order compete runs them.
func trackOrder(t string) int {
	for i, x := range benchmark.Tracks {
		if string(x) == t {
			return i
		}
	}
	return len(benchmark.Tracks)
}
