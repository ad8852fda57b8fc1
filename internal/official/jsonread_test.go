package official

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// decoderArrays is how the importers read the smtcomp tool's files before
// jsonReader, with encoding/json's Decoder: the reference FuzzJSONReader
// compares jsonReader with.
func decoderArrays(r io.Reader, keys map[string]bool) ([]string, error) {
	dec := json.NewDecoder(r)
	var out []string
	tok, err := dec.Token()
	if err != nil {
		return out, err
	}
	elements := func(key string) error {
		for dec.More() {
			var m map[string]json.RawMessage
			if err := dec.Decode(&m); err != nil {
				return err
			}
			out = append(out, key+"="+showMap(m))
		}
		_, err := dec.Token()
		return err
	}
	if tok == json.Delim('[') {
		return out, elements("")
	}
	if tok != json.Delim('{') {
		return out, fmt.Errorf("not an array or object")
	}
	found := false
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return out, err
		}
		ks, _ := k.(string)
		if !keys[ks] {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return out, err
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return out, fmt.Errorf("not an array: %v", err)
		}
		found = true
		if err := elements(ks); err != nil {
			return out, err
		}
	}
	if !found {
		return out, fmt.Errorf("not found")
	}
	_, err = dec.Token()
	return out, err
}

// readerArrays reads the same with jsonReader.
func readerArrays(r io.Reader, keys map[string]bool) ([]string, error) {
	d := newJSONReader(r)
	var out []string
	var ms []member
	err := d.arrays(keys, func(key string) error {
		for {
			more, err := d.more()
			if err != nil || !more {
				return err
			}
			if ms, err = d.element(ms); err != nil {
				return err
			}
			out = append(out, key+"="+showMap(d.rawMap(ms)))
			d.release()
		}
	})
	return out, err
}

func showMap(m map[string]json.RawMessage) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%q:%s;", k, m[k])
	}
	return b.String()
}

var jsonReaderSeeds = []string{
	smtcompJSON,
	`[{"a": 1}, null, {"b": [1, 2, {"c": "d\u00e9\n"}], "a": true, "a": false}]`,
	`{"incremental": [{"file": {"logic": "QF_LIA"}, "check_sats": 7}], "x": {"y": [null]}, "non_incremental": []}`,
	`{"results": [{"k\u0041y": -0.5e+10, "": "", "z": 1E2}]}`,
	`{"results": [{"a": 01}]}`,
	`{"results": [{"a": 1.}]}`,
	`{"results": [{"a": "\x"}]}`,
	`{"results": [{"a": "x`,
	`{"results": [1]}`,
	`{"results": [{"a": tru}]}`,
	`{"other": []}`,
	`[]`,
	`{}`,
	`{"results": [{"a":1},]}`,
	"{\"results\": [{\"a\":\"\x01\"}]}",
	"{\"results\": [{\"a\":\"\xff\xfe\", \"\xff\": 1}]}",
}

// TestJSONReader: jsonReader reads what encoding/json reads, the same
// values, and refuses what it refuses, also when the input comes a byte
// at a time.
func TestJSONReader(t *testing.T) {
	keys := map[string]bool{"results": true, "incremental": true, "non_incremental": true}
	for _, s := range jsonReaderSeeds {
		want, werr := decoderArrays(strings.NewReader(s), keys)
		for _, r := range []io.Reader{strings.NewReader(s), iotest.OneByteReader(strings.NewReader(s))} {
			got, err := readerArrays(r, keys)
			if (err == nil) != (werr == nil) || (err == nil && !slices.Equal(got, want)) {
				t.Errorf("%.60q: %q, %v; encoding/json: %q, %v", s, got, err, want, werr)
			}
		}
	}
}

func FuzzJSONReader(f *testing.F) {
	for _, s := range jsonReaderSeeds {
		f.Add([]byte(s))
	}
	keys := map[string]bool{"results": true, "incremental": true, "non_incremental": true}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := decoderArrays(bytes.NewReader(data), keys)
		// Half the inputs come whole (the elements read within the
		// buffer, by scanObject), half in pieces (read with refills).
		var r io.Reader = bytes.NewReader(data)
		if len(data)%2 == 0 {
			r = iotest.HalfReader(r)
		}
		got, err := readerArrays(r, keys)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: jsonReader: %v; encoding/json: %v", data, err, werr)
		}
		if err == nil && !slices.Equal(got, want) {
			t.Fatalf("%q: jsonReader %q; encoding/json %q", data, got, want)
		}
	})
}
