package store

import (
	"context"
	"database/sql"

	"fmt"
)

// Core is one distinct unsat core of a competition's unsat-core track: the
// validation file made from it, validated once however many solvers gave
// it, and its verdict once its validation pairs are all done.
type Core struct {
	ID          int64
	Competition string // the key of the validation pairs
	// Hash names the validation file by its contents.
	Hash          string
	BenchmarkPath string
	Logic         string
	Input         string // the validation file
	Names         string // the core's names, sorted, space separated
	// Verdict is "" until decided, then validated or refuted; Detail is
	// the decision (JSON: the rule, each validator's answer and time).
	Verdict string
	Detail  string
}

// CoreStore records unsat cores and their verdicts.
type CoreStore interface {
	// AddCore records a core unless one of the same competition and hash
	// is recorded, and returns the recorded core's id.
	AddCore(ctx context.Context, c Core) (int64, error)
	// Cores lists a competition's cores by id.
	Cores(ctx context.Context, competition string) ([]Core, error)
	// SetCoreVerdict records a core's verdict (ErrNotFound if no such core).
	SetCoreVerdict(ctx context.Context, id int64, verdict, detail string) error
}

var (
	_ CoreStore = (*SQLite)(nil)
	_ CoreStore = (*Postgres)(nil)
)

func (s *sqlStore) AddCore(ctx context.Context, c Core) (int64, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO cores (competition, hash, benchmark_path, logic, input, names, verdict, detail)
			VALUES ($1, $2, $3, $4, $5, $6, '', '') ON CONFLICT (competition, hash) DO NOTHING`,
			c.Competition, c.Hash, c.BenchmarkPath, c.Logic, c.Input, c.Names); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT id FROM cores WHERE competition = $1 AND hash = $2`, c.Competition, c.Hash).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("store: add core %s: %w", c.Hash, err)
	}
	return id, nil
}

func (s *sqlStore) Cores(ctx context.Context, competition string) ([]Core, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, competition, hash, benchmark_path, logic, input, names, verdict, detail
		FROM cores WHERE competition = $1 ORDER BY id`, competition)
	if err != nil {
		return nil, fmt.Errorf("store: cores: %w", err)
	}
	defer rows.Close()
	var out []Core
	for rows.Next() {
		var c Core
		if err := rows.Scan(&c.ID, &c.Competition, &c.Hash, &c.BenchmarkPath, &c.Logic, &c.Input, &c.Names, &c.Verdict, &c.Detail); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (s *sqlStore) SetCoreVerdict(ctx context.Context, id int64, verdict, detail string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE cores SET verdict = $1, detail = $2 WHERE id = $3`, verdict, detail, id)
	if err != nil {
		return fmt.Errorf("store: core %d verdict: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("core %d: %w", id, ErrNotFound)
	}
	return nil
}
