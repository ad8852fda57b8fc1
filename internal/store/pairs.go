package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Pair is one job: a solver configuration on a (scrambled) benchmark in a
// track and division of a competition. Pairs are planned once, claimed by
// workers under a lease, and completed exactly once.
type Pair struct {
	ID            int64
	Competition   string
	Track         string
	Division      string
	Logic         string
	Solver        string
	Configuration string
	BenchmarkID   int64
	BenchmarkPath string
	// Input is the file the solver is given (scrambled, with a status
	// header for the incremental track).
	Input    string
	Expected string // sat, unsat, unknown; incremental: the answers, space separated
	Heat     int
	// Seq orders the pairs: a benchmark's pairs are consecutive, so one
	// machine runs every solver on it, round-robin across solvers.
	Seq      int64
	State    string // pending, running, done
	Owner    string
	Attempts int
}

// Pair states.
const (
	PairPending = "pending"
	PairRunning = "running"
	PairDone    = "done"
)

// PairStore is the part of a store that schedules pairs: the executor's
// view, shared by every worker of a competition (on one machine with
// SQLite, on several with PostgreSQL).
type PairStore interface {
	// PlanPairs adds pairs not already planned (by competition, track,
	// solver, configuration and benchmark) and returns how many were new.
	PlanPairs(ctx context.Context, ps []Pair) (int, error)
	// ClaimPairs leases up to n pairs, in Seq order, to owner: pending
	// ones and running ones whose lease expired.
	ClaimPairs(ctx context.Context, competition, owner string, n int, lease time.Duration) ([]Pair, error)
	// ClaimBenchmark leases to owner every pending pair of the next
	// benchmark in Seq order (its solvers' pairs, consecutive in Seq), so
	// that one node runs every solver on it; or, if leases have expired,
	// the expired pairs of the first such benchmark. Claims of a
	// competition are made one at a time, so two workers never split a
	// benchmark.
	ClaimBenchmark(ctx context.Context, competition, owner string, lease time.Duration) ([]Pair, error)
	// RenewLeases extends the leases owner holds.
	RenewLeases(ctx context.Context, competition, owner string, lease time.Duration) error
	// ReleaseOwner returns the running pairs of an owner known to be dead
	// to pending.
	ReleaseOwner(ctx context.Context, competition, owner string) (int, error)
	// RunningOwners lists the owners of running pairs.
	RunningOwners(ctx context.Context, competition string) ([]string, error)
	// CompletePair records the pair's result and marks it done, in one
	// transaction; a pair already completed (its lease had expired and
	// another worker finished it) keeps its first result.
	CompletePair(ctx context.Context, p Pair, r Result) error
	// PairCounts counts pairs by track and state.
	PairCounts(ctx context.Context, competition string) (map[string]map[string]int, error)
	// Pairs lists a competition's pairs.
	Pairs(ctx context.Context, competition string) ([]Pair, error)
	// NodeCounts counts a competition's running and done pairs by the
	// node (host) of the worker that holds or completed them.
	NodeCounts(ctx context.Context, competition string) (map[string]map[string]int, error)
}

var (
	_ PairStore = (*SQLite)(nil)
	_ PairStore = (*Postgres)(nil)
)

const pairColumns = `id, competition, track, division, logic, solver, configuration, benchmark_id, benchmark_path,
	input, expected, heat, seq, state, owner, attempts`

