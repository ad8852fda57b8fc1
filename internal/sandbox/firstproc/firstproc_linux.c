// The first process of a sandboxed run, in C.
//
// internal/sandbox starts its own executable with the argument
// "__smtarena-sandbox-init" in new PID, mount, network and IPC namespaces.
// This constructor runs before the Go runtime starts, sees that argument,
// does the run's work and exits, so a run pays for neither the Go runtime's
// start nor the package initialisers of a large binary (about 20 ms of CPU
// on a loaded machine here, against well under one for this).
//
// Protocol (see internal/sandbox/firstproc.go on the Go side):
//   fd 3: the configuration, "key=value" strings each ended by a NUL, until
//         EOF: arg (repeated, in order), env (repeated), dir, uid, gid,
//         mounts, newpid, bind (repeated), core (repeated), aslimit, nproc.
//   fd 4: the report, in the same form, written when the solver and every
//         other process of the run are gone: started, exit, signal,
//         user_ns, sys_ns, maxrss_kb, error. fd 4 is closed after it.
//   fds 0, 1, 2: the solver's standard input, output and error.
//
// As PID 1 of the run's PID namespace it mounts the run's own /proc and
// private tmpfs on /tmp, /var/tmp and /dev/shm (binding back the paths under
// them that the run needs), starts the solver in a session of its own as
// the run's unprivileged user, forwards SIGTERM, SIGXCPU and SIGINT to every
// process of the namespace (SIGUSR1 means SIGKILL them all), reaps orphans,
// and when the solver exits kills and reaps everything else.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define INIT_ARG "__smtarena-sandbox-init"
#define CONFIG_FD 3
#define REPORT_FD 4

struct list {
	char **items;
	int n, cap;
};

struct config {
	struct list args, env, binds, cores;
	const char *dir;
	long uid, gid; /* -1: keep */
	int mounts, newpid;
	long long aslimit;
	long nproc;
};

static void add(struct list *l, char *s)
{
	if (l->n + 1 >= l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->items = realloc(l->items, l->cap * sizeof *l->items);
		if (!l->items)
			_exit(111);
	}
	l->items[l->n++] = s;
	l->items[l->n] = NULL;
}

/* The report, built in a fixed buffer (an error message is cut to fit). */
static char report[8192];
static size_t report_len;

static void put(const char *key, const char *value)
{
	int n = snprintf(report + report_len, sizeof report - report_len, "%s=%s", key, value);
	if (n < 0 || (size_t)n >= sizeof report - report_len)
		return;
	report_len += (size_t)n + 1; /* keep the NUL */
}

static void put_num(const char *key, long long v)
{
	char b[32];
	snprintf(b, sizeof b, "%lld", v);
	put(key, b);
}

