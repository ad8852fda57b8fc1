// The engine for the Go side of the sandbox (internal/sandbox.Run).
//
// Run starts this executable with the argument "__smtarena-sandbox-run";
// the constructor below runs one run on the engine, before the Go runtime
// starts, and exits. So a competition's runs and `smtarena exec` go through
// the same code, and a run pays no Go start-up.
//
// Protocol (see internal/sandbox/run_linux.go on the Go side). Entries are
// "key=value" strings, each ended by a NUL.
//   fd 0: the solver's standard input.
//   fd 1: the solver's standard output and error, read by the caller, who
//         counts and cuts it; SIGUSR2 tells us the output limit was reached.
//   fd 3: the spec, until EOF: arg (repeated, in order), env (repeated),
//         cpu_ns, wall_ns, mem, pids, core (repeated), protocol (2022,
//         2005), grace_ns, workdir, keep, backend, cpu_updates.
//   fd 4: what happens, as it happens: backend, workdir, cpu_file, cpu_key
//         and cpu_unit_ns (where the run's CPU time can be read: cgroups),
//         started, cpu (the CPU time at each sample of the fallback, with
//         cpu_updates); then the result: reason, error, exit, signal,
//         wall_ns, user_ns, sys_ns, peak, start_ns, end_ns, accurate,
//         setup_failed, and "end=1". fd 4 is closed after it.
//   fd 2: what went wrong in removing the run afterwards (the exit status
//         is then 1).
// SIGTERM, SIGINT and SIGHUP end the run as killed. Once fd 4 is closed the
// run's cgroups and working directory are removed, and the process exits.

#include "native_linux.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RUN_ARG "__smtarena-sandbox-run"
#define SPEC_FD 3
#define STATUS_FD 4

/* read_all reads fd to its end into a new NUL-terminated buffer. */
static char *read_all(int fd, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (!buf)
			return NULL;
		if (n + 1 >= cap) {
			char *b = realloc(buf, cap *= 2);
			if (!b)
				free(buf);
			buf = b;
			continue;
		}
		ssize_t r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

static __attribute__((noreturn)) void refuse(const char *why)
{
	char b[512], msg[256];
	struct kv k = {b, sizeof b, 0};
	snprintf(msg, sizeof msg, "sandbox: %s", why);
	kv_put(&k, "error", msg);
	kv_put(&k, "setup_failed", "1");
	kv_put(&k, "reason", "failed");
	kv_put(&k, "end", "1");
	write_all(STATUS_FD, k.b, k.len);
	_exit(0);
}

static void read_spec(struct engine_spec *s)
{
	static struct list args, env, keep;
	static int cores[1024];
	size_t len;
	char *buf = read_all(SPEC_FD, &len);
	if (!buf)
		refuse("read spec");
	close(SPEC_FD);
	for (char *p = buf, *next; p < buf + len; p = next) {
		next = p + strlen(p) + 1;
		char *v = strchr(p, '=');
		if (!v)
			refuse("read spec: no '=' in an entry");
		*v++ = 0;
		long long n = strtoll(v, NULL, 10);
		if (!strcmp(p, "arg"))
			list_add(&args, v);
		else if (!strcmp(p, "env"))
			list_add(&env, v);
		else if (!strcmp(p, "cpu_ns"))
			s->cpu_ns = n;
		else if (!strcmp(p, "wall_ns"))
			s->wall_ns = n;
		else if (!strcmp(p, "mem"))
			s->mem_bytes = n;
		else if (!strcmp(p, "pids"))
			s->pids = (long)n;
		else if (!strcmp(p, "core") && s->ncores < 1024)
			cores[s->ncores++] = (int)n;
		else if (!strcmp(p, "protocol"))
			s->protocol2005 = n == 2005;
		else if (!strcmp(p, "grace_ns"))
			s->grace_ns = n;
		else if (!strcmp(p, "workdir"))
			s->workdir = v;
		else if (!strcmp(p, "keep"))
			s->keep_workdir = n == 1;
		else if (!strcmp(p, "backend"))
			s->backend = v;
		else if (!strcmp(p, "cpu_updates"))
			s->cpu_updates = n == 1;
		else if (!strcmp(p, "share_net"))
			s->share_net = n == 1;
		else if (!strcmp(p, "keep_user"))
			s->keep_user = n == 1;
		else if (!strcmp(p, "keep_path"))
			list_add(&keep, v);
	}
	if (args.n == 0)
		refuse("no command");
	s->args = args.items;
	s->env = env.items;
	s->keep = keep.items;
	s->cores = cores;
}

static long long unix_ns(struct timespec t)
{
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static __attribute__((noreturn)) void runner(void)
{
	struct engine_spec s = {0};
	s.stdin_fd = 0;
	s.out_fd = 1;
	s.direct_output = 1;
	s.status_fd = STATUS_FD;
	read_spec(&s);
	struct engine_result r;
	engine_run(&s, &r);
	/* The run's input and output are the run's alone (engine_run let go
	 * of them once it started; not if it could not start). */
	to_null(0);
	to_null(1);
	static char buf[16384];
	struct kv k = {buf, sizeof buf, 0};
	kv_put(&k, "reason", r.reason);
	if (r.error[0])
		kv_put(&k, "error", r.error);
	kv_put_num(&k, "exit", r.exit_code);
	kv_put(&k, "signal", r.signal);
	kv_put_num(&k, "wall_ns", r.wall_ns);
	kv_put_num(&k, "user_ns", r.user_ns);
	kv_put_num(&k, "sys_ns", r.sys_ns);
	kv_put_num(&k, "peak", r.peak_bytes);
	kv_put_num(&k, "start_ns", unix_ns(r.start));
	kv_put_num(&k, "end_ns", unix_ns(r.end));
	kv_put(&k, "backend", r.backend ? r.backend : "");
	kv_put(&k, "workdir", r.workdir);
	kv_put_num(&k, "accurate", r.accurate);
	kv_put_num(&k, "setup_failed", r.setup_failed);
	kv_put(&k, "end", "1");
	write_all(STATUS_FD, k.b, k.len);
	close(STATUS_FD);
	/* The result is in: now the run's cgroups and directory go. */
	r.error[0] = 0;
	int setup_failed = r.setup_failed;
	r.setup_failed = 0;
	engine_teardown(&r, 0);
	if (r.error[0] && !setup_failed) {
		char line[4400];
		int k = snprintf(line, sizeof line, "%s\n", r.error);
		write_all(2, line, (size_t)k);
		_exit(1);
	}
	_exit(0);
}

__attribute__((constructor)) static void smtarena_sandbox_run(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], RUN_ARG))
		runner();
}
