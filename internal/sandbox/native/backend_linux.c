// Backends: what measures and bounds a run's process tree (cgroup v2, v1,
// or /proc polling), and the removal of what runs of dead processes left.

#include "backend_linux.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define MS 1000000LL
#define SEC 1000000000LL

static const char *cgroup_root(void)
{
	const char *r = getenv("SMTARENA_CGROUP_ROOT"); /* tests: a fake tree */
	return r && *r ? r : "/sys/fs/cgroup";
}

/* ---- small file helpers ---- */

static int write_file(const char *path, const char *value, char *err, size_t errn)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t n = strlen(value);
	if (fd < 0 || write(fd, value, n) != (ssize_t)n) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		snprintf(err, errn, "cgroup: write %s: %s", path, strerror(e));
		return -1;
	}
	close(fd);
	return 0;
}

static ssize_t read_file(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, n - 1);
	close(fd);
	if (r < 0)
		return -1;
	buf[r] = 0;
	return r;
}

static int read_ll(const char *path, long long *v)
{
	char b[64];
	if (read_file(path, b, sizeof b) < 0)
		return -1;
	char *end;
	errno = 0;
	*v = strtoll(b, &end, 10);
	return errno || end == b ? -1 : 0;
}

/* key_value finds "key value" in a buffer of such lines (cpu.stat,
 * memory.events, memory.oom_control). */
static int key_value(const char *buf, const char *key, long long *v)
{
	size_t k = strlen(key);
	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, k) && p[k] == ' ') {
			*v = strtoll(p + k + 1, NULL, 10);
			return 0;
		}
	}
	return -1;
}

static int file_key(const char *path, const char *key, long long *v)
{
	char b[1024];
	if (read_file(path, b, sizeof b) < 0)
		return -1;
	return key_value(b, key, v);
}

void path_join(char *out, size_t n, const char *a, const char *b)
{
	snprintf(out, n, "%s/%s", a, b);
}

int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* remove_cgroup removes an emptied cgroup, waiting for the kernel to let
 * go of exiting tasks: the waits start at 0.1 ms and double. */
static int remove_cgroup(const char *dir, char *err, size_t errn)
{
	long long wait = 100000, deadline = now_ns(CLOCK_MONOTONIC) + SEC;
	for (;;) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (now_ns(CLOCK_MONOTONIC) > deadline) {
			snprintf(err, errn, "cgroup: remove %s: %s", dir, strerror(errno));
			return -1;
		}
		struct timespec t = {0, wait};
		nanosleep(&t, NULL);
		wait = wait * 2 > 10 * MS ? 10 * MS : wait * 2;
	}
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

/* remove_all removes a directory and what it holds (an empty one, the
 * usual case, without walking it). */
void remove_all(const char *path)
{
	if (rmdir(path) && errno != ENOENT)
		nftw(path, rm_entry, 32, FTW_DEPTH | FTW_PHYS);
}

/* The v1 controllers, in the order of struct backend's dirs. */
static const char *const v1_controllers[NV1] = {"cpuacct", "memory", "pids", "freezer", "cpuset"};

