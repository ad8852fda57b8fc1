package testenv

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/lib/pq" // the "postgres" driver
)

// PostgresServer is a PostgreSQL server a test binary started for itself on
// a loopback port.
type PostgresServer struct {
	Port int
	dir  string
	ctl  string
	cred *syscall.Credential
	n    atomic.Int64
	err  error
}

var (
	pgOnce   sync.Once
	pgServer *PostgresServer
)

// pgBin finds a PostgreSQL server program: Debian puts them under
// /usr/lib/postgresql/VERSION/bin.
func pgBin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
	if len(m) > 0 {
		return m[len(m)-1], nil
	}
	return "", fmt.Errorf("%s not found (install Debian's postgresql package)", name)
}

// Postgres starts (once per test binary) a PostgreSQL server on a loopback
// port, as a non-root user because initdb refuses root, and returns the DSN
// of a fresh, empty database for the calling test. It skips (or fails under
// SMTARENA_TEST_DISALLOW_SKIP) where PostgreSQL cannot run.
func Postgres(t testing.TB) string {
	t.Helper()
	pgOnce.Do(func() { pgServer = startPostgres() })
	if pgServer.err != nil {
		Skipf(t, "needs PostgreSQL: %v", pgServer.err)
	}
	name := fmt.Sprintf("t%d_%d", os.Getpid(), pgServer.n.Add(1))
	admin, err := sql.Open("postgres", pgServer.dsn("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	return pgServer.dsn(name)
}

func (s *PostgresServer) dsn(db string) string {
	return fmt.Sprintf("postgres://smtarena@127.0.0.1:%d/%s?sslmode=disable", s.Port, db)
}

func startPostgres() *PostgresServer {
	s := &PostgresServer{}
	initdb, err := pgBin("initdb")
	if err != nil {
		s.err = err
		return s
	}
	if s.ctl, err = pgBin("pg_ctl"); err != nil {
		s.err = err
		return s
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			u, err = user.Lookup("nobody")
		}
		if err != nil {
			s.err = fmt.Errorf("running as root and no postgres or nobody user to run the server: %w", err)
			return s
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	if s.dir, err = os.MkdirTemp("", "smtarena-pg-"); err != nil {
		s.err = err
		return s
	}
	if s.cred != nil {
		if err := os.Chown(s.dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			s.err = err
			return s
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.err = err
		return s
	}
	s.Port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	data := filepath.Join(s.dir, "data")
	if out, err := s.run(initdb, "-D", data, "-U", "smtarena", "--auth=trust", "--no-sync", "-E", "UTF8"); err != nil {
		s.err = fmt.Errorf("initdb: %v: %s", err, out)
		return s
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off", s.Port, s.dir)
	if out, err := s.run(s.ctl, "-D", data, "-o", opts, "-l", filepath.Join(s.dir, "log"), "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		s.err = fmt.Errorf("pg_ctl start: %v: %s %s", err, out, log)
		return s
	}
	db, _ := sql.Open("postgres", s.dsn("postgres"))
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		s.err = fmt.Errorf("connect: %w", err)
	}
	return s
}

func (s *PostgresServer) run(prog string, args ...string) ([]byte, error) {
	cmd := exec.Command(prog, args...)
	cmd.Dir = s.dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8"}
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd.CombinedOutput()
}

// StopPostgres stops the server Postgres started, if any. TestMain calls it
// after the tests.
func StopPostgres() {
	if pgServer == nil || pgServer.dir == "" {
		return
	}
	if pgServer.err == nil {
		_, _ = pgServer.run(pgServer.ctl, "-D", filepath.Join(pgServer.dir, "data"), "-m", "immediate", "stop")
	}
	os.RemoveAll(pgServer.dir)
}

// RestartPostgres restarts the server Postgres started (fast shutdown:
// open connections are cut), for tests of what survives a restart. It
// waits until the server accepts connections again.
func RestartPostgres(t testing.TB) {
	t.Helper()
	if pgServer == nil || pgServer.err != nil {
		t.Fatal("RestartPostgres: no server started")
	}
	data := filepath.Join(pgServer.dir, "data")
	// -l as at the start: the server must not inherit our output pipe.
	if out, err := pgServer.run(pgServer.ctl, "-D", data, "-l", filepath.Join(pgServer.dir, "log"), "-m", "fast", "-w", "-t", "60", "restart"); err != nil {
		log, _ := os.ReadFile(filepath.Join(pgServer.dir, "log"))
		t.Fatalf("pg_ctl restart: %v: %s %s", err, out, log)
	}
}
