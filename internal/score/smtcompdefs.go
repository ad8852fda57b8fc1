package score

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// SMTCOMPDefs is what the smtcomp tool's defs.py (2024 on) says of a
// year: its logics (in the order of the Logic enumeration, which the
// submissions' logic regular expressions are matched against), and per
// track the divisions and their logics (the tracks table). Division and
// track names are the enumeration's names (QF_Equality_LinearArith,
// UnsatCore), as the result pages print them; Values maps a division's
// value (QF_Equality+LinearArith, what submissions write) to its name.
type SMTCOMPDefs struct {
	Logics []string
	Values map[string]string
	Tracks map[string]map[string][]string
	// RemovedResults are the benchmarks whose results were removed after
	// the runs (Config.removed_results), as library paths.
	RemovedResults []string
	// BaseSolvers is Config.baseSolverMap2025 (derived solver -> its base
	// solver) where defs.py has such a map (the 2025 tool's
	// generate_website_page.py reads it); nil otherwise.
	BaseSolvers map[string]string
}

var (
	defsClassRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^class (\w+)\(`) })
	defsMemberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+(\w+) = "([^"]*)"`) })
	defsTrackRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+Track\.(\w+): \{`) })
	defsDivRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+Division\.(\w+): \{`) })
	defsRemoved  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)\n\s+removed_results = \[(.*?)\n\s+\]`) })
	defsBaseMap  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)\n\s+baseSolverMap\w*(?:\s*:[^=\n]*)?\s*=\s*\{(.*?)\}`)
	})
	defsPair  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"([^"]*)"\s*:\s*"([^"]*)"`) })
	defsEntry = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)\{\s*"logic": int\(Logic\.(\w+)\),\s*"family": "([^"]*)",\s*"name": "([^"]*)",?\s*\}`)
	})
)

// ParseSMTCOMPDefs reads defs.py: the Logic and Division enumerations and
// the tracks table (`tracks: dict[Track, dict[Division, set[Logic]]] = {`).
func ParseSMTCOMPDefs(src []byte) (*SMTCOMPDefs, error) {
	d := &SMTCOMPDefs{Values: map[string]string{}, Tracks: map[string]map[string][]string{}}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	class, inTracks := "", false
	track, div := "", ""
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		// Each regular expression only where its literal part is (the
		// file has a thousand lines, read by each run of score).
		if !strings.HasPrefix(l, "class ") {
		} else if m := defsClassRE().FindStringSubmatch(l); m != nil {
			class, inTracks = m[1], false
			continue
		}
		if strings.HasPrefix(l, "tracks:") && strings.HasSuffix(strings.TrimSpace(l), "{") {
			class, inTracks = "", true
			continue
		}
		if inTracks {
			if i := strings.IndexByte(l, '#'); i >= 0 {
				l = l[:i] // a comment: no logic of the table
			}
			if l == "}" {
				inTracks = false
				continue
			}
			isTrack := strings.Contains(l, "Track.")
			if m := findIf(isTrack, defsTrackRE(), l); m != nil {
				track, div = m[1], ""
				d.Tracks[track] = map[string][]string{}
			} else if m := findIf(strings.Contains(l, "Division."), defsDivRE(), l); m != nil {
				if track == "" {
					return nil, fmt.Errorf("defs.py:%d: a division outside a track", line)
				}
				div = m[1]
				d.Tracks[track][div] = []string{}
				l = l[len(m[0]):] // a set written on the division's line: {Logic.QF_BV},
			}
			if ls := logicRefs(l); ls != nil && !(isTrack && defsTrackRE().MatchString(l)) {
				if div == "" {
					return nil, fmt.Errorf("defs.py:%d: a logic outside a division", line)
				}
				d.Tracks[track][div] = append(d.Tracks[track][div], ls...)
			}
			continue
		}
		if l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "#") {
			class = ""
		}
		if m := findIf(strings.Contains(l, ` = "`), defsMemberRE(), l); m != nil {
			switch class {
			case "Logic":
				d.Logics = append(d.Logics, m[2])
			case "Division":
				d.Values[m[2]] = m[1]
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("defs.py: %w", err)
	}
	if m := findAfterSpace(defsRemoved(), src, "removed_results = ["); m != nil {
		for _, e := range defsEntry().FindAllSubmatch(m[1], -1) {
			d.RemovedResults = append(d.RemovedResults, "non-incremental/"+string(e[1])+"/"+string(e[2])+"/"+string(e[3]))
		}
	}
	if m := findAfterSpace(defsBaseMap(), src, "baseSolverMap"); m != nil {
		d.BaseSolvers = map[string]string{}
		for _, p := range defsPair().FindAllSubmatch(m[1], -1) {
			d.BaseSolvers[string(p[1])] = string(p[2])
		}
	}
	if len(d.Logics) == 0 || len(d.Tracks) == 0 {
		return nil, fmt.Errorf("defs.py: no Logic enumeration or no tracks table")
	}
	return d, nil
}

// logicRefs are the names X of the references Logic.X in l, as
// `\bLogic\.(\w+)` finds them.
func logicRefs(l string) []string {
	var out []string
	for at := 0; ; {
		i := strings.Index(l[at:], "Logic.")
		if i < 0 {
			return out
		}
		i += at
		j := i + len("Logic.")
		for j < len(l) && isWord(l[j]) {
			j++
		}
		if (i == 0 || !isWord(l[i-1])) && j > i+len("Logic.") {
			out = append(out, l[i+len("Logic."):j])
			at = j
		} else {
			at = i + 1
		}
	}
}

