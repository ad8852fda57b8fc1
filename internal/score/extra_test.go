package score

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// mapString is how RowOf read a value of the map encoding/json decodes
// Extra into before parseExtra.
func mapString(v any) string {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

// checkExtra: what parseExtra reads, encoding/json reads the same.
func checkExtra(t *testing.T, s string) {
	t.Helper()
	x, ok := parseExtra(s, nil)
	var m map[string]any
	err := json.Unmarshal([]byte(s), &m)
	if !ok {
		return
	}
	if err != nil {
		t.Fatalf("%q: parseExtra read it, encoding/json: %v", s, err)
	}
	for k, v := range m {
		got, has := x.get(k)
		if !has || got.String() != mapString(v) {
			t.Fatalf("%q: %q is %q (%v), encoding/json %q", s, k, got.String(), has, mapString(v))
		}
	}
	for _, f := range x {
		if _, has := m[f.key]; !has {
			t.Fatalf("%q: %q not in encoding/json's map", s, f.key)
		}
	}
}

var extraSeeds = []string{
	`{"core-size":4,"nb_answers":4,"result":"unsat"}`,
	`{"correct-answers":17,"nb_answers":17,"result":"Incremental","wrong-answers":1}`,
	`{"a": " x ", "b": -0, "c": 1.50, "d": 1e2, "e": true, "f": false, "g": null, "a": "y"}`,
	`{"n": 1234567890123456, "m": -12, "k": 0.000001, "z": 1E-7}`,
	`{"nested": {"a": 1}}`,
	`{"esc": "a\"b"}`,
	`{"x": 01}`,
	`{"x": 1.}`,
	`{"x": 1} trailing`,
	`{}`,
	` { } `,
}

func TestParseExtra(t *testing.T) {
	for _, s := range extraSeeds {
		checkExtra(t, s)
	}
	for _, s := range extraSeeds[:4] {
		if _, ok := parseExtra(s, nil); !ok {
			t.Errorf("%s: not read", s)
		}
	}
}

func FuzzParseExtra(f *testing.F) {
	for _, s := range extraSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkExtra(t, s) })
}
