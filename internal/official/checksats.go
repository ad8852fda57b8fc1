package official

import (
	"fmt"
	"strconv"
	"strings"
)

// ReadCheckSats reads the number of check-sat commands of incremental
// benchmarks from SMT-COMP's table (prep/incremental_num_check_sat.csv:
// benchmark,num_check_sat with paths below incremental/), keyed by library
// path.
func ReadCheckSats(path string) (map[string]int, error) {
	rows, err := readColumns(path, "benchmark", "num_check_sat")
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(rows))
	for _, c := range rows {
		n, err := strconv.Atoi(c.Vals[1])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: num_check_sat %q: %w", c.File, c.Line, c.Vals[1], err)
		}
		p := strings.TrimPrefix(c.Vals[0], "./")
		if !strings.HasPrefix(p, "incremental/") {
			p = "incremental/" + p
		}
		out[p] = n
	}
	return out, nil
}
