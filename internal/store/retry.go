package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"syscall"
	"time"
)

// DefaultRetry is how long the PostgreSQL store retries an operation that
// failed for a transient reason (the server restarting, a connection
// lost, a serialization failure) before it gives up: long enough for a
// restart or a fail-over, short enough that a server gone for good is
// reported.
const DefaultRetry = 2 * time.Minute

// retry runs f until it succeeds, fails for a reason that is not
// transient, ctx ends or s.retryFor has passed, waiting longer after each
// failure (50 ms doubling to 2 s).
func (s *sqlStore) retry(ctx context.Context, f func() error) error {
	if s.retryFor <= 0 {
		return f()
	}
	deadline := time.Now().Add(s.retryFor)
	wait := 50 * time.Millisecond
	for {
		err := f()
		if err == nil || !transient(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// transient reports whether an error may go away when the operation is
// tried again: a lost or refused connection, a server shutting down or
// starting, too many connections, a serialization failure or deadlock.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	// The server's errors carry their SQLSTATE (lib/pq's *pq.Error; any
	// driver's error that says it).
	var pe interface{ SQLState() string }
	if errors.As(err, &pe) {
		code := pe.SQLState()
		switch {
		case len(code) == 5 && code[:2] == "08": // connection exception
			return true
		case code == "57P01", code == "57P02", code == "57P03": // shutdown, crash shutdown, cannot connect now
			return true
		case code == "40001", code == "40P01", code == "53300": // serialization, deadlock, too many connections
			return true
		}
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}
