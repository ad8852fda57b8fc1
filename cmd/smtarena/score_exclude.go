package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/official"
	"github.com/smtarena/smtarena/internal/score"
)

// readExclusions reads --exclude files: plain lists, compressed or not, or
// archives of them (2020/scoring/blacklists.tar.xz), each member one list.
func readExclusions(paths []string) ([]score.Exclusion, error) {
	var out []score.Exclusion
	for _, p := range paths {
		err := official.EachFile(p, []string{""}, func(name string, r io.Reader) error {
			ex, err := score.ParseExclusion(name, r)
			if err != nil {
				return err
			}
			out = append(out, ex)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("--exclude: %w", err)
		}
	}
	return out, nil
}

// readExperimental reads --experimental: a file like 2020's
// experimental.csv (track,logic; the track as model_validation), whose
// lines of this track count, or a comma-separated list of divisions.
func readExperimental(arg string, track benchmark.Track) ([]string, error) {
	if arg == "" {
		return nil, nil
	}
	data, err := os.ReadFile(arg)
	if err != nil {
		if os.IsNotExist(err) && !strings.ContainsAny(arg, "/.") {
			return strings.Split(arg, ","), nil
		}
		return nil, fmt.Errorf("--experimental: %w", err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("--experimental: %s: %w", arg, err)
	}
	var out []string
	for i, r := range recs {
		if len(r) < 2 {
			return nil, fmt.Errorf("--experimental: %s:%d: want track,logic", arg, i+1)
		}
		if i == 0 && strings.TrimSpace(r[0]) == "track" {
			continue
		}
		t, err := benchmark.ParseTrack(strings.ReplaceAll(strings.TrimSpace(r[0]), "_", "-"))
		if err != nil {
			return nil, fmt.Errorf("--experimental: %s:%d: %w", arg, i+1, err)
		}
		if t == track {
			out = append(out, strings.TrimSpace(r[1]))
		}
	}
	return out, nil
}
