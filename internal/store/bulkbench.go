package store

import (
	"fmt"
	"strings"
)

// benchmarksAdd is the insert of Bulk.AddBenchmarks: rows whose path is
// already there are skipped. SQLite's is INSERT OR IGNORE, not ON CONFLICT
// DO NOTHING: a statement whose rows may make it fail part way (a NOT NULL
// column given NULL) has SQLite copy each page it changes to a statement
// journal first, so as to undo the statement alone, and a multi-row INSERT
// changes the last pages of the table and of its path index every time
// (15% of the time of adding the 2024 benchmark list). Our rows have no
// NULLs, so the two skip the same rows.
func (d dialect) benchmarksAdd() insert {
	q := benchmarksInsert
	if d.name == "sqlite" {
		q.head = strings.Replace(q.head, "INSERT INTO", "INSERT OR IGNORE INTO", 1)
		q.tail = ""
	} else {
		q.tail = "ON CONFLICT (path) DO NOTHING"
	}
	return q
}

func (b *sqlBulk) AddBenchmarks(bs []Indexed) (int, error) {
	if len(bs) == 0 {
		return 0, nil
	}
	if err := b.fill("benchmarks"); err != nil {
		return 0, fmt.Errorf("store: add benchmarks: %w", err)
	}
	n, err := b.s.insertMany(b.ctx, b.tx, b.s.d.benchmarksAdd(), len(bs), func(dst []any, i int) []any {
		b := &bs[i]
		return append(dst, b.Path, b.Logic, boolInt(b.Incremental), string(b.Category), string(b.Status),
			joinStatuses(b.Statuses), b.Difficulty, b.Asserts, b.CheckSats, b.Size, b.Sig.ModTime, b.Hash)
	})
	if err != nil {
		return int(n), fmt.Errorf("store: add benchmarks: %w", err)
	}
	return int(n), nil
}
