package benchmark

import "testing"

func TestParseTrack(t *testing.T) {
	for in, want := range map[string]Track{"main": SingleQuery, "application": Incremental,
		"unsat-core": UnsatCore, "Model-Validation": ModelValidation, "proof-exhibition": Proof, "cloud": Cloud} {
		got, err := ParseTrack(in)
		if err != nil || got != want {
			t.Errorf("ParseTrack(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseTrack("sprint"); err == nil {
		t.Error("ParseTrack(sprint) succeeded")
	}
	if n := len(TracksOf(2014)); n != 2 {
		t.Errorf("2014 has %d tracks, want 2", n)
	}
}