static __attribute__((noreturn)) void finish(void)
{
	size_t off = 0;
	while (off < report_len) {
		ssize_t w = write(REPORT_FD, report + off, report_len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(REPORT_FD);
	_exit(0);
}

static __attribute__((noreturn)) void fail(const char *what, int err)
{
	char b[1024];
	if (err)
		snprintf(b, sizeof b, "%s: %s", what, strerror(err));
	else
		snprintf(b, sizeof b, "%s", what);
	put("error", b);
	finish();
}

static char *read_all(int fd, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				return NULL;
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

static void read_config(struct config *c)
{
	size_t len;
	char *buf = read_all(CONFIG_FD, &len);
	if (!buf)
		fail("read config", errno);
	close(CONFIG_FD);
	c->uid = c->gid = -1;
	for (char *p = buf, *next; p < buf + len; p = next) {
		next = p + strlen(p) + 1;
		char *v = strchr(p, '=');
		if (!v)
			fail("read config: no '=' in an entry", 0);
		*v++ = 0;
		if (!strcmp(p, "arg"))
			add(&c->args, v);
		else if (!strcmp(p, "env"))
			add(&c->env, v);
		else if (!strcmp(p, "bind"))
			add(&c->binds, v);
		else if (!strcmp(p, "core"))
			add(&c->cores, v);
		else if (!strcmp(p, "dir"))
			c->dir = v;
		else if (!strcmp(p, "uid"))
			c->uid = atol(v);
		else if (!strcmp(p, "gid"))
			c->gid = atol(v);
		else if (!strcmp(p, "mounts"))
			c->mounts = atoi(v);
		else if (!strcmp(p, "newpid"))
			c->newpid = atoi(v);
		else if (!strcmp(p, "aslimit"))
			c->aslimit = atoll(v);
		else if (!strcmp(p, "nproc"))
			c->nproc = atol(v);
	}
	if (c->args.n == 0)
		fail("read config: no command", 0);
	add(&c->args, NULL), c->args.n--;
	add(&c->env, NULL), c->env.n--;
}

/* mkdir_p creates path and its missing parents. */
static int mkdir_p(const char *path)
{
	char tmp[4096];
	if (strlen(path) >= sizeof tmp)
		return ENAMETOOLONG;
	strcpy(tmp, path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return errno;
	return 0;
}

/* setup_mounts gives the run a private /tmp, /var/tmp and /dev/shm and its
 * own /proc, keeping visible the paths (working directory, input files)
 * that lie under them. */
static void setup_mounts(const struct config *c)
{
	char what[4200];
	if (mount("", "/", NULL, MS_REC | MS_PRIVATE, NULL))
		fail("mount: make / private", errno);
	if (c->newpid && mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		fail("mount /proc", errno);
	int fds[c->binds.n + 1];
	int dirs[c->binds.n + 1];
	for (int i = 0; i < c->binds.n; i++) {
		struct stat st;
		fds[i] = -1;
		if (stat(c->binds.items[i], &st))
			continue;
		dirs[i] = S_ISDIR(st.st_mode);
		fds[i] = open(c->binds.items[i], O_PATH | O_CLOEXEC);
		if (fds[i] < 0) {
			snprintf(what, sizeof what, "keep %s", c->binds.items[i]);
			fail(what, errno);
		}
	}
	static const char *private[] = {"/tmp", "/var/tmp", "/dev/shm"};
	for (size_t i = 0; i < sizeof private / sizeof *private; i++) {
		struct stat st;
		if (stat(private[i], &st))
			continue;
		if (mount("tmpfs", private[i], "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")) {
			snprintf(what, sizeof what, "mount private %s", private[i]);
			fail(what, errno);
		}
	}
	for (int i = 0; i < c->binds.n; i++) {
		const char *p = c->binds.items[i];
		if (fds[i] < 0)
			continue;
		int err;
		if (dirs[i]) {
			err = mkdir_p(p);
		} else {
			char parent[4096];
			snprintf(parent, sizeof parent, "%s", p);
			char *slash = strrchr(parent, '/');
			if (slash && slash != parent)
				*slash = 0;
			err = mkdir_p(parent);
			int fd = err ? -1 : open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
			if (fd < 0 && !err)
				err = errno;
			if (fd >= 0)
				close(fd);
		}
		if (err) {
			snprintf(what, sizeof what, "bind %s", p);
			fail(what, err);
		}
		char src[64];
		snprintf(src, sizeof src, "/proc/self/fd/%d", fds[i]);
		if (mount(src, p, NULL, MS_BIND | MS_REC, NULL)) {
			snprintf(what, sizeof what, "bind %s", p);
			fail(what, errno);
		}
		close(fds[i]);
	}
}

static void set_cores(const struct config *c)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	for (int i = 0; i < c->cores.n; i++) {
		int cpu = atoi(c->cores.items[i]);
		if (cpu < 0 || cpu >= CPU_SETSIZE) {
			char b[64];
			snprintf(b, sizeof b, "cores: no CPU %d", cpu);
			fail(b, 0);
		}
		CPU_SET(cpu, &set);
	}
	if (sched_setaffinity(0, sizeof set, &set))
		fail("cores", errno);
}

/* look_path finds prog in the PATH of the run's environment; a path with a
 * slash is taken as it is, made absolute against our (the caller's)
 * directory, since the solver starts in its working directory. */
static char *look_path(const struct config *c)
{
	const char *prog = c->args.items[0];
	static char found[4096];
	if (strchr(prog, '/')) {
		if (prog[0] == '/' || strlen(prog) > 2048 || !getcwd(found, sizeof found - 2048 - 2))
			return (char *)prog;
		strcat(found, "/");
		strcat(found, prog);
		return found;
	}
	const char *path = NULL;
	for (int i = 0; i < c->env.n; i++)
		if (!strncmp(c->env.items[i], "PATH=", 5))
			path = c->env.items[i] + 5;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	size_t plen = strlen(prog);
	while (*path) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);
		struct stat st;
		if (n + plen + 3 < sizeof found) {
			size_t d = n; /* an empty entry is the current directory */
			if (n)
				memcpy(found, path, n);
			else
				found[d++] = '.';
			found[d] = '/';
			memcpy(found + d + 1, prog, plen + 1);
			if (!stat(found, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0111))
				return found;
		}
		path += n;
		if (*path == ':')
			path++;
	}
	char b[4200];
	snprintf(b, sizeof b, "exec: \"%s\": executable file not found in $PATH", prog);
	fail(b, 0);
}

static volatile pid_t solver;
static int whole_namespace;

/* forward passes a signal on to every process of the run (SIGUSR1 means
 * SIGKILL): as PID 1 of its namespace, kill(-1) reaches all of them but
 * us; without a namespace, the solver's session. */
static void forward(int sig)
{
	int saved = errno;
	if (sig == SIGUSR1)
		sig = SIGKILL;
	if (whole_namespace)
		kill(-1, sig);
	else if (solver > 0)
		kill(-solver, sig);
	errno = saved;
}

static const int forwarded[] = {SIGTERM, SIGXCPU, SIGINT, SIGUSR1};

static const char *signal_name(int sig, char *buf, size_t n)
{
	switch (sig) {
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	case SIGXCPU: return "SIGXCPU";
	case SIGSEGV: return "SIGSEGV";
	case SIGABRT: return "SIGABRT";
	case SIGINT: return "SIGINT";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGPIPE: return "SIGPIPE";
	case SIGHUP: return "SIGHUP";
	case SIGUSR1: return "SIGUSR1";
	case SIGUSR2: return "SIGUSR2";
	case SIGALRM: return "SIGALRM";
	case SIGQUIT: return "SIGQUIT";
	}
	snprintf(buf, n, "signal %d", sig);
	return buf;
}

/* The stages of starting the solver, for the error message. */
struct start_error {
	char stage;
	int err;
};

static __attribute__((noreturn)) void child(const struct config *c, const char *path, int errfd)
{
	struct start_error e = {0, 0};
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigset_t none;
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
		sigaction(forwarded[i], &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (setsid() < 0)
		e = (struct start_error){'s', errno};
	else if (c->uid >= 0 && setgroups(0, NULL))
		e = (struct start_error){'g', errno};
	else if (c->gid >= 0 && setgid((gid_t)c->gid))
		e = (struct start_error){'g', errno};
	else if (c->uid >= 0 && setuid((uid_t)c->uid))
		e = (struct start_error){'u', errno};
	else if (c->dir && chdir(c->dir))
		e = (struct start_error){'d', errno};
	if (!e.stage) {
		execve(path, c->args.items, c->env.items);
		e = (struct start_error){'e', errno};
	}
	ssize_t w = write(errfd, &e, sizeof e);
	(void)w;
	_exit(127);
}

static __attribute__((noreturn)) void run(void)
{
	struct config c = {0};
	fcntl(CONFIG_FD, F_SETFD, FD_CLOEXEC);
	fcntl(REPORT_FD, F_SETFD, FD_CLOEXEC);
	read_config(&c);
	if (c.mounts)
		setup_mounts(&c);
	if (c.cores.n > 0)
		set_cores(&c);
	whole_namespace = c.newpid;
	if (!c.newpid)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); /* orphans come back to be reaped and counted */
	setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
	if (c.nproc > 0)
		setrlimit(RLIMIT_NPROC, &(struct rlimit){c.nproc, c.nproc});
	const char *path = look_path(&c);

	sigset_t block, old;
	sigemptyset(&block);
	struct sigaction fw = {.sa_handler = forward, .sa_flags = SA_RESTART};
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++) {
		sigaddset(&block, forwarded[i]);
		sigaddset(&fw.sa_mask, forwarded[i]);
	}
	sigprocmask(SIG_BLOCK, &block, &old);
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
		sigaction(forwarded[i], &fw, NULL);

	int ep[2];
	if (pipe2(ep, O_CLOEXEC))
		fail("start: pipe", errno);
	/* vfork: the child shares our memory until its exec, so no page table
	 * is copied (dear on a paravirtualised machine); it makes system calls
	 * only, writes nothing of ours but its own frame, and never returns. */
	pid_t pid = vfork();
	if (pid < 0)
		fail("start: vfork", errno);
	if (pid == 0)
		child(&c, path, ep[1]);
	solver = pid;
	close(ep[1]);
	/* Only the solver keeps the run's input and output open, so that the
	 * parent sees EOF when the run's processes are gone. */
	close(0);
	close(1);
	close(2);
	sigprocmask(SIG_SETMASK, &old, NULL);

	struct start_error e = {0, 0};
	ssize_t n;
	do
		n = read(ep[0], &e, sizeof e);
	while (n < 0 && errno == EINTR);
	close(ep[0]);
	if (n == (ssize_t)sizeof e) {
		waitpid(pid, NULL, 0);
		const char *stage = e.stage == 'e' ? "exec" : e.stage == 'd' ? "chdir" : e.stage == 's' ? "setsid" : "set user";
		char b[4400];
		snprintf(b, sizeof b, "start %s: %s %s", c.args.items[0], stage, path);
		fail(b, e.err);
	}
	put("started", "1");
	/* The fallback's memory limit applies to the solver once it runs: set
	 * before the exec, it would also bound the reservations of a runtime
	 * such as Go's, which start programs with far more address space than
	 * memory. */
	if (c.aslimit > 0)
		prlimit(pid, RLIMIT_AS, &(struct rlimit){c.aslimit, c.aslimit}, NULL);

	char sigbuf[32];
	for (;;) {
		int st;
		pid_t p = wait4(-1, &st, 0, NULL);
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0) {
			char b[128];
			snprintf(b, sizeof b, "wait: %s", strerror(errno));
			put("error", b);
			break;
		}
		if (p != pid)
			continue; /* an orphan, reaped so that it counts in our rusage */
		if (WIFEXITED(st))
			put_num("exit", WEXITSTATUS(st));
		else if (WIFSIGNALED(st))
			put("signal", signal_name(WTERMSIG(st), sigbuf, sizeof sigbuf));
		break;
	}
	/* The run ends with the solver: kill what is left and reap it. */
	forward(SIGUSR1);
	for (;;) {
		pid_t p = wait4(-1, NULL, 0, NULL);
		if (p < 0 && errno != EINTR)
			break;
	}
	struct rusage ru;
	if (!getrusage(RUSAGE_CHILDREN, &ru)) {
		put_num("user_ns", (long long)ru.ru_utime.tv_sec * 1000000000LL + ru.ru_utime.tv_usec * 1000LL);
		put_num("sys_ns", (long long)ru.ru_stime.tv_sec * 1000000000LL + ru.ru_stime.tv_usec * 1000LL);
		put_num("maxrss_kb", ru.ru_maxrss);
	}
	finish();
}

/* glibc passes argc and argv to the constructors of an executable. */
__attribute__((constructor)) static void smtarena_sandbox_init(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], INIT_ARG))
		run();
}