const char *backend_name(const struct backend *b)
{
	return b->kind == CGROUP2 ? "cgroup2" : b->kind == CGROUP1 ? "cgroup1" : "fallback";
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

/* unified says whether the cgroup root is a cgroup v2 hierarchy. */
static int unified(void)
{
	char b[PATHN];
	path_join(b, sizeof b, cgroup_root(), "cgroup.controllers");
	return exists(b);
}

/* cgroup2_parent is the cgroup that runs' cgroups are made in: the
 * delegated one that SMTARENA_CGROUP2 names, or, as root on a machine whose
 * cgroups are v2, smtarena/ under the root. NULL if neither. */
static const char *cgroup2_parent(int root, char *buf, size_t n)
{
	const char *p = getenv("SMTARENA_CGROUP2");
	if (p && *p) {
		path_join(buf, n, cgroup_root(), p);
		return buf;
	}
	if (!root || !unified())
		return NULL;
	path_join(buf, n, cgroup_root(), "smtarena");
	return buf;
}

/* has_word says whether the space-separated list holds w. */
static int has_word(const char *list, const char *w)
{
	size_t k = strlen(w);
	for (const char *p = list; (p = strstr(p, w)); p += k)
		if ((p == list || isspace((unsigned char)p[-1])) && (!p[k] || isspace((unsigned char)p[k])))
			return 1;
	return 0;
}

/* cgroup2_wanted lists the controllers a run's cgroup needs: memory always
 * (its peak is part of every result), pids and cpuset for those limits.
 * The CPU time is in cpu.stat, which every v2 cgroup has. */
static int cgroup2_wanted(const struct engine_spec *s, const char *want[3])
{
	int n = 0;
	want[n++] = "memory";
	if (s->pids > 0)
		want[n++] = "pids";
	if (s->ncores > 0)
		want[n++] = "cpuset";
	return n;
}

/* cgroup2_enable makes sure dir passes the controllers on to its children
 * (cgroup.subtree_control): usually they already are, and this is one
 * read. A controller dir is not offered, or a dir that holds processes of
 * its own (the kernel's no-internal-processes rule), is an error that says
 * so. */
static int cgroup2_enable(const char *dir, const char **want, int nwant, char *err, size_t errn)
{
	char f[PATHN], have[512], add[128];
	path_join(f, sizeof f, dir, "cgroup.subtree_control");
	if (read_file(f, have, sizeof have) < 0) {
		snprintf(err, errn, "cgroup2: read %s: %s (is %s a cgroup v2 directory?)", f, strerror(errno), dir);
		return -1;
	}
	size_t len = 0;
	add[0] = 0;
	for (int i = 0; i < nwant; i++)
		if (!has_word(have, want[i]))
			len += (size_t)snprintf(add + len, sizeof add - len, "%s+%s", len ? " " : "", want[i]);
	if (!len)
		return 0;
	char offered[512] = "";
	path_join(f, sizeof f, dir, "cgroup.controllers");
	if (read_file(f, offered, sizeof offered) < 0)
		offered[0] = 0;
	trim(offered);
	for (int i = 0; i < nwant; i++) {
		if (!has_word(offered, want[i])) {
			snprintf(err, errn,
				 "cgroup2: %s does not offer the %s controller (its cgroup.controllers: \"%s\"); "
				 "delegate it to that cgroup, or use the cgroup1 or fallback backend",
				 dir, want[i], offered);
			return -1;
		}
	}
	path_join(f, sizeof f, dir, "cgroup.subtree_control");
	int fd = open(f, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, add, len) != (ssize_t)len) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		snprintf(err, errn, "cgroup2: enable %s in %s: %s%s", add, f, strerror(e),
			 e == EBUSY ? " (a cgroup that holds processes cannot pass controllers on: move them to a child "
				      "cgroup, or name one in SMTARENA_CGROUP2)"
				    : "");
		return -1;
	}
	close(fd);
	return 0;
}

/* cgroup2_prepare makes the parent of runs' cgroups ready: the controllers
 * the run needs enabled, and for smtarena/ under the root, the directory
 * made and the controllers enabled in the root first. */
static int cgroup2_prepare(int root, const struct engine_spec *s, char *parent, size_t n, char *err, size_t errn)
{
	const char *want[3];
	int nwant = cgroup2_wanted(s, want);
	if (!cgroup2_parent(root, parent, n)) {
		snprintf(err, errn, "cgroup2: needs a cgroup v2 delegated to this user, named in SMTARENA_CGROUP2 "
				    "(relative to %s)",
			 cgroup_root());
		return -1;
	}
	const char *p = getenv("SMTARENA_CGROUP2");
	if (!p || !*p) {
		char f[PATHN];
		path_join(f, sizeof f, parent, "cgroup.subtree_control");
		if (!exists(f)) {
			if (cgroup2_enable(cgroup_root(), want, nwant, err, errn))
				return -1;
			if (mkdir(parent, 0755) && errno != EEXIST) {
				snprintf(err, errn, "cgroup2: mkdir %s: %s", parent, strerror(errno));
				return -1;
			}
		}
	}
	return cgroup2_enable(parent, want, nwant, err, errn);
}

const char *pick_backend(int root, const struct engine_spec *s)
{
	char b[PATHN], parent[PATHN], err[512];
	const char *p = getenv("SMTARENA_CGROUP2");
	if (unified() && p && *p)
		return "cgroup2"; /* chosen: its errors are the user's to see */
	if (unified() && root && !cgroup2_prepare(root, s, parent, sizeof parent, err, sizeof err))
		return "cgroup2";
	path_join(b, sizeof b, cgroup_root(), "cpuacct/cpuacct.usage");
	if (exists(b) && root)
		return "cgroup1";
	return "fallback";
}

