package store

import (
	"database/sql"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// benchChunk is how many rows a statement of AddBenchmarks adds (the
// importers' batches are multiples of it); fewer go in statements of 128,
// 64, ... rows.
const benchChunk = 200

// benchColumns are the columns of a benchmark row; benchValue gives their
// values.
var benchColumns = [...]string{"path", "logic", "incremental", "category", "status", "statuses", "difficulty",
	"asserts", "check_sats", "size", "mod_time", "hash"}

// benchValue is a column's value, as a type database/sql passes on as it
// is (an int goes through reflection).
func benchValue(b *Indexed, c int) any {
	switch c {
	case 0:
		return b.Path
	case 1:
		return b.Logic
	case 2:
		return int64(boolInt(b.Incremental))
	case 3:
		return string(b.Category)
	case 4:
		return string(b.Status)
	case 5:
		return joinStatuses(b.Statuses)
	case 6:
		return b.Difficulty
	case 7:
		return int64(b.Asserts)
	case 8:
		return int64(b.CheckSats)
	case 9:
		return b.Size
	case 10:
		return b.Sig.ModTime
	}
	return b.Hash
}

// benchDiff has a bit set for each column (by benchColumns) in which two
// rows differ; the path's is always set.
func benchDiff(a, b *Indexed) uint16 {
	m := uint16(1)
	for c, differ := range [...]bool{1: a.Logic != b.Logic, 2: a.Incremental != b.Incremental, 3: a.Category != b.Category,
		4: a.Status != b.Status, 5: !slices.Equal(a.Statuses, b.Statuses), 6: a.Difficulty != b.Difficulty,
		7: a.Asserts != b.Asserts, 8: a.CheckSats != b.CheckSats, 9: a.Size != b.Size, 10: a.Sig.ModTime != b.Sig.ModTime,
		11: a.Hash != b.Hash} {
		if differ {
			m |= 1 << c
		}
	}
	return m
}

// benchAdd is the text of an insert of k rows in which the columns of own
// (a bit each) have a value per row, and the others one value for all.
// Rows whose path is already there are skipped. SQLite's is INSERT OR
// IGNORE, not ON CONFLICT DO NOTHING: a statement whose rows may make it
// fail part way (a NOT NULL column given NULL) has SQLite copy each page it
// changes to a statement journal first, so as to undo the statement alone,
// and a multi-row INSERT changes the last pages of the table and of its
// path index every time (15% of the time of adding the 2024 benchmark
// list). Our rows have no NULLs, so the two skip the same rows.
//
// The shared columns come first, so that SQLite's parameters can be
// numbered ?1, ?2, ... for them and "?" (the next number) for the rest:
// SQLite looks each numbered parameter up in a list of the numbered ones,
// which takes long for a list of thousands.
func (d dialect) benchAdd(k int, own uint16) string {
	var cols []int
	for c := range benchColumns {
		if own&(1<<c) == 0 {
			cols = append(cols, c)
		}
	}
	shared := len(cols)
	for c := range benchColumns {
		if own&(1<<c) != 0 {
			cols = append(cols, c)
		}
	}
	var b strings.Builder
	b.WriteString("INSERT ")
	if d.name == "sqlite" {
		b.WriteString("OR IGNORE ")
	}
	b.WriteString("INTO benchmarks (")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(benchColumns[c])
	}
	b.WriteString(") VALUES ")
	next := shared + 1
	for r := range k {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for i := range cols {
			if i > 0 {
				b.WriteString(", ")
			}
			switch {
			case d.name == "sqlite" && i < shared:
				b.WriteString("?" + strconv.Itoa(i+1))
			case d.name == "sqlite":
				b.WriteByte('?')
			case i < shared:
				b.WriteString("$" + strconv.Itoa(i+1))
			default:
				b.WriteString("$" + strconv.Itoa(next))
				next++
			}
		}
		b.WriteByte(')')
	}
	if d.name != "sqlite" {
		b.WriteString(" ON CONFLICT (path) DO NOTHING")
	}
	return b.String()
}

// benchStmt is a statement of the bulk's transaction (prepared once).
type benchStmt struct {
	k   int
	own uint16
}

func (b *sqlBulk) AddBenchmarks(bs []Indexed) (int, error) {
	if len(bs) == 0 {
		return 0, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.fill("benchmarks"); err != nil {
		return 0, fmt.Errorf("store: add benchmarks: %w", err)
	}
	added := 0
	var args []any
	for lo := 0; lo < len(bs); {
		k := benchChunk
		if n := len(bs) - lo; n < k {
			k = 1 << (bits.Len(uint(n)) - 1)
		}
		rows := bs[lo : lo+k]
		own := uint16(1)
		if k == 1 {
			own = 1<<len(benchColumns) - 1
		}
		for i := range rows[1:] {
			own |= benchDiff(&rows[0], &rows[i+1])
		}
		st, ok := b.benchStmts[benchStmt{k, own}]
		if !ok {
			var err error
			if st, err = b.tx.PrepareContext(b.ctx, b.s.d.benchAdd(k, own)); err != nil {
				return added, fmt.Errorf("store: add benchmarks: %w", err)
			}
			if b.benchStmts == nil {
				b.benchStmts = map[benchStmt]*sql.Stmt{}
			}
			b.benchStmts[benchStmt{k, own}] = st
		}
		args = args[:0]
		for c := range benchColumns {
			if own&(1<<c) == 0 {
				args = append(args, benchValue(&rows[0], c))
			}
		}
		for i := range rows {
			for c := range benchColumns {
				if own&(1<<c) != 0 {
					args = append(args, benchValue(&rows[i], c))
				}
			}
		}
		res, err := st.ExecContext(b.ctx, args...)
		if err != nil {
			return added, fmt.Errorf("store: add benchmarks: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return added, fmt.Errorf("store: add benchmarks: %w", err)
		}
		added += int(n)
		lo += k
	}
	return added, nil
}