// isWord says whether c is a \w character.
func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// findIf is re's submatches in l where may says l may match.
func findIf(may bool, re *regexp.Regexp, l string) []string {
	if !may {
		return nil
	}
	return re.FindStringSubmatch(l)
}

// findAfterSpace is re's first match in src, for an re whose matches are
// white space and then lit: searched from the white space before lit's
// first occurrence, where the first match can start at the earliest.
func findAfterSpace(re *regexp.Regexp, src []byte, lit string) [][]byte {
	i := bytes.Index(src, []byte(lit))
	if i < 0 {
		return nil
	}
	for i > 0 && strings.IndexByte(" \t\n\f\r", src[i-1]) >= 0 {
		i--
	}
	return re.FindSubmatch(src[i:])
}

// toolTrack is the smtcomp tool's name of a track.
func toolTrack(t benchmark.Track) string {
	switch t {
	case benchmark.SingleQuery:
		return "SingleQuery"
	case benchmark.Incremental:
		return "Incremental"
	case benchmark.UnsatCore:
		return "UnsatCore"
	case benchmark.ModelValidation:
		return "ModelValidation"
	case benchmark.Proof:
		return "ProofExhibition"
	case benchmark.Cloud:
		return "Cloud"
	case benchmark.Parallel:
		return "Parallel"
	}
	return string(t)
}

// Divisions is the division table of a track (Options.Divisions).
func (d *SMTCOMPDefs) Divisions(t benchmark.Track) map[string][]string {
	out := map[string][]string{}
	for div, ls := range d.Tracks[toolTrack(t)] {
		out[div] = append([]string(nil), ls...)
	}
	return out
}

// submission2024 is what scoring needs of a submission (defs.Submission).
type submission2024 struct {
	Name           string `json:"name"`
	Competitive    *bool  `json:"competitive"`
	Participations []struct {
		Tracks    []string        `json:"tracks"`
		Logics    json.RawMessage `json:"logics"`
		Divisions []string        `json:"divisions"`
	} `json:"participations"`
}

// Entrants reads the submissions (name -> JSON) and gives the logics each
// solver entered in a track (Participation.get: the logics of the
// divisions it names, and those it names or matches by regular
// expression, where the track has them) and the registry marking the
// solvers competitive (the submission's competitive, default true).
func (d *SMTCOMPDefs) Entrants(t benchmark.Track, subs map[string][]byte) (map[string][]string, Registry, error) {
	table := d.Tracks[toolTrack(t)]
	out := map[string][]string{}
	reg := Registry{}
	for _, file := range sortedKeys(subs) {
		var s submission2024
		if err := json.Unmarshal(subs[file], &s); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", file, err)
		}
		if s.Name == "" {
			return nil, nil, fmt.Errorf("%s: no name", file)
		}
		reg[s.Name] = Solver{Name: s.Name, Team: s.Name, Competitive: s.Competitive == nil || *s.Competitive}
		set := map[string]bool{}
		for pi, p := range s.Participations {
			in := false
			for _, tr := range p.Tracks {
				in = in || tr == toolTrack(t)
			}
			if !in {
				continue
			}
			for _, dv := range p.Divisions {
				name := d.Values[dv]
				if name == "" {
					name = dv
				}
				for _, l := range table[name] {
					set[l] = true
				}
			}
			var logics []string
			if len(p.Logics) > 0 {
				if err := json.Unmarshal(p.Logics, &logics); err != nil {
					var re string
					if err := json.Unmarshal(p.Logics, &re); err != nil {
						return nil, nil, fmt.Errorf("%s: participation %d: logics: want a list or a regular expression", file, pi+1)
					}
					rx, err := regexp.Compile("^(?:" + re + ")$")
					if err != nil {
						return nil, nil, fmt.Errorf("%s: participation %d: logics %q: %w", file, pi+1, re, err)
					}
					for _, l := range d.Logics {
						if rx.MatchString(l) {
							logics = append(logics, l)
						}
					}
				}
			}
			for _, l := range logics {
				for _, ls := range table {
					for _, x := range ls {
						if x == l {
							set[l] = true
						}
					}
				}
			}
		}
		if len(set) > 0 {
			ls := make([]string, 0, len(set))
			for l := range set {
				ls = append(ls, l)
			}
			sort.Strings(ls)
			out[s.Name] = ls
		}
	}
	return out, reg, nil
}

// BaseSolvers gives each derived solver its base solver for the pages of
// 2025 on (PodiumStep.baseSolver): defs.py's baseSolverMap2025 where it
// has one, else what the 2025 submissions show of it: a base solver was
// submitted as "X-base", "competitive": false, beside the derived solver
// X (Bitwuzla-MachBV-base, Z3-Owl-base, Z3-Noodler-Mocha-base,
// Z3-Inc-Z3++-base in SMT-COMP/smt-comp.github.io submissions/ of 2025).
// The inference stands in for the map of the 2025 defs.py, which the
// reference index does not hold.
func (d *SMTCOMPDefs) BaseSolversOf(subs map[string][]byte) (map[string]string, error) {
	if d.BaseSolvers != nil {
		return d.BaseSolvers, nil
	}
	comp := map[string]bool{}
	for _, file := range sortedKeys(subs) {
		var s submission2024
		if err := json.Unmarshal(subs[file], &s); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		comp[s.Name] = s.Competitive == nil || *s.Competitive
	}
	out := map[string]string{}
	for name, c := range comp {
		derived, ok := strings.CutSuffix(name, "-base")
		if !ok || c {
			continue
		}
		if _, ok := comp[derived]; ok {
			out[derived] = name
		}
	}
	return out, nil
}