static void core_list(const struct engine_spec *s, char *out, size_t n)
{
	size_t len = 0;
	out[0] = 0;
	for (int i = 0; i < s->ncores && len + 16 < n; i++)
		len += (size_t)snprintf(out + len, n - len, "%s%d", i ? "," : "", s->cores[i]);
}

void backend_destroy(struct backend *b, char *err, size_t errn);

/* make_cgroup makes a run's cgroup. One of the same name is left by a dead
 * process that had our pid (pids are reused; its runs' leftovers are swept
 * by the pid in the names, but never by us): it is empty, and goes. */
static int make_cgroup(const char *dir)
{
	if (!mkdir(dir, 0755))
		return 0;
	if (errno != EEXIST || rmdir(dir))
		return -1;
	return mkdir(dir, 0755);
}

static int cgroup2_create(struct backend *b, const char *id, const struct engine_spec *s, int root, char *err,
			  size_t errn)
{
	char parent[PATHN], f[PATHN], v[64];
	if (cgroup2_prepare(root, s, parent, sizeof parent, err, errn))
		return -1;
	path_join(b->dirs[0], sizeof b->dirs[0], parent, id);
	if (make_cgroup(b->dirs[0])) {
		snprintf(err, errn, "cgroup2: mkdir %s: %s", b->dirs[0], strerror(errno));
		b->dirs[0][0] = 0;
		return -1;
	}
	int bad = 0;
	if (s->mem_bytes > 0) {
		snprintf(v, sizeof v, "%lld", s->mem_bytes);
		path_join(f, sizeof f, b->dirs[0], "memory.max");
		bad |= write_file(f, v, err, errn);
		path_join(f, sizeof f, b->dirs[0], "memory.swap.max");
		if (!bad && exists(f)) /* absent without swap accounting */
			bad |= write_file(f, "0", err, errn);
		path_join(f, sizeof f, b->dirs[0], "memory.oom.group");
		bad |= write_file(f, "1", err, errn);
	}
	if (s->pids > 0) {
		snprintf(v, sizeof v, "%ld", s->pids);
		path_join(f, sizeof f, b->dirs[0], "pids.max");
		bad |= write_file(f, v, err, errn);
	}
	if (s->ncores > 0) {
		char cores[1024];
		core_list(s, cores, sizeof cores);
		path_join(f, sizeof f, b->dirs[0], "cpuset.cpus");
		bad |= write_file(f, cores, err, errn);
	}
	return bad ? -1 : 0;
}

static int cgroup1_create(struct backend *b, const char *id, const struct engine_spec *s, int newpid, char *err,
			  size_t errn)
{
	const char *root = cgroup_root();
	char base[PATHN], f[PATHN], v[1024];
	for (size_t i = 0; i < NV1; i++) {
		const char *ctl = v1_controllers[i];
		if (!strcmp(ctl, "cpuset") && s->ncores == 0)
			continue;
		/* In a PID namespace of its own, the run ends with its first
		 * process: nothing forks on while it is killed. */
		if (!strcmp(ctl, "freezer") && newpid)
			continue;
		if (!strcmp(ctl, "pids") && s->pids == 0)
			continue; /* it only enforces the limit */
		snprintf(base, sizeof base, "%s/%s/smtarena", root, ctl);
		if (mkdir(base, 0755) && errno != EEXIST) {
			snprintf(err, errn, "cgroup1: mkdir %s: %s", base, strerror(errno));
			return -1;
		}
		if (!strcmp(ctl, "cpuset")) {
			/* A new cpuset starts empty: inherit the parent's. */
			static const char *const files[] = {"cpuset.cpus", "cpuset.mems"};
			for (int k = 0; k < 2; k++) {
				path_join(f, sizeof f, base, files[k]);
				if (read_file(f, v, sizeof v) >= 0 && (trim(v), v[0] == 0)) {
					char p[PATHN];
					snprintf(p, sizeof p, "%s/cpuset/%s", root, files[k]);
					if (read_file(p, v, sizeof v) < 0)
						v[0] = 0;
					trim(v);
					if (write_file(f, v, err, errn))
						return -1;
				}
			}
		}
		snprintf(b->dirs[i], sizeof b->dirs[i], "%s/%s", base, id);
		if (make_cgroup(b->dirs[i])) {
			snprintf(err, errn, "cgroup1: mkdir %s: %s", b->dirs[i], strerror(errno));
			b->dirs[i][0] = 0;
			return -1;
		}
	}
	int bad = 0;
	if (s->mem_bytes > 0) {
		snprintf(v, sizeof v, "%lld", s->mem_bytes);
		path_join(f, sizeof f, b->dirs[1], "memory.limit_in_bytes");
		bad |= write_file(f, v, err, errn);
		path_join(f, sizeof f, b->dirs[1], "memory.memsw.limit_in_bytes");
		if (!bad && exists(f))
			bad |= write_file(f, v, err, errn);
	}
	if (s->pids > 0) {
		snprintf(v, sizeof v, "%ld", s->pids);
		path_join(f, sizeof f, b->dirs[2], "pids.max");
		bad |= write_file(f, v, err, errn);
	}
	if (s->ncores > 0) {
		char p[PATHN];
		snprintf(p, sizeof p, "%s/cpuset/cpuset.mems", root);
		if (read_file(p, v, sizeof v) < 0)
			v[0] = 0;
		trim(v);
		path_join(f, sizeof f, b->dirs[4], "cpuset.mems");
		bad |= write_file(f, v, err, errn);
		core_list(s, v, sizeof v);
		path_join(f, sizeof f, b->dirs[4], "cpuset.cpus");
		bad |= write_file(f, v, err, errn);
	}
	return bad ? -1 : 0;
}

