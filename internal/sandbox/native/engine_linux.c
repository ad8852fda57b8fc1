// The engine: one program run under limits, isolated, measured, in C.
//
// Every run goes through here: `smtarena exec` (execcmd_linux.c) and the
// Go API (runner_linux.c, for internal/sandbox.Run). It makes the run's
// working directory and user, creates its cgroups (backend_linux.c),
// clones its first process (firstproc_linux.c) into new namespaces, passes
// the output on (or leaves it to the Go side), watches the limits, ends the
// run by its termination protocol, measures it, and removes it. It is C so
// that it runs before the Go runtime starts: a Go program takes 10 ms or
// more just to start on a paravirtualised machine, twice the budget of a
// run.

#include "backend_linux.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/close_range.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MS 1000000LL
#define SEC 1000000000LL

/* How often the limits are looked at: the fallback samples /proc every
 * SAMPLE_EVERY; with cgroups the kernel enforces memory and processes, and
 * the events that say so are read every EVENTS_EVERY, while the CPU time is
 * read when the limit could first have been reached (the time left over
 * the CPUs the run may use), at most every MIN_CPU_POLL as it comes near.
 * A long run so costs few wake-ups, which on a busy machine are taken from
 * the solvers of the other slots. */
#define SAMPLE_EVERY (10 * MS)
#define EVENTS_EVERY (50 * MS)
#define MIN_CPU_POLL (1 * MS)
#define TAIL_DRAIN (2 * SEC)   /* output still coming after the report */

/* Buffers are kept small, and nothing large is zeroed: on a
 * paravirtualised machine every page a run touches for the first time
 * costs a fault of tens of microseconds, which is most of a run's
 * overhead. */
#define LINE_MAX (1 << 16) /* a longer line is stamped at its start */

/* say writes one status message, key=value and a NUL, on the status
 * descriptor of the Go side (see runner_linux.c). */
static void say(const struct engine_spec *s, const char *key, const char *value)
{
	char b[4600];
	struct kv k = {b, sizeof b, 0};
	kv_put(&k, key, value);
	if (s->status_fd >= 0)
		write_all(s->status_fd, k.b, k.len);
}

static void say_num(const struct engine_spec *s, const char *key, long long v)
{
	char b[64];
	struct kv k = {b, sizeof b, 0};
	kv_put_num(&k, key, v);
	if (s->status_fd >= 0)
		write_all(s->status_fd, k.b, k.len);
}

/* ---- the working directory ---- */

/* check_cores refuses CPUs this process may not run on (the kernel's
 * answer, ERANGE from cpuset.cpus, would not say which). */
static int check_cores(const struct engine_spec *s, struct engine_result *r)
{
	cpu_set_t set;
	if (s->ncores == 0 || sched_getaffinity(0, sizeof set, &set))
		return 0;
	for (int i = 0; i < s->ncores; i++) {
		if (s->cores[i] < 0 || s->cores[i] >= CPU_SETSIZE || !CPU_ISSET(s->cores[i], &set)) {
			int n = snprintf(r->error, sizeof r->error, "sandbox: cores: CPU %d is not one this process may use (", s->cores[i]);
			for (int c = 0, first = 1; c < CPU_SETSIZE && n < (int)sizeof r->error - 16; c++)
				if (CPU_ISSET(c, &set))
					n += snprintf(r->error + n, sizeof r->error - (size_t)n, "%s%d", first ? "" : ",", c), first = 0;
			snprintf(r->error + n, sizeof r->error - (size_t)n, ")");
			return -1;
		}
	}
	return 0;
}

