package config

import "fmt"

// Executor is the [executor] table: where a competition's pairs run.
// Command-line flags of compete override it.
type Executor struct {
	// Type is "local" (default: a pool on this machine) or "slurm"
	// (workers submitted with sbatch; needs a PostgreSQL store).
	Type string `toml:"type"`
	// Jobs is how many Slurm worker jobs are kept queued or running
	// (default: 1).
	Jobs int `toml:"jobs"`
	// Lease is how long a claimed pair stays a worker's without a
	// heartbeat (default 60 s): a lost node's pairs run again elsewhere
	// about this long after the loss.
	Lease Duration `toml:"lease"`
	// Partition is the Slurm partition (default: the cluster's default).
	Partition string `toml:"partition"`
	// Sbatch holds further sbatch options, e.g. ["--account=smtcomp"].
	Sbatch []string `toml:"sbatch"`
}

func (e Executor) check() error {
	switch e.Type {
	case "", "local", "slurm":
	default:
		return fmt.Errorf("[executor] type %q: want local or slurm", e.Type)
	}
	if e.Jobs < 0 {
		return fmt.Errorf("[executor] jobs = %d: must be positive", e.Jobs)
	}
	if e.Lease.Duration < 0 {
		return fmt.Errorf("[executor] lease = %s: must be positive", e.Lease.Duration)
	}
	return nil
}