int backend_create(struct backend *b, const char *name, const char *id, const struct engine_spec *s, int root,
		   char *err, size_t errn)
{
	memset(b, 0, sizeof *b);
	b->cpu_fd = -1;
	const char *cg2 = getenv("SMTARENA_CGROUP2");
	if (strlen(cgroup_root()) + (cg2 ? strlen(cg2) : 0) > PATHN / 2) {
		snprintf(err, errn, "sandbox: cgroup path too long: %s", cgroup_root());
		return -1;
	}
	b->mem_limit = s->mem_bytes;
	b->pids_limit = s->pids;
	int r = 0;
	if (!strcmp(name, "cgroup2")) {
		b->kind = CGROUP2;
		r = cgroup2_create(b, id, s, root, err, errn);
	} else if (!strcmp(name, "cgroup1")) {
		b->kind = CGROUP1;
		r = cgroup1_create(b, id, s, root, err, errn);
	} else if (!strcmp(name, "fallback")) {
		b->kind = FALLBACK;
		return 0;
	} else {
		snprintf(err, errn, "sandbox: unknown backend \"%s\" (want cgroup2, cgroup1 or fallback)", name);
		return -1;
	}
	if (r) {
		char ignore[64];
		backend_destroy(b, ignore, sizeof ignore);
	}
	return r;
}

/* backend_joins lists the cgroup.procs files the first process joins. */
void backend_joins(const struct backend *b, struct list *joins)
{
	static char procs[NV1][PATHN];
	for (size_t i = 0; i < NV1; i++) {
		if (!b->dirs[i][0])
			continue;
		path_join(procs[i], sizeof procs[i], b->dirs[i], "cgroup.procs");
		list_add(joins, procs[i]);
	}
}

/* ---- the fallback: /proc polling ---- */

struct proc_stat {
	pid_t pid, ppid;
	long long user, sys, cuser, csys, threads, rss_pages;
};

static int read_stat(const char *pid, struct proc_stat *st)
{
	char path[64], b[1024];
	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	if (read_file(path, b, sizeof b) < 0)
		return -1;
	char *p = strrchr(b, ')');
	if (!p)
		return -1;
	/* Fields after the command: state(0) ppid(1) ... utime(11) stime(12)
	 * cutime(13) cstime(14) ... num_threads(17) ... rss(21). */
	long long f[22];
	char *s = p + 2;
	if (*s)
		s = strchr(s, ' '); /* skip the state */
	for (int i = 1; i < 22; i++) {
		if (!s)
			return -1;
		f[i] = strtoll(s + 1, &s, 10);
	}
	st->pid = atoi(pid);
	st->ppid = (pid_t)f[1];
	st->user = f[11], st->sys = f[12], st->cuser = f[13], st->csys = f[14];
	st->threads = f[17], st->rss_pages = f[21];
	return 0;
}

