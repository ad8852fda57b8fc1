package config

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/smtarena/smtarena/internal/benchmark"
)

// Submission is an entrant's registration in the format of SMT-COMP's
// submissions/*.json (2024 on): name, contributors, contacts, archive,
// command, website, system_description, solver_type, participations,
// seed, competitive.
type Submission struct {
	Name              string          `json:"name"`
	Contributors      []Person        `json:"contributors"`
	Authors           []Person        `json:"authors"` // the older template's word
	Contacts          []string        `json:"contacts"`
	Archive           *Archive        `json:"archive"`
	Command           []string        `json:"command"`
	Website           string          `json:"website"`
	SystemDescription string          `json:"system_description"`
	SolverType        string          `json:"solver_type"`
	Participations    []Participation `json:"participations"`
	Seed              json.Number     `json:"seed"`
	Competitive       *bool           `json:"competitive"`
}

// Person is a contributor: a name, or an object with one.
type Person struct{ Name string }

// UnmarshalJSON accepts "Name" and {"name": "Name", ...}.
func (p *Person) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &p.Name)
	}
	var o struct {
		Name string `json:"name"`
	}
	err := json.Unmarshal(b, &o)
	p.Name = o.Name
	return err
}

// Archive is where the solver's files are.
type Archive struct {
	URL  string            `json:"url"`
	Hash map[string]string `json:"h"`
}

// Participation is a set of tracks with the logics or divisions entered.
type Participation struct {
	Tracks    []string        `json:"tracks"`
	Logics    json.RawMessage `json:"logics"` // a regular expression, or a list of names
	Divisions []string        `json:"divisions"`
	Command   []string        `json:"command"`
	Archive   *Archive        `json:"archive"`
}

var submissionTracks = map[string]benchmark.Track{
	"SingleQuery": benchmark.SingleQuery, "Incremental": benchmark.Incremental, "UnsatCore": benchmark.UnsatCore,
	"ModelValidation": benchmark.ModelValidation, "ProofExhibition": benchmark.Proof, "Cloud": benchmark.Cloud,
	"Parallel": benchmark.Parallel,
}

// ParseSubmission reads a submission and returns it as a solver of a
// competition definition. dir is where its archive is unpacked: commands
// are relative to it. Logics from every participation are joined, and
// divisions become the logics the 2022 table gives them; a participation's
// own command is the solver's for that track (the incremental one for the
// incremental track).
func ParseSubmission(name string, data []byte, dir string) (Solver, string, error) {
	var sub Submission
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&sub); err != nil {
		return Solver{}, "", fmt.Errorf("%s: %w", name, err)
	}
	if sub.Name == "" {
		return Solver{}, "", fmt.Errorf("%s: no name", name)
	}
	if len(sub.Participations) == 0 {
		return Solver{}, "", fmt.Errorf("%s: no participations", name)
	}
	s := Solver{Name: sub.Name, Type: strings.ToLower(sub.SolverType), Competitive: sub.Competitive}
	people := append(sub.Contributors, sub.Authors...)
	var names []string
	for _, p := range people {
		names = append(names, p.Name)
	}
	s.Team = strings.Join(names, ", ")
	abs := func(cmd []string) []string {
		if len(cmd) == 0 {
			return nil
		}
		out := append([]string(nil), cmd...)
		if !filepath.IsAbs(out[0]) && dir != "" {
			out[0] = filepath.Join(dir, out[0])
		}
		return out
	}
	s.Command = abs(sub.Command)
	tracks := map[string]bool{}
	logics := map[string]bool{}
	for i, p := range sub.Participations {
		for _, t := range p.Tracks {
			tr, ok := submissionTracks[t]
			if !ok {
				return Solver{}, "", fmt.Errorf("%s: participation %d: unknown track %q", name, i+1, t)
			}
			tracks[string(tr)] = true
			if len(p.Command) > 0 {
				if tr == benchmark.Incremental {
					s.IncrementalCommand = abs(p.Command)
				} else if tr == benchmark.SingleQuery || s.Command == nil {
					s.Command = abs(p.Command)
				}
			}
			for _, d := range p.Divisions {
				ls, err := divisionLogics(tr, d)
				if err != nil {
					return Solver{}, "", fmt.Errorf("%s: %w", name, err)
				}
				for _, l := range ls {
					logics[l] = true
				}
			}
		}
		if len(p.Logics) > 0 {
			var re string
			var list []string
			if err := json.Unmarshal(p.Logics, &re); err == nil {
				logics[re] = true
			} else if err := json.Unmarshal(p.Logics, &list); err == nil {
				for _, l := range list {
					logics[l] = true
				}
			} else {
				return Solver{}, "", fmt.Errorf("%s: participation %d: logics must be a regular expression or a list", name, i+1)
			}
		}
	}
	for t := range tracks {
		s.Tracks = append(s.Tracks, t)
	}
	for l := range logics {
		s.Logics = append(s.Logics, l)
	}
	sort.Strings(s.Tracks)
	sort.Strings(s.Logics)
	if len(s.Command) == 0 && len(s.IncrementalCommand) == 0 {
		return Solver{}, "", fmt.Errorf("%s: no command", name)
	}
	if len(s.Command) == 0 {
		s.Command = s.IncrementalCommand
	}
	seed := sub.Seed.String()
	if seed != "" {
		if _, err := strconv.ParseUint(seed, 10, 32); err != nil {
			return Solver{}, "", fmt.Errorf("%s: seed %q is not a 32-bit unsigned integer", name, seed)
		}
	}
	return s, seed, nil
}

// divisionLogics returns the logics of a division of a track, by the
// 2022 table, whose division names (QF_Equality+LinearArith) are those
// submissions write; a name not in it is a logic, a division of its own.
func divisionLogics(t benchmark.Track, division string) ([]string, error) {
	table, err := Table(2022, t)
	if err != nil {
		return nil, err
	}
	if ls, ok := table[division]; ok {
		return ls, nil
	}
	return []string{division}, nil
}

// SolverTOML writes a solver as a [[solvers]] entry of competition.toml.
func SolverTOML(s Solver, seed string) (string, error) {
	var b strings.Builder
	if seed != "" {
		fmt.Fprintf(&b, "# seed %s: add it to [seed] entrants\n", seed)
	}
	b.WriteString("[[solvers]]\n")
	entry := map[string]any{"name": s.Name, "tracks": s.Tracks, "logics": s.Logics, "command": s.Command}
	if s.Team != "" {
		entry["team"] = s.Team
	}
	if s.Type != "" {
		entry["type"] = s.Type
	}
	if len(s.IncrementalCommand) > 0 {
		entry["incremental_command"] = s.IncrementalCommand
	}
	if s.Competitive != nil {
		entry["competitive"] = *s.Competitive
	}
	if err := toml.NewEncoder(&b).Encode(entry); err != nil {
		return "", err
	}
	return b.String(), nil
}
