package compete

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/lint"
)

// LintReport is a selected benchmark that breaks its track's input rules,
// as `smtarena lint` reads them: left out of the track (the competition's
// lint = "exclude") or run anyway ("warn").
type LintReport struct {
	Track    benchmark.Track
	Path     string // library path
	Excluded bool
	Errors   []lint.Finding
}

// lintOptions are the input rules a track's benchmarks are checked
// against: the competition's rules year, as a library benchmark (before
// scrambling). ok is false where lint has no rules for the year and track
// (2006).
func lintOptions(def *config.Competition, t benchmark.Track) (lint.Options, bool) {
	o := lint.Options{Track: t, Rules: def.Rules}
	return o, o.Validate() == nil
}

// lintCache holds the errors found in the benchmarks of a track, by the
// benchmark's path and content hash, so that preparing a competition again (to
// resume it) does not lint its selection again: lint reads about 15-35
// MB/s, and a selection can be gigabytes.
type lintCache struct {
	path    string
	Rules   int                       `json:"rules"`
	Errors  map[string][]lint.Finding `json:"errors"` // by library path and hash; empty: clean
	changed bool
}

// loadLintCache reads the track's cache, if any and for the same rules.
func loadLintCache(def *config.Competition, t benchmark.Track) *lintCache {
	c := &lintCache{path: filepath.Join(def.Path(def.WorkDir), "lint-cache-"+string(t)+".json")}
	if data, err := os.ReadFile(c.path); err == nil && json.Unmarshal(data, c) == nil && c.Rules == def.Rules && c.Errors != nil {
		return c
	}
	c.Rules, c.Errors = def.Rules, map[string][]lint.Finding{}
	return c
}

// save writes the cache if it changed (beside, then renamed).
func (c *lintCache) save() error {
	if !c.changed {
		return nil
	}
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.%d.tmp", c.path, os.Getpid()) // two compete at once each write their own
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, c.path)
}

// lintBenchmark returns the errors lint finds in a benchmark's source for
// the track (notes are left out: they name checks lint could not make).
// A benchmark of the proof track's soundness probe is satisfiable on
// purpose: its status is not held against it.
func (p *Prepared) lintBenchmark(o lint.Options, cache *lintCache, b benchmark.Benchmark, probe bool) ([]lint.Finding, error) {
	key := b.Path + "@" + b.Hash
	all, ok := cache.Errors[key]
	if !ok || b.Hash == "" {
		src, err := p.sourceOf(b)
		if err != nil {
			return nil, err
		}
		res, err := lint.File(src, o)
		if err != nil {
			return nil, fmt.Errorf("lint: %w", err)
		}
		all = []lint.Finding{}
		for _, f := range res.Findings {
			if f.Severity == lint.Error {
				all = append(all, f)
			}
		}
		if b.Hash != "" {
			cache.Errors[key], cache.changed = all, true
		}
	}
	var errs []lint.Finding
	for _, f := range all {
		if !(probe && f.Kind == "status") {
			errs = append(errs, f)
		}
	}
	return errs, nil
}

// LintFile is where the lint report of a track is written.
func LintFile(def *config.Competition, t benchmark.Track) string {
	return filepath.Join(def.Path(def.WorkDir), "lint-"+string(t)+".txt")
}

// writeLintReport writes the track's report (or removes an old one when
// every selected benchmark passes): each benchmark, what was done with
// it, and its errors.
func writeLintReport(def *config.Competition, t benchmark.Track, reports []LintReport) error {
	path := LintFile(def, t)
	if len(reports) == 0 {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s track, %d rules: selected benchmarks that break the track's input rules (lint = %q)\n", t, def.Rules, def.Lint)
	for _, r := range reports {
		what := "run anyway"
		if r.Excluded {
			what = "left out"
		}
		fmt.Fprintf(&b, "%s: %s, %d errors\n", r.Path, what, len(r.Errors))
		for _, f := range r.Errors {
			fmt.Fprintf(&b, "\t%s\n", f)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
