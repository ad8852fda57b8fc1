package score_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
)

// page is a result page's front matter: scalars, and lists of flat maps
// (the subset of YAML the pages use).
type page struct {
	scalars  map[string]string
	order    []string // scalars and sections in order
	sections map[string][]map[string]string
	fields   map[string][]string // field order of each section's items
}

func parsePage(text string) page {
	p := page{scalars: map[string]string{}, sections: map[string][]map[string]string{}, fields: map[string][]string{}}
	section := ""
	for _, line := range strings.Split(text, "\n") {
		if line == "---" || strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		item := strings.HasPrefix(line, "- ")
		k, v, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "- ")), ":")
		v = strings.TrimSpace(v)
		switch {
		case !item && !strings.HasPrefix(line, " "):
			p.order = append(p.order, k)
			if v == "" {
				section = k
				p.sections[k] = []map[string]string{}
			} else {
				section = ""
				p.scalars[k] = v
			}
		case item:
			p.sections[section] = append(p.sections[section], map[string]string{k: v})
			if len(p.sections[section]) == 1 {
				p.fields[section] = append(p.fields[section], k)
			}
		default:
			its := p.sections[section]
			its[len(its)-1][k] = v
			if len(its) == 1 {
				p.fields[section] = append(p.fields[section], k)
			}
		}
	}
	return p
}

// diffPages compares a published page with ours field by field: the
// scalars, then each list item by item (in the published order), then the
// order of fields.
func diffPages(want, got string) []string {
	w, g := parsePage(want), parsePage(got)
	var out []string
	for _, k := range w.order {
		if k == "resultdate" {
			continue
		}
		if _, isList := w.sections[k]; isList {
			wl, gl := w.sections[k], g.sections[k]
			if _, ok := g.sections[k]; !ok {
				out = append(out, fmt.Sprintf("%s: missing", k))
				continue
			}
			if len(wl) != len(gl) {
				out = append(out, fmt.Sprintf("%s: %d entries, published %d", k, len(gl), len(wl)))
			}
			for i := range min(len(wl), len(gl)) {
				id := fmt.Sprintf("%s[%d] %s", k, i, wl[i]["name"])
				for _, f := range w.fields[k] {
					if gl[i][f] != wl[i][f] {
						out = append(out, fmt.Sprintf("%s %s: %q, published %q", id, f, gl[i][f], wl[i][f]))
					}
				}
				for f := range gl[i] {
					if _, ok := wl[i][f]; !ok {
						out = append(out, fmt.Sprintf("%s %s: %q not published", id, f, gl[i][f]))
					}
				}
			}
			if strings.Join(w.fields[k], ",") != strings.Join(g.fields[k], ",") {
				out = append(out, fmt.Sprintf("%s: fields %v, published %v", k, g.fields[k], w.fields[k]))
			}
			continue
		}
		if gv, ok := g.scalars[k]; !ok {
			out = append(out, fmt.Sprintf("%s: missing (published %s)", k, w.scalars[k]))
		} else if gv != w.scalars[k] {
			out = append(out, fmt.Sprintf("%s: %s, published %s", k, gv, w.scalars[k]))
		}
	}
	if strings.Join(w.order, ",") != strings.Join(g.order, ",") {
		out = append(out, fmt.Sprintf("keys %v, published %v", g.order, w.order))
	}
	return out
}

// comparePages compares every published page of a track in dir with the
// page computed from rep, field by field and then byte for byte, and
// reports each difference as a test error. Pages named in known are
// expected to differ (docs/scoring.md says why): a difference there is
// logged, and the page not counted as reproduced; a known page that
// matches is an error, so that the list cannot go stale. It returns the
// number of published pages, those reproduced field by field, and those
// byte for byte. Pages we compute that the shared data does not hold
// must be named in unpublished.
func comparePages(t *testing.T, rep *score.Report, dir string, track benchmark.Track, known map[string]string, unpublished map[string]bool) (n, ok, exact int) {
	t.Helper()
	ours := map[string]string{}
	for _, p := range score.Pages(rep, "") {
		ours[p.Name] = p.Text
	}
	ext := "-" + string(track) + ".md"
	if rep.Challenge {
		ext = "-" + score.Options{Track: track, Challenge: true}.StoredTrack() + ".md"
	}
	published, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
	sort.Strings(published)
	for _, f := range published {
		name := filepath.Base(f)
		if strings.Contains(name, "challenge") && !rep.Challenge {
			continue // the challenge tracks' (TestReproduce2019Challenge)
		}
		n++
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, found := ours[name]
		if !found {
			t.Errorf("%s: no such page computed", name)
			continue
		}
		why, isKnown := known[name]
		if d := diffPages(string(want), got); len(d) > 0 {
			if len(d) > 8 {
				d = append(d[:8], fmt.Sprintf("... %d more", len(d)-8))
			}
			if isKnown {
				t.Logf("%s differs, as documented (%s):\n  %s", name, why, strings.Join(d, "\n  "))
			} else {
				t.Errorf("%s differs:\n  %s", name, strings.Join(d, "\n  "))
			}
			continue
		}
		ok++
		date := ""
		if _, rest, found := strings.Cut(string(want), "resultdate: "); found {
			date, _, _ = strings.Cut(rest, "\n")
		}
		// Two published summary pages end in an extra blank line, one
		// does not: trailing newlines are not compared.
		got = strings.Replace(got, "resultdate: \n", "resultdate: "+date+"\n", 1)
		switch {
		case strings.TrimRight(got, "\n") == strings.TrimRight(string(want), "\n"):
			exact++
			if isKnown {
				t.Errorf("%s: listed as a known difference (%s) but reproduced byte for byte", name, why)
			}
		case isKnown && strings.TrimRight(got, "\n") == strings.TrimRight(withoutFootnotes(string(want)), "\n"):
			t.Logf("%s: the same but for the published errorFootnote lines, as documented (%s)", name, why)
		default:
			t.Errorf("%s: same fields, other bytes:\n%s", name, got)
		}
	}
	for name := range ours {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil && !unpublished[name] {
			t.Errorf("%s: computed, but not published", name)
		}
	}
	return n, ok, exact
}

// withoutFootnotes drops the errorFootnote lines that the organisers wrote
// into some published pages by hand (2020): no script computes them.
func withoutFootnotes(page string) string {
	var out []string
	for _, l := range strings.Split(page, "\n") {
		if !strings.HasPrefix(l, "  errorFootnote: ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