// appendPairs appends every pair of rows to out and closes rows.
func appendPairs(out []Pair, rows *sql.Rows) ([]Pair, error) {
	defer rows.Close()
	for rows.Next() {
		p, err := scanPair(rows)
		if err != nil {
			return out, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func scanPair(rows interface{ Scan(...any) error }) (Pair, error) {
	var p Pair
	err := rows.Scan(&p.ID, &p.Competition, &p.Track, &p.Division, &p.Logic, &p.Solver, &p.Configuration,
		&p.BenchmarkID, &p.BenchmarkPath, &p.Input, &p.Expected, &p.Heat, &p.Seq, &p.State, &p.Owner, &p.Attempts)
	return p, err
}

// planBatch is how many pairs one INSERT of PlanPairs carries (12
// parameters each: within both databases' limits on parameters).
const planBatch = 500

func (s *sqlStore) PlanPairs(ctx context.Context, ps []Pair) (int, error) {
	n := 0
	err := s.tx(ctx, func(tx *sql.Tx) error {
		n = 0 // counted afresh if a transient error runs this again
		for from := 0; from < len(ps); from += planBatch {
			batch := ps[from:min(from+planBatch, len(ps))]
			var q strings.Builder
			q.WriteString(`INSERT INTO pairs (competition, track, division, logic, solver, configuration,
			benchmark_id, benchmark_path, input, expected, heat, seq, state, owner, lease_until, attempts) VALUES `)
			args := make([]any, 0, 12*len(batch))
			for i, p := range batch {
				if i > 0 {
					q.WriteString(", ")
				}
				q.WriteString("(")
				for j := 1; j <= 12; j++ {
					fmt.Fprintf(&q, "$%d, ", 12*i+j)
				}
				q.WriteString("'pending', '', 0, 0)")
				args = append(args, p.Competition, p.Track, p.Division, p.Logic, p.Solver, p.Configuration,
					p.BenchmarkID, p.BenchmarkPath, p.Input, p.Expected, p.Heat, p.Seq)
			}
			q.WriteString(" ON CONFLICT (competition, track, solver, configuration, benchmark_id) DO NOTHING")
			res, err := tx.ExecContext(ctx, q.String(), args...)
			if err != nil {
				return err
			}
			k, _ := res.RowsAffected()
			n += int(k)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: plan pairs: %w", err)
	}
	return n, nil
}

func (s *sqlStore) ClaimPairs(ctx context.Context, competition, owner string, n int, lease time.Duration) ([]Pair, error) {
	now := time.Now().UnixMilli()
	lock := ""
	if s.d.name == "postgres" {
		// Several workers claim at once: each skips the rows another
		// is claiming.
		lock = " FOR UPDATE SKIP LOCKED"
	}
	// Two claims, each an index range in seq order (competition, state,
	// seq): first the running pairs whose lease expired (a lost worker's:
	// few, and earlier in the order), then pending ones. One query with
	// both states in an OR sorts every pair of the competition at each
	// claim, which with a million pairs planned is slower by far.
	// SQLite numbers parameters in the order they appear: the limit is
	// the last one.
	claim := func(where, limit string) string {
		return `UPDATE pairs SET state = 'running', owner = $1, lease_until = $2, attempts = attempts + 1
		WHERE id IN (SELECT id FROM pairs WHERE competition = $3 AND ` + where + `
			ORDER BY seq LIMIT ` + limit + lock + `)
		RETURNING ` + pairColumns
	}
	expired := claim(`state = 'running' AND lease_until < $4`, "$5")
	pending := claim(`state = 'pending'`, "$4")
	var out []Pair
	err := s.tx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		for _, q := range []string{expired, pending} {
			if len(out) >= n {
				break
			}
			args := []any{owner, now + lease.Milliseconds(), competition, n - len(out)}
			if q == expired {
				args = []any{owner, now + lease.Milliseconds(), competition, now, n}
			}
			rows, err := tx.QueryContext(ctx, q, args...)
			if err != nil {
				return err
			}
			if out, err = appendPairs(out, rows); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: claim pairs: %w", err)
	}
	// RETURNING has no order: put the pairs back in Seq order.
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, nil
}

// groupSpan bounds the Seq range one benchmark's pairs take (its solvers
// times their configurations), so that ClaimBenchmark reads an index range.
const groupSpan = 10000

func (s *sqlStore) ClaimBenchmark(ctx context.Context, competition, owner string, lease time.Duration) ([]Pair, error) {
	var out []Pair
	err := s.tx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		if s.d.name == "postgres" {
			// One claim at a time per competition (SQLite's writes are
			// one at a time anyway).
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, competition); err != nil {
				return err
			}
		}
		now := time.Now().UnixMilli()
		var bench, seq int64
		var state string
		err := tx.QueryRowContext(ctx, `SELECT benchmark_id, seq, state FROM pairs WHERE competition = $1 AND state = 'running' AND lease_until < $2
			ORDER BY seq LIMIT 1`, competition, now).Scan(&bench, &seq, &state)
		if errors.Is(err, sql.ErrNoRows) {
			err = tx.QueryRowContext(ctx, `SELECT benchmark_id, seq, state FROM pairs WHERE competition = $1 AND state = 'pending'
				ORDER BY seq LIMIT 1`, competition).Scan(&bench, &seq, &state)
		}
		if errors.Is(err, sql.ErrNoRows) {
			return nil // nothing to claim
		}
		if err != nil {
			return err
		}
		cond := `state = 'pending'`
		if state == PairRunning {
			cond = `state = 'running' AND lease_until < $4`
		}
		// The benchmark's pairs are consecutive in Seq: a range of the
		// claim index, from the first one claimable.
		q := `UPDATE pairs SET state = 'running', owner = $1, lease_until = $2, attempts = attempts + 1
			WHERE id IN (SELECT id FROM pairs WHERE competition = $3 AND ` + cond + ` AND seq >= $5 AND seq < $6 AND benchmark_id = $7)
			RETURNING ` + pairColumns
		args := []any{owner, now + lease.Milliseconds(), competition, now, seq, seq + groupSpan, bench}
		if state != PairRunning {
			// SQLite numbers parameters as they appear: no $4 here.
			q = strings.NewReplacer("$5", "$4", "$6", "$5", "$7", "$6").Replace(q)
			args = []any{owner, now + lease.Milliseconds(), competition, seq, seq + groupSpan, bench}
		}
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		out, err = appendPairs(out, rows)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: claim a benchmark: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, nil
}

func (s *sqlStore) RenewLeases(ctx context.Context, competition, owner string, lease time.Duration) error {
	err := s.retry(ctx, func() error {
		_, err := s.db.ExecContext(ctx, `UPDATE pairs SET lease_until = $1 WHERE competition = $2 AND owner = $3 AND state = 'running'`,
			time.Now().Add(lease).UnixMilli(), competition, owner)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: renew leases: %w", err)
	}
	return nil
}

func (s *sqlStore) ReleaseOwner(ctx context.Context, competition, owner string) (int, error) {
	var n int64
	err := s.retry(ctx, func() error {
		res, err := s.db.ExecContext(ctx, `UPDATE pairs SET state = 'pending', owner = '', lease_until = 0
			WHERE competition = $1 AND owner = $2 AND state = 'running'`, competition, owner)
		if err == nil {
			n, _ = res.RowsAffected()
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: release %s: %w", owner, err)
	}
	return int(n), nil
}

func (s *sqlStore) RunningOwners(ctx context.Context, competition string) ([]string, error) {
	var out []string
	err := s.retry(ctx, func() error {
		out = out[:0]
		rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT owner FROM pairs WHERE competition = $1 AND state = 'running'`, competition)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var o string
			if err := rows.Scan(&o); err != nil {
				return err
			}
			out = append(out, o)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: running owners: %w", err)
	}
	return out, nil
}

func (s *sqlStore) CompletePair(ctx context.Context, p Pair, r Result) error {
	r.SourceKey = fmt.Sprintf("pair:%d", p.ID)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO results
			(competition, year, track, solver, configuration, benchmark_path, status, answer, expected, cpu, wall, memory_mb, extra, source_key, pair_id)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
			ON CONFLICT (source_key) DO NOTHING`,
			r.Competition, r.Year, r.Track, r.Solver, r.Configuration, r.BenchmarkPath, r.Status, r.Answer, r.Expected,
			r.CPU, r.Wall, r.MemoryMB, r.Extra, r.SourceKey, p.ID); err != nil {
			return err
		}
		// The worker that completed the pair first stays its owner: the
		// node its result comes from.
		_, err := tx.ExecContext(ctx, `UPDATE pairs SET state = 'done', lease_until = 0, owner = COALESCE(NULLIF($1, ''), owner)
			WHERE id = $2 AND state <> 'done'`, p.Owner, p.ID) // SQLite numbers parameters as they appear
		return err
	})
	if err != nil {
		return fmt.Errorf("store: complete pair %d: %w", p.ID, err)
	}
	return nil
}

func (s *sqlStore) PairCounts(ctx context.Context, competition string) (map[string]map[string]int, error) {
	out, err := s.counts(ctx, `SELECT track, state, COUNT(*) FROM pairs WHERE competition = $1 GROUP BY track, state`, competition, nil)
	if err != nil {
		return nil, fmt.Errorf("store: pair counts: %w", err)
	}
	return out, nil
}

func (s *sqlStore) NodeCounts(ctx context.Context, competition string) (map[string]map[string]int, error) {
	// Owners are host/pid/start (see executor.Owner): the node is the host.
	out, err := s.counts(ctx, `SELECT owner, state, COUNT(*) FROM pairs WHERE competition = $1 AND owner <> '' GROUP BY owner, state`,
		competition, func(owner string) string { return strings.SplitN(owner, "/", 2)[0] })
	if err != nil {
		return nil, fmt.Errorf("store: node counts: %w", err)
	}
	return out, nil
}

// counts runs a query of (key, state, count) rows into key -> state ->
// count, the key mapped by keyOf when not nil.
func (s *sqlStore) counts(ctx context.Context, q, competition string, keyOf func(string) string) (map[string]map[string]int, error) {
	var out map[string]map[string]int
	err := s.retry(ctx, func() error {
		out = map[string]map[string]int{}
		rows, err := s.db.QueryContext(ctx, q, competition)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var key, state string
			var n int
			if err := rows.Scan(&key, &state, &n); err != nil {
				return err
			}
			if keyOf != nil {
				key = keyOf(key)
			}
			if out[key] == nil {
				out[key] = map[string]int{}
			}
			out[key][state] += n
		}
		return rows.Err()
	})
	return out, err
}

func (s *sqlStore) Pairs(ctx context.Context, competition string) ([]Pair, error) {
	var out []Pair
	err := s.retry(ctx, func() error {
		out = out[:0]
		rows, err := s.db.QueryContext(ctx, `SELECT `+pairColumns+` FROM pairs WHERE competition = $1 ORDER BY seq`, competition)
		if err != nil {
			return err
		}
		out, err = appendPairs(out, rows)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: pairs: %w", err)
	}
	return out, nil
}