/* members lists the run's live processes: those of its PID namespace, or
 * without one the descendants of the first process. */
static int members(struct backend *b, struct proc_stat **out)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	int n = 0, cap = 0;
	struct proc_stat *all = NULL;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		if (b->ns[0]) {
			char path[64], ns[64];
			snprintf(path, sizeof path, "/proc/%s/ns/pid", e->d_name);
			ssize_t l = readlink(path, ns, sizeof ns - 1);
			if (l < 0)
				continue;
			ns[l] = 0;
			if (strcmp(ns, b->ns))
				continue;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			struct proc_stat *a = realloc(all, (size_t)cap * sizeof *all);
			if (!a)
				break;
			all = a;
		}
		if (!read_stat(e->d_name, &all[n]))
			n++;
	}
	closedir(d);
	if (!b->ns[0]) {
		/* the descendants of the first process */
		char *in = calloc((size_t)n + 1, 1);
		int changed = 1;
		for (int i = 0; i < n; i++)
			in[i] = all[i].pid == b->first;
		while (changed) {
			changed = 0;
			for (int i = 0; i < n; i++) {
				if (in[i])
					continue;
				for (int j = 0; j < n; j++)
					if (in[j] && all[j].pid == all[i].ppid) {
						in[i] = changed = 1;
						break;
					}
			}
		}
		int m = 0;
		for (int i = 0; i < n; i++)
			if (in[i])
				all[m++] = all[i];
		free(in);
		n = m;
	}
	*out = all;
	return n;
}

static void fallback_sample(struct backend *b)
{
	struct proc_stat *ms = NULL;
	int n = members(b, &ms);
	long long u = 0, s = 0, rss = 0, threads = 0;
	for (int i = 0; i < n; i++) {
		u += ms[i].user + ms[i].cuser;
		s += ms[i].sys + ms[i].csys;
		rss += ms[i].rss_pages;
		threads += ms[i].threads;
	}
	free(ms);
	rss *= sysconf(_SC_PAGESIZE);
	if (rss > b->peak_rss)
		b->peak_rss = rss;
	if (b->mem_limit > 0 && rss > b->mem_limit)
		b->hit_what = "memory";
	if (b->pids_limit > 0 && threads >= b->pids_limit && !b->hit_what)
		b->hit_what = "pids";
	long long tick = SEC / sysconf(_SC_CLK_TCK);
	b->last_user = u * tick, b->last_sys = s * tick;
}

/* ---- backend operations ---- */

void backend_added(struct backend *b, pid_t first)
{
	b->first = first;
	if (b->kind != FALLBACK)
		return;
	char self[64], path[64], ns[64];
	ssize_t l1 = readlink("/proc/self/ns/pid", self, sizeof self - 1);
	snprintf(path, sizeof path, "/proc/%d/ns/pid", first);
	ssize_t l2 = readlink(path, ns, sizeof ns - 1);
	if (l1 > 0 && l2 > 0) {
		self[l1] = ns[l2] = 0;
		if (strcmp(self, ns))
			strcpy(b->ns, ns);
	}
}

/* backend_cpu reads the run's CPU time so far: through the counter kept
 * open with a cgroup (one pread), by sampling /proc for the fallback. */
