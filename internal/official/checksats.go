package official

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadCheckSats reads the number of check-sat commands of incremental
// benchmarks from SMT-COMP's table (prep/incremental_num_check_sat.csv:
// benchmark,num_check_sat with paths below incremental/), keyed by library
// path.
func ReadCheckSats(path string) (map[string]int, error) {
	out := map[string]int{}
	err := EachCSV(path, func(name string, r io.Reader) error {
		cr := csv.NewReader(r)
		head, err := cr.Read()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		bi, ni := -1, -1
		for i, h := range head {
			switch strings.TrimSpace(h) {
			case "benchmark":
				bi = i
			case "num_check_sat":
				ni = i
			}
		}
		if bi < 0 || ni < 0 {
			return fmt.Errorf("%s: want columns benchmark and num_check_sat", name)
		}
		for {
			rec, err := cr.Read()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			n, err := strconv.Atoi(strings.TrimSpace(rec[ni]))
			if err != nil {
				return fmt.Errorf("%s: %q: %w", name, rec[ni], err)
			}
			p := strings.TrimPrefix(rec[bi], "./")
			if !strings.HasPrefix(p, "incremental/") {
				p = "incremental/" + p
			}
			out[p] = n
		}
	})
	return out, err
}