/* dir_empty says whether a directory holds nothing. */
static int dir_empty(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *e;
	int empty = 1;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

static int make_workdir(const struct engine_spec *s, int root, const char *id, long uid, struct engine_result *r)
{
	int e;
	if (s->workdir) {
		snprintf(r->workdir, sizeof r->workdir, "%s", s->workdir);
		struct stat st;
		if (!stat(r->workdir, &st)) {
			/* As root the run's own user gets the directory (owner,
			 * mode 0700): never one that holds anything, nor a file. */
			const char *bad = !S_ISDIR(st.st_mode) ? "not a directory"
					  : uid >= 0 && !dir_empty(r->workdir)
					      ? "not empty (the run's own user gets the directory: name a new or empty one)"
					      : NULL;
			if (bad) {
				snprintf(r->error, sizeof r->error, "sandbox: work dir %s: %s", r->workdir, bad);
				r->workdir[0] = 0;
				return -1;
			}
		}
		if ((e = mkdir_all(r->workdir, 0755))) {
			snprintf(r->error, sizeof r->error, "sandbox: work dir: mkdir %s: %s", r->workdir, strerror(e));
			return -1;
		}
	} else {
		/* A fresh directory, made 0700: its name has our pid (for
		 * sweep_stale) and a suffix of the clock, since a dead process
		 * with our pid may have left one behind. One to keep is named
		 * kept-..., which the sweep of dead runs' run-... leaves alone. */
		char base[4096];
		base_dir(root, base, sizeof base);
		for (int try = 0;; try++) {
			snprintf(r->workdir, sizeof r->workdir, "%s/%s%s-%llx", base, s->keep_workdir ? "kept-" : "",
				 id + (s->keep_workdir ? 4 : 0), (unsigned long long)now_ns(CLOCK_MONOTONIC) & 0xffffffffULL);
			if (!mkdir(r->workdir, 0700))
				break;
			e = errno;
			if (e == ENOENT && try == 0 && !(e = mkdir_all(base, 0711)))
				continue;
			if (e == EEXIST && try < 100)
				continue;
			snprintf(r->error, sizeof r->error, "sandbox: work dir: mkdir %s: %s", r->workdir, strerror(e));
			r->workdir[0] = 0;
			return -1;
		}
	}
	if (uid >= 0 && (chown(r->workdir, (uid_t)uid, (gid_t)uid) || (s->workdir && chmod(r->workdir, 0700)))) {
		snprintf(r->error, sizeof r->error, "sandbox: work dir: %s: %s", r->workdir, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- the first process's configuration ---- */

/* str_cat returns a new string a+b; str_num one a+v. */
static char *str_cat(const char *a, const char *b)
{
	char *p = malloc(strlen(a) + strlen(b) + 1);
	if (!p)
		_exit(111);
	strcpy(p, a);
	strcat(p, b);
	return p;
}

static char *str_num(const char *a, long long v)
{
	char b[32];
	snprintf(b, sizeof b, "%lld", v);
	return str_cat(a, b);
}

/* hidden reports whether path lies under a directory the run gets
 * privately. */
static int hidden(const char *path)
{
	static const char *const dirs[] = {"/tmp", "/var/tmp", "/dev/shm", "/run", "/var/run"};
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		size_t n = strlen(dirs[i]);
		if (!strncmp(path, dirs[i], n) && (path[n] == 0 || path[n] == '/'))
			return 1;
	}
	return 0;
}

static void make_config(const struct engine_spec *s, const struct engine_result *r, const struct backend *be, int root,
			long uid, struct config *c)
{
	memset(c, 0, sizeof *c);
	for (char **a = s->args; *a; a++)
		list_add(&c->args, *a);
	const char *path = getenv("PATH");
	list_add(&c->env, str_cat("PATH=", path && *path ? path : "/usr/local/bin:/usr/bin:/bin"));
	list_add(&c->env, str_cat("HOME=", r->workdir));
	list_add(&c->env, "TMPDIR=/tmp");
	list_add(&c->env, "LANG=C.UTF-8");
	if (s->wall_ns > 0)
		list_add(&c->env, str_num("STAREXEC_WALLCLOCK_LIMIT=", s->wall_ns / SEC));
	if (s->cpu_ns > 0)
		list_add(&c->env, str_num("STAREXEC_CPU_LIMIT=", s->cpu_ns / SEC));
	if (s->mem_bytes > 0)
		list_add(&c->env, str_num("STAREXEC_MAX_MEM=", s->mem_bytes >> 20));
	for (char **e = s->env; e && *e; e++)
		list_add(&c->env, *e);
	c->dir = r->workdir;
	c->uid = c->gid = uid;
	c->mounts = c->newpid = root;
	c->cores = s->cores;
	c->ncores = s->ncores;
	if (uid >= 0 && s->pids > 0)
		c->nproc = s->pids;
	if (be->kind == FALLBACK)
		c->aslimit = s->mem_bytes;
	/* Paths under the private directories that the run needs (its
	 * working directory, file arguments) are bound back in. */
	if (hidden(r->workdir))
		list_add(&c->binds, (char *)r->workdir);
	for (char **a = s->args; *a; a++)
		if ((*a)[0] == '/' && hidden(*a) && exists(*a))
			list_add(&c->binds, *a);
	for (char **k = s->keep; k && *k; k++)
		if ((*k)[0] == '/' && hidden(*k) && exists(*k))
			list_add(&c->binds, *k);
	backend_joins(be, &c->joins);
}

/* ---- the run ---- */

/* td is what is left to remove of the run when engine_run returns. */
static struct {
	struct backend be;
	int have_backend;
	pid_t first; /* 0 or below: reaped */
	int pidfd;
	int root;
	char workdir[4096]; /* "": keep */
} td;

struct run {
	const struct engine_spec *s;
	struct engine_result *r;
	struct backend be;
	pid_t first;
	long long start; /* CLOCK_MONOTONIC */
	const char *reason;
	long long term_at, hard_at; /* SIGKILL of the namespace, then of everything; 0: none */
	long long last_cpu;
	/* output */
	long long total;
	int cut;
	char *line; /* LINE_MAX bytes, with timestamps */
	int said_started;
	size_t line_len;
	int line_long; /* the current line outgrew the buffer: passed on as it comes */
	/* the descriptors watch reads */
	int sfd, rep_fd, out_fd, out_open;
	size_t report_len; /* of report */
};

/* report is the first process's report, as read. */
static char report[16384];

static void kill_now(struct run *x, long long now)
{
	kill(x->first, SIGUSR1); /* the first process kills the namespace */
	x->term_at = 0;
	x->hard_at = now + SEC;
}

/* terminate ends the run for a reason (the first one wins): by the
 * protocol for the time limits, at once for the others. */
static void terminate(struct run *x, const char *reason, long long now)
{
	if (x->reason)
		return;
	x->reason = reason;
	if (strcmp(reason, "cputime") && strcmp(reason, "walltime")) {
		kill_now(x, now);
		return;
	}
	/* The 2005 page: past the CPU limit, or the wall limit (CPU limit
	 * plus 30 s), SIGXCPU, and SIGKILL 3 s later. */
	int sig = x->s->protocol2005 ? SIGXCPU : SIGTERM;
	kill(x->first, sig);
	x->term_at = now + x->s->grace_ns;
}

static long long cpu_now(struct run *x)
{
	if (x->be.kind == FALLBACK)
		return x->last_cpu;
	long long v;
	return backend_cpu(&x->be, &v) ? x->last_cpu : v;
}

static void out_write(struct run *x, const char *b, size_t n)
{
	if (x->s->out_fd < 0 || x->r->out_errno || n == 0)
		return;
	x->r->out_errno = write_all(x->s->out_fd, b, n);
}

static void out_line(struct run *x, const char *b, size_t n, int newline)
{
	char pre[64];
	long long wall = now_ns(CLOCK_MONOTONIC) - x->start, cpu = cpu_now(x);
	/* as Go's Duration.Seconds and %.6f */
	int k = snprintf(pre, sizeof pre, "%.6f/%.6f\t", (double)(wall / SEC) + (double)(wall % SEC) / 1e9,
			 (double)(cpu / SEC) + (double)(cpu % SEC) / 1e9);
	out_write(x, pre, (size_t)k);
	out_write(x, b, n);
	if (newline)
		out_write(x, "\n", 1);
}

/* out_timestamped passes output on a line at a time, each prefixed with
 * the wall and CPU seconds since the start. */
static void out_timestamped(struct run *x, const char *b, size_t n)
{
	while (n > 0) {
		const char *nl = memchr(b, '\n', n);
		size_t k = nl ? (size_t)(nl - b) : n;
		if (x->line_long) {
			out_write(x, b, k);
			if (nl)
				out_write(x, "\n", 1), x->line_long = 0;
		} else if (x->line_len + k <= LINE_MAX) {
			memcpy(x->line + x->line_len, b, k);
			x->line_len += k;
			if (nl)
				out_line(x, x->line, x->line_len, 1), x->line_len = 0;
		} else {
			/* a line longer than the buffer: its stamp is its start's */
			out_line(x, x->line, x->line_len, 0);
			out_write(x, b, k);
			x->line_len = 0;
			x->line_long = !nl;
			if (nl)
				out_write(x, "\n", 1);
		}
		if (!nl)
			return;
		b = nl + 1, n -= k + 1;
	}
}

/* out_data takes a chunk of the run's output: passed on up to the limit,
 * counted beyond it. */
static void out_data(struct run *x, const char *b, size_t n, long long now)
{
	long long before = x->total;
	x->total += (long long)n;
	long long lim = x->s->output_bytes;
	if (lim > 0 && x->total > lim) {
		if (x->cut)
			return;
		n = (size_t)(lim - before);
		x->cut = 1;
		terminate(x, "output", now);
	}
	if (x->s->timestamps)
		out_timestamped(x, b, n);
	else
		out_write(x, b, n);
}

static int read_output(struct run *x, int fd, long long now)
{
	static char buf[1 << 16];
	ssize_t n = read(fd, buf, sizeof buf);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (n <= 0)
		return 0;
	out_data(x, buf, (size_t)n, now);
	return 1;
}

static void decode_report(const char *b, size_t n, struct engine_result *r, int *ok, int *started, long long *user,
			  long long *sys, long long *maxrss_kb)
{
	*ok = *started = 0;
	for (const char *p = b; p < b + n; p += strlen(p) + 1) {
		const char *v = strchr(p, '=');
		if (!v)
			continue;
		*ok = 1;
		size_t k = (size_t)(v - p);
		v++;
		long long num = strtoll(v, NULL, 10);
		if (k == 7 && !strncmp(p, "started", k))
			*started = num == 1;
		else if (k == 5 && !strncmp(p, "error", k))
			snprintf(r->error, sizeof r->error, "%s", v);
		else if (k == 4 && !strncmp(p, "exit", k))
			r->exit_code = (int)num;
		else if (k == 6 && !strncmp(p, "signal", k))
			snprintf(r->signal, sizeof r->signal, "%s", v);
		else if (k == 7 && !strncmp(p, "user_ns", k))
			*user = num;
		else if (k == 6 && !strncmp(p, "sys_ns", k))
			*sys = num;
		else if (k == 9 && !strncmp(p, "maxrss_kb", k))
			*maxrss_kb = num;
	}
}

struct first_args {
	struct config *c;
	int in_fd, out_w, rep_w;
};

/* first_entry is the first process, started by clone in the run's
 * namespaces. It shares our memory (CLONE_VM): a fork would copy our page
 * tables and then take a fault for every page either process writes or
 * runs, a millisecond here. So it allocates nothing, writes only its own
 * stack and the first process's statics, and we do nothing but wait while
 * it sets up (until it says started=1; see engine_run). */
static int first_entry(void *arg)
{
	struct first_args *a = arg;
	sigset_t none;
	sigemptyset(&none);
	static const int reset[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	for (size_t i = 0; i < sizeof reset / sizeof *reset; i++)
		signal(reset[i], SIG_DFL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setpgid(0, 0);
	if (dup2(a->in_fd, 0) < 0 || dup2(a->out_w, 1) < 0 || dup2(a->out_w, 2) < 0 || dup2(a->rep_w, REPORT_FD) < 0)
		_exit(126);
	/* Nothing else of ours stays open: the solver's output reaches EOF
	 * when the run's processes are gone. */
	close_range(3, REPORT_FD - 1, 0);
	close_range(REPORT_FD + 1, ~0U, 0);
	first_run(a->c);
}

/* start_first starts the run's first process: as root, PID 1 of new PID,
 * mount, network (unless share_net) and IPC namespaces. It joins the cgroups itself, then sets
 * up the rest (first_run). */
static pid_t start_first(struct config *c, int root, int share_net, int in_fd, int out_w, int rep_w, int *pidfd, char *err,
			 size_t errn)
{
	static struct first_args a;
	a = (struct first_args){c, in_fd, out_w, rep_w};
	int flags = CLONE_VM | CLONE_PIDFD | SIGCHLD;
	if (root)
		flags |= CLONE_NEWPID | CLONE_NEWNS | (share_net ? 0 : CLONE_NEWNET) | CLONE_NEWIPC;
	pid_t pid = spawn(first_entry, &a, 256 << 10, flags, pidfd);
	if (pid < 0)
		snprintf(err, errn, "start: clone: %s", strerror(errno));
	return pid;
}

/* started_said reports whether the first process has said started=1 (or
 * anything else: then it failed, and reports no more). */
static int started_said(const char *report, size_t n)
{
	return n > 0 && memchr(report, 0, n) != NULL;
}

/* watch watches the run's limits, passes its output on and reads the first
 * process's report, until the report ends. Until the first process has said
 * that the solver started, only the clock and the signals are watched: it
 * shares our memory, and the C library's errno with it. */
static void watch(struct run *x)
{
	int ncpu = x->s->ncores;
	if (ncpu == 0) {
		cpu_set_t set;
		ncpu = sched_getaffinity(0, sizeof set, &set) ? 1 : CPU_COUNT(&set);
	}
	int rep_open = 1;
	long long tick = x->start + MIN_CPU_POLL, events_read = 0;
	long long wall_at = x->s->wall_ns > 0 ? x->start + x->s->wall_ns : 0;
	while (rep_open) {
		long long now = now_ns(CLOCK_MONOTONIC);
		if (wall_at && now >= wall_at)
			terminate(x, "walltime", now), wall_at = 0;
		if (x->term_at && now >= x->term_at)
			kill_now(x, now);
		if (x->hard_at && now >= x->hard_at) {
			kill(x->first, SIGKILL);
			backend_kill(&x->be);
			x->hard_at = 0;
		}
		int watching = started_said(report, x->report_len);
		if (watching && !x->said_started) {
			x->said_started = 1;
			say(x->s, "started", "1");
		}
		if (watching && now >= tick) {
			long long next = x->be.kind == FALLBACK ? SAMPLE_EVERY : EVENTS_EVERY, used;
			if ((x->s->cpu_ns > 0 || x->be.kind == FALLBACK) && !backend_cpu(&x->be, &used)) {
				x->last_cpu = used;
				if (x->s->cpu_updates && x->be.kind == FALLBACK)
					say_num(x->s, "cpu", used);
				if (x->s->cpu_ns > 0 && used >= x->s->cpu_ns) {
					terminate(x, "cputime", now);
				} else if (x->be.kind != FALLBACK && x->s->cpu_ns > 0) {
					next = (x->s->cpu_ns - used) / ncpu;
					next = next < MIN_CPU_POLL ? MIN_CPU_POLL : next > EVENTS_EVERY ? EVENTS_EVERY : next;
				}
			}
			if (x->be.kind == FALLBACK || now - events_read >= EVENTS_EVERY - MIN_CPU_POLL) {
				events_read = now;
				const char *h = backend_hit(&x->be);
				if (h)
					terminate(x, h, now);
			}
			tick = now + next;
		}
		long long wake = watching ? tick : now + EVENTS_EVERY;
		if (wall_at && wall_at < wake)
			wake = wall_at;
		if (x->term_at && x->term_at < wake)
			wake = x->term_at;
		if (x->hard_at && x->hard_at < wake)
			wake = x->hard_at;
		long long d = wake - now_ns(CLOCK_MONOTONIC);
		struct timespec ts = {d > 0 ? d / SEC : 0, d > 0 ? d % SEC : 0};
		struct pollfd fds[3] = {{x->rep_fd, POLLIN, 0}, {x->out_open && watching ? x->out_fd : -1, POLLIN, 0}, {x->sfd, POLLIN, 0}};
		int n = ppoll(fds, 3, &ts, NULL);
		if (n <= 0)
			continue;
		now = now_ns(CLOCK_MONOTONIC);
		if (fds[1].revents)
			x->out_open = read_output(x, x->out_fd, now);
		if (fds[2].revents) {
			struct signalfd_siginfo si;
			while (read(x->sfd, &si, sizeof si) == sizeof si)
				terminate(x, si.ssi_signo == SIGUSR2 ? "output" : "killed", now);
		}
		if (fds[0].revents) {
			ssize_t k = read(x->rep_fd, report + x->report_len, sizeof report - x->report_len - 1);
			if (k > 0)
				x->report_len += (size_t)k;
			else if (k == 0 || errno != EINTR)
				rep_open = 0;
		}
	}
}

/* measure fills the result in from the first process's report and the
 * backend, once the run is over. */
static void measure(struct run *x, int root)
{
	struct engine_result *r = x->r;
	clock_gettime(CLOCK_REALTIME, &r->end);
	r->wall_ns = now_ns(CLOCK_MONOTONIC) - x->start;

	int ok, started;
	long long rep_user = 0, rep_sys = 0, maxrss_kb = 0;
	report[x->report_len] = 0;
	decode_report(report, x->report_len, r, &ok, &started, &rep_user, &rep_sys, &maxrss_kb);
	int st = 0;
	pid_t w;
	if (!ok) {
		/* Killed before it could report (SIGKILL after the grace): the
		 * solver died with it. */
		do
			w = waitpid(x->first, &st, 0);
		while (w < 0 && errno == EINTR);
		started = 1;
		r->exit_code = -1;
		snprintf(r->signal, sizeof r->signal, "%s", w == x->first && WIFSIGNALED(st) ? "SIGKILL" : "");
		x->first = -x->first; /* reaped */
	}
	/* Every process of the run is gone (or goes now): the output reaches
	 * EOF. In a PID namespace of its own the first process has reaped
	 * them all before it reported (unless it was killed: then the
	 * kernel kills them with it). */
	if (!root || !ok)
		backend_kill(&x->be);
	for (long long until = now_ns(CLOCK_MONOTONIC) + TAIL_DRAIN; x->out_open;) {
		long long d = until - now_ns(CLOCK_MONOTONIC);
		if (d <= 0)
			break;
		struct pollfd pfd = {x->out_fd, POLLIN, 0};
		if (poll(&pfd, 1, (int)(d / MS) + 1) > 0)
			x->out_open = read_output(x, x->out_fd, now_ns(CLOCK_MONOTONIC));
	}
	if (x->s->timestamps && x->line_len > 0)
		out_line(x, x->line, x->line_len, 1);

	long long user = 0, sys = 0;
	int uerr = backend_usage(&x->be, &user, &sys);
	if (uerr || x->be.kind == FALLBACK) {
		/* The fallback's final word is the kernel's rusage of everything
		 * the first process reaped. */
		if (rep_user > user)
			user = rep_user;
		if (rep_sys > sys)
			sys = rep_sys;
	}
	r->user_ns = user, r->sys_ns = sys;
	r->peak_bytes = backend_peak(&x->be);
	if ((x->be.kind == FALLBACK || x->be.peak_sampled) && maxrss_kb * 1024 > r->peak_bytes)
		r->peak_bytes = maxrss_kb * 1024;
	r->accurate = x->be.kind != FALLBACK && !x->be.peak_sampled;
	r->output_bytes = x->total;
	r->reason = x->reason;
	if (!r->reason) {
		/* A solver killed by a signal we did not send: the kernel's, at
		 * a limit? */
		const char *h = r->signal[0] ? backend_hit(&x->be) : NULL;
		r->reason = h ? h : "completed";
	}
	if (!started)
		r->reason = "failed";
}

void engine_run(const struct engine_spec *spec, struct engine_result *r)
{
	struct engine_spec s = *spec;
	struct run x = {0};
	x.s = &s;
	x.r = r;
	if (s.timestamps && !(x.line = malloc(LINE_MAX)))
		s.timestamps = 0;
	r->error[0] = r->signal[0] = r->workdir[0] = 0;
	r->wall_ns = r->user_ns = r->sys_ns = r->peak_bytes = r->output_bytes = 0;
	r->backend = NULL;
	r->accurate = r->setup_failed = r->out_errno = 0;
	r->start = r->end = (struct timespec){0, 0};
	r->exit_code = -1;
	r->reason = "failed";
	int root = geteuid() == 0;
	if (s.grace_ns == 0)
		s.grace_ns = SEC;
	if (s.protocol2005) {
		s.grace_ns = 3 * SEC;
		if (s.wall_ns == 0 && s.cpu_ns > 0)
			s.wall_ns = s.cpu_ns + 30 * SEC;
	}
	char id[64];
	snprintf(id, sizeof id, "run-%d-1", getpid());
	long uid = root && !s.keep_user ? 1000000000L + (getpid() % 100000) * 1000L + 1 : -1;

	/* SIGINT, SIGTERM and SIGHUP end the run as killed (also when they
	 * come while it is set up); a closed output must not kill us before
	 * the result is out. */
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	if (s.direct_output)
		sigaddset(&sigs, SIGUSR2); /* the output limit, reached */
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	int sfd = signalfd(-1, &sigs, SFD_CLOEXEC | SFD_NONBLOCK);

	const char *name = s.backend ? s.backend : pick_backend(root, &s);
	char err[1024] = "";
	int in_fd = -1, pipes[4] = {-1, -1, -1, -1}, pidfd = -1;
	struct config cfg;
	if (check_cores(&s, r) || make_workdir(&s, root, id, uid, r)) {
		r->setup_failed = 1;
		goto teardown;
	}
	if (backend_create(&x.be, name, id, &s, root, err, sizeof err)) {
		snprintf(r->error, sizeof r->error, "%s", err);
		r->setup_failed = 1;
		goto teardown;
	}
	r->backend = backend_name(&x.be);
	r->accurate = x.be.kind != FALLBACK;
	make_config(&s, r, &x.be, root, uid, &cfg);
	say(&s, "backend", r->backend);
	say(&s, "workdir", r->workdir);
	if (x.be.kind != FALLBACK) {
		/* The Go side reads the run's CPU time there for its line
		 * stamps (one pread, as we do). */
		char f[PATHN];
		path_join(f, sizeof f, x.be.dirs[0], x.be.kind == CGROUP1 ? "cpuacct.usage" : "cpu.stat");
		say(&s, "cpu_file", f);
		say(&s, "cpu_key", x.be.kind == CGROUP1 ? "" : "usage_usec");
		say_num(&s, "cpu_unit_ns", x.be.kind == CGROUP1 ? 1 : 1000);
	}

	in_fd = s.stdin_fd >= 0 ? s.stdin_fd : open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (in_fd < 0 || (!s.direct_output && pipe2(pipes, O_CLOEXEC)) || pipe2(pipes + 2, O_CLOEXEC)) {
		snprintf(r->error, sizeof r->error, "sandbox: pipes: %s", strerror(errno));
		r->setup_failed = 1;
		goto teardown;
	}

	clock_gettime(CLOCK_REALTIME, &r->start);
	x.start = now_ns(CLOCK_MONOTONIC);
	x.first = start_first(&cfg, root, s.share_net, in_fd, s.direct_output ? s.out_fd : pipes[1], pipes[3], &pidfd, err, sizeof err);
	/* Only the run may hold its output open (its reader sees EOF when the
	 * run's processes are gone), and its input (a writer feeding it sees
	 * it gone with the run). */
	if (s.direct_output)
		to_null(s.out_fd);
	if (in_fd >= 0 && in_fd <= 2) {
		to_null(in_fd);
		in_fd = -1;
	}
	close(pipes[1]), close(pipes[3]);
	pipes[1] = pipes[3] = -1;
	if (x.first < 0) {
		snprintf(r->error, sizeof r->error, "%s", err);
		clock_gettime(CLOCK_REALTIME, &r->end);
		goto teardown;
	}
	backend_added(&x.be, x.first);

	x.sfd = sfd;
	x.rep_fd = pipes[2];
	x.out_fd = pipes[0];
	x.out_open = !s.direct_output;
	watch(&x);
	measure(&x, root);

teardown:
	for (int i = 0; i < 4; i++)
		if (pipes[i] >= 0)
			close(pipes[i]);
	if (in_fd >= 0 && in_fd != s.stdin_fd)
		close(in_fd);
	if (sfd >= 0)
		close(sfd);
	free(x.line);
	/* What engine_teardown removes. */
	td.be = x.be;
	td.have_backend = r->backend != NULL;
	td.first = x.first;
	td.pidfd = pidfd;
	td.root = root;
	snprintf(td.workdir, sizeof td.workdir, "%s", r->workdir[0] && !s.workdir && !s.keep_workdir ? r->workdir : "");
}

/* remove_run waits for the first process to be gone (as its parent, or
 * through its pidfd), removes the run's cgroups and working directory, and
 * what dead processes left behind. */
static void remove_run(int parent, char *err, size_t errn)
{
	if (td.first > 0 && parent) {
		pid_t w;
		do
			w = waitpid(td.first, NULL, 0);
		while (w < 0 && errno == EINTR);
	} else if (td.first > 0 && td.pidfd >= 0) {
		struct pollfd p = {td.pidfd, POLLIN, 0};
		poll(&p, 1, 2000);
	}
	if (td.pidfd >= 0)
		close(td.pidfd);
	if (td.have_backend)
		backend_destroy(&td.be, err, errn);
	if (td.workdir[0])
		remove_all(td.workdir);
	sweep_stale(td.root);
}

static int cleaner(void *arg)
{
	(void)arg;
	char err[1024];
	/* Our caller waits for its end of our standard streams to close. */
	to_null(0), to_null(1), to_null(2);
	remove_run(0, err, sizeof err);
	_exit(0);
}

void engine_teardown(struct engine_result *r, int detach)
{
	char err[1024] = "";
	if (detach && td.have_backend && spawn(cleaner, NULL, 128 << 10, CLONE_VM | SIGCHLD, NULL) > 0)
		return;
	remove_run(1, err, sizeof err);
	if (err[0] && !r->error[0]) {
		snprintf(r->error, sizeof r->error, "%s", err);
		r->setup_failed = 1;
	}
}