int backend_cpu(struct backend *b, long long *ns)
{
	if (b->kind == FALLBACK) {
		fallback_sample(b);
		*ns = b->last_user + b->last_sys;
		return 0;
	}
	char f[PATHN], buf[512];
	if (b->cpu_fd < 0) {
		if (b->kind == CGROUP1)
			path_join(f, sizeof f, b->dirs[0], "cpuacct.usage");
		else
			path_join(f, sizeof f, b->dirs[0], "cpu.stat");
		b->cpu_fd = open(f, O_RDONLY | O_CLOEXEC);
		if (b->cpu_fd < 0)
			return -1;
	}
	ssize_t n = pread(b->cpu_fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	long long v;
	if (b->kind == CGROUP1) {
		*ns = strtoll(buf, NULL, 10);
		return 0;
	}
	if (key_value(buf, "usage_usec", &v))
		return -1;
	*ns = v * 1000;
	return 0;
}

/* backend_usage is the run's CPU time split into user and system. v1's
 * cpuacct.usage is the exact total; the kernel splits it by sampling at
 * each tick, so the split is scaled to the total. */
int backend_usage(struct backend *b, long long *user, long long *sys)
{
	char f[PATHN];
	if (b->kind == FALLBACK) {
		fallback_sample(b);
		*user = b->last_user, *sys = b->last_sys;
		return 0;
	}
	if (b->kind == CGROUP2) {
		long long u, s;
		path_join(f, sizeof f, b->dirs[0], "cpu.stat");
		char buf[1024];
		if (read_file(f, buf, sizeof buf) < 0 || key_value(buf, "user_usec", &u) || key_value(buf, "system_usec", &s))
			return -1;
		*user = u * 1000, *sys = s * 1000;
		return 0;
	}
	long long total, u, s;
	path_join(f, sizeof f, b->dirs[0], "cpuacct.usage");
	if (read_ll(f, &total))
		return -1;
	path_join(f, sizeof f, b->dirs[0], "cpuacct.usage_user");
	int e1 = read_ll(f, &u);
	path_join(f, sizeof f, b->dirs[0], "cpuacct.usage_sys");
	int e2 = read_ll(f, &s);
	if (e1 || e2 || u + s == 0) {
		*user = 0, *sys = total;
		return 0;
	}
	*user = (long long)((double)total * (double)u / (double)(u + s));
	*sys = total - *user;
	return 0;
}

/* cgroup2_sample_current samples memory.current when the kernel keeps no
 * memory.peak (before Linux 5.19). */
static void cgroup2_sample_current(struct backend *b)
{
	char f[PATHN];
	long long v;
	path_join(f, sizeof f, b->dirs[0], "memory.peak");
	if (exists(f))
		return;
	path_join(f, sizeof f, b->dirs[0], "memory.current");
	if (!read_ll(f, &v) && v > b->peak_rss)
		b->peak_rss = v;
}

long long backend_peak(struct backend *b)
{
	char f[PATHN];
	long long v = 0;
	if (b->kind == FALLBACK)
		return b->peak_rss;
	if (b->kind == CGROUP2)
		path_join(f, sizeof f, b->dirs[0], "memory.peak");
	else
		path_join(f, sizeof f, b->dirs[1], "memory.max_usage_in_bytes");
	if (!read_ll(f, &v))
		return v;
	if (b->kind == CGROUP2) {
		b->peak_sampled = 1;
		cgroup2_sample_current(b);
		return b->peak_rss;
	}
	return 0;
}

/* backend_hit reports a limit the kernel enforced: an OOM kill or a
 * refused fork. */
const char *backend_hit(struct backend *b)
{
	char f[PATHN], buf[256];
	long long v;
	switch (b->kind) {
	case FALLBACK:
		return b->hit_what;
	case CGROUP2:
		cgroup2_sample_current(b);
		path_join(f, sizeof f, b->dirs[0], "memory.events");
		if (!file_key(f, "oom_kill", &v) && v > 0)
			return "memory";
		path_join(f, sizeof f, b->dirs[0], "pids.events");
		if (!file_key(f, "max", &v) && v > 0)
			return "pids";
		return NULL;
	case CGROUP1:
		path_join(f, sizeof f, b->dirs[1], "memory.oom_control");
		if (!file_key(f, "oom_kill", &v) && v > 0)
			return "memory";
		path_join(f, sizeof f, b->dirs[2], "pids.events");
		if (b->dirs[2][0] && read_file(f, buf, sizeof buf) >= 0 && !strncmp(buf, "max ", 4) && strtoll(buf + 4, NULL, 10) != 0)
			return "pids";
		return NULL;
	}
	return NULL;
}

/* procs_of lists the processes of a cgroup.procs file. */
static int procs_of(const char *dir, pid_t *pids, int max)
{
	static char buf[65536];
	char f[PATHN];
	path_join(f, sizeof f, dir, "cgroup.procs");
	if (read_file(f, buf, sizeof buf) < 0)
		return 0;
	int n = 0;
	for (char *p = buf, *end; *p && n < max; p = end) {
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		pids[n++] = (pid_t)v;
	}
	return n;
}

static void kill_all(const pid_t *pids, int n)
{
	for (int i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
}

/* backend_kill sends SIGKILL to every process of the run. With v1, a tree
 * that could fork while being killed is frozen first; an empty cgroup, or
 * one holding only the first process (which forks no more once it has
 * reported), is not: freezing is dear. */
void backend_kill(struct backend *b)
{
	static pid_t pids[16384];
	char f[PATHN], state[64];
	int n;
	switch (b->kind) {
	case FALLBACK:
		for (int i = 0; i < 3; i++) {
			struct proc_stat *ms = NULL;
			n = members(b, &ms);
			for (int j = 0; j < n; j++)
				kill(ms[j].pid, SIGKILL);
			free(ms);
			if (n == 0)
				break;
		}
		return;
	case CGROUP2:
		path_join(f, sizeof f, b->dirs[0], "cgroup.kill");
		if (write_file(f, "1", state, sizeof state)) {
			n = procs_of(b->dirs[0], pids, 16384);
			kill_all(pids, n);
		}
		return;
	case CGROUP1:
		if (!b->dirs[3][0]) {
			kill_all(pids, procs_of(b->dirs[0], pids, 16384));
			return;
		}
		n = procs_of(b->dirs[3], pids, 16384);
		if (n == 0 || (n == 1 && pids[0] == b->first)) {
			kill_all(pids, n);
			return;
		}
		path_join(f, sizeof f, b->dirs[3], "freezer.state");
		if (!write_file(f, "FROZEN", state, sizeof state)) {
			for (int i = 0; i < 100; i++) {
				if (read_file(f, state, sizeof state) < 0 || strncmp(state, "FREEZING", 8))
					break;
				struct timespec t = {0, MS};
				nanosleep(&t, NULL);
			}
		}
		kill_all(pids, procs_of(b->dirs[3], pids, 16384));
		write_file(f, "THAWED", state, sizeof state);
		return;
	}
}

void backend_destroy(struct backend *b, char *err, size_t errn)
{
	if (b->cpu_fd >= 0)
		close(b->cpu_fd), b->cpu_fd = -1;
	if (b->kind == FALLBACK) {
		backend_kill(b);
		return;
	}
	int any = 0;
	for (size_t i = 0; i < NV1; i++)
		any |= b->dirs[i][0] != 0;
	if (any)
		backend_kill(b);
	for (size_t i = 0; i < NV1; i++)
		if (b->dirs[i][0] && !remove_cgroup(b->dirs[i], err, errn))
			b->dirs[i][0] = 0;
}

/* ---- stale runs ---- */

/* sweep_dir calls remove on the entries run-<pid>-... of dead processes in
 * dir: a process killed with SIGKILL cannot remove its runs' cgroups and
 * directories. */
static void sweep_dir(const char *dir, void (*remove)(const char *dir, const char *name))
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char p[64];
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "run-", 4))
			continue;
		char *end;
		long pid = strtol(e->d_name + 4, &end, 10);
		if (end == e->d_name + 4 || (*end && *end != '-') || pid == getpid())
			continue;
		snprintf(p, sizeof p, "/proc/%ld", pid);
		if (!exists(p))
			remove(dir, e->d_name);
	}
	closedir(d);
}

static void remove_cgroup_dir(const char *dir, const char *name)
{
	char p[PATHN];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	rmdir(p);
}

static void remove_tree(const char *dir, const char *name)
{
	char p[4400];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	remove_all(p);
}

void base_dir(int root, char *out, size_t n)
{
	const char *d = getenv("SMTARENA_RUN_DIR");
	if (d && *d) {
		snprintf(out, n, "%s", d);
	} else if (root) {
		snprintf(out, n, "/var/lib/smtarena/runs");
	} else {
		const char *t = getenv("TMPDIR");
		snprintf(out, n, "%s/smtarena-runs", t && *t ? t : "/tmp");
	}
}

void sweep_stale(int root)
{
	char d[4096];
	/* Every controller: a run killed while its cgroups were being made
	 * or removed leaves some of them only. */
	for (size_t i = 0; i < NV1; i++) {
		snprintf(d, sizeof d, "%s/%s/smtarena", cgroup_root(), v1_controllers[i]);
		sweep_dir(d, remove_cgroup_dir);
	}
	if (cgroup2_parent(root, d, sizeof d))
		sweep_dir(d, remove_cgroup_dir);
	base_dir(root, d, sizeof d);
	sweep_dir(d, remove_tree);
}

