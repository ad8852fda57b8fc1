// The first process of a sandboxed run, in C.
//
// The engine (engine_linux.c) clones it into new PID, mount, network and
// IPC namespaces, with its configuration in memory (struct config); it
// joins the run's cgroups itself. As PID 1 of the run's PID namespace it
// mounts the run's own /proc and private tmpfs on /tmp, /var/tmp, /dev/shm
// and /run (binding back the paths under them that the run needs), starts
// the solver in a session of its own as the run's unprivileged user,
// forwards SIGTERM and SIGINT to every process of the namespace, SIGXCPU
// to the solver alone (SIGUSR1 means SIGKILL them all), reaps orphans, and when the solver
// exits kills and reaps everything else.
//
// It reports on REPORT_FD, "key=value" strings each ended by a NUL:
// started=1 as soon as the solver runs, then when the solver and every
// other process of the run are gone: exit, signal, user_ns, sys_ns,
// maxrss_kb, error. REPORT_FD is closed after it. fds 0, 1 and 2 are the
// solver's standard input, output and error.

#include "native_linux.h"

#include <dirent.h>
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
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The report, built in a fixed buffer (an error message is cut to fit). */
static char report_buf[8192];
static struct kv report = {report_buf, sizeof report_buf, 0};

static void put(const char *key, const char *value)
{
	kv_put(&report, key, value);
}

static void put_num(const char *key, long long v)
{
	kv_put_num(&report, key, v);
}

static __attribute__((noreturn)) void finish(void)
{
	write_all(REPORT_FD, report.b, report.len);
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

/* setup_mounts gives the run a private /tmp, /var/tmp, /dev/shm and /run
 * (where daemons keep their Unix sockets, PostgreSQL's among them: a
 * network namespace does not stop those) and its own /proc, keeping
 * visible the paths (working directory, input files) that lie under
 * them. */
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
	static const char *private[] = {"/tmp", "/var/tmp", "/dev/shm", "/run"};
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
			err = mkdir_all(p, 0755);
		} else {
			char parent[4096];
			snprintf(parent, sizeof parent, "%s", p);
			char *slash = strrchr(parent, '/');
			if (slash && slash != parent)
				*slash = 0;
			err = mkdir_all(parent, 0755);
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
	for (int i = 0; i < c->ncores; i++) {
		int cpu = c->cores[i];
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
static __attribute__((noinline)) char *look_path(const struct config *c)
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
 * us; without a namespace, the solver's session. SIGXCPU (the 2005
 * protocol) goes to the solver alone: "Solvers are allowed to spawn other
 * processes, but these will not be sent SIGXCPU." */
static void forward(int sig)
{
	int saved = errno;
	if (sig == SIGUSR1)
		sig = SIGKILL;
	if (sig == SIGXCPU) {
		if (solver > 0)
			kill(solver, sig);
	} else if (whole_namespace)
		kill(-1, sig);
	else if (solver > 0)
		kill(-solver, sig);
	errno = saved;
}

static const int forwarded[] = {SIGTERM, SIGXCPU, SIGINT, SIGUSR1};

/* kill_children sends SIGKILL to every child of ours, found in /proc (this
 * kernel may lack /proc/PID/task/TID/children). Read without the C
 * library's directory functions: in the engine this process shares its
 * parent's memory, and allocates nothing. */
static void kill_children(void)
{
	static char dents[32768], stat[512];
	pid_t self = getpid();
	int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return;
	for (;;) {
		long n = syscall(SYS_getdents64, dir, dents, sizeof dents);
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct dirent64 *e = (struct dirent64 *)(dents + off);
			off += e->d_reclen;
			if (e->d_name[0] < '0' || e->d_name[0] > '9')
				continue;
			char path[64];
			snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			ssize_t k = read(fd, stat, sizeof stat - 1);
			close(fd);
			if (k <= 0)
				continue;
			stat[k] = 0;
			/* pid (comm) state ppid ... */
			char *p = strrchr(stat, ')');
			if (p && p[1] == ' ' && p[2] && p[3] == ' ' && atol(p + 4) == self)
				kill(atoi(e->d_name), SIGKILL);
		}
	}
	close(dir);
}

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

/* join writes the process into the run's cgroups, before it does anything
 * that costs: "0" is the writer itself. */
static void join(const struct config *c)
{
	char what[4200];
	for (int i = 0; i < c->joins.n; i++) {
		/* O_CREAT changes nothing on a cgroup file system; the fake
		 * trees of tests need it. */
		int fd = open(c->joins.items[i], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, "0", 1) != 1) {
			snprintf(what, sizeof what, "cgroup: join %s", c->joins.items[i]);
			fail(what, errno);
		}
		close(fd);
	}
}

void first_run(struct config *cfg)
{
	/* The lists are NULL-terminated (list_add keeps them so), and nothing
	 * here allocates: in the engine this process shares its parent's
	 * memory. */
	struct config c = *cfg;
	static char *no_env[] = {NULL};
	fcntl(REPORT_FD, F_SETFD, FD_CLOEXEC);
	if (c.args.n == 0)
		fail("no command", 0);
	if (c.env.n == 0)
		c.env.items = no_env;
	join(&c);
	if (c.mounts)
		setup_mounts(&c);
	if (c.ncores > 0)
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
	/* Said at once: the engine waits for it before it watches the run
	 * (see engine_linux.c), and so does nothing while we set up. */
	if (write(REPORT_FD, "started=1", 10) != 10)
		_exit(0); /* nobody is listening */
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
	/* The run ends with the solver: kill what is left and reap it. In a
	 * PID namespace of its own that is everything else in it; without one,
	 * everything that is still our descendant (a subreaper adopts the
	 * orphans, daemons that left the solver's session among them): killed
	 * children's children come to us, and are killed in the next round. */
	forward(SIGUSR1);
	for (;;) {
		if (!whole_namespace)
			kill_children();
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
