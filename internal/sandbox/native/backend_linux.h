// Backends (backend_linux.c): what measures and bounds a run's process
// tree, for the engine (engine_linux.c).

#ifndef SMTARENA_BACKEND_H
#define SMTARENA_BACKEND_H

#include "native_linux.h"

#include <sys/types.h>

/* PATHN bounds cgroup paths. */
#define PATHN 512
/* NV1 is the number of v1 controllers: cpuacct, memory, pids, freezer,
 * cpuset. */
#define NV1 5

enum backend_kind { CGROUP2, CGROUP1, FALLBACK };

struct backend {
	enum backend_kind kind;
	char dirs[NV1][PATHN]; /* v1: one per controller ("" if unused); v2: dirs[0] */
	int cpu_fd;            /* the CPU counter, kept open */
	pid_t first;
	/* fallback; peak_rss also for v2 on kernels before 5.19, which have
	 * no memory.peak: memory.current is sampled (peak_sampled) */
	char ns[64];
	int peak_sampled;
	long long peak_rss, mem_limit;
	long pids_limit;
	const char *hit_what;
	long long last_user, last_sys; /* ns */
};

/* pick_backend names the best backend this machine offers for the run:
 * cgroup v2 when SMTARENA_CGROUP2 names a delegated cgroup or, as root,
 * when the machine's cgroups are v2 and smtarena/ under their root can
 * have the controllers the run needs; cgroup v1 as root; else the
 * fallback. */
const char *pick_backend(int root, const struct engine_spec *s);
/* backend_create makes the run's cgroups (v1: cpuacct and memory, pids with
 * a limit, cpuset with cores, freezer without a PID namespace (root is 0);
 * v2: one, with the controllers it needs enabled in its parent) and sets
 * their limits; on failure err says why and nothing is left. */
int backend_create(struct backend *b, const char *name, const char *id, const struct engine_spec *s, int root,
		   char *err, size_t errn);
const char *backend_name(const struct backend *b);
/* backend_joins lists the cgroup.procs files the first process joins. */
void backend_joins(const struct backend *b, struct list *joins);
/* backend_added tells the backend the run's first process. */
void backend_added(struct backend *b, pid_t first);
/* backend_cpu is the run's CPU time so far, cheaply; backend_usage the
 * same split into user and system time, exactly. */
int backend_cpu(struct backend *b, long long *ns);
int backend_usage(struct backend *b, long long *user, long long *sys);
/* backend_peak is the run's peak memory; b->peak_sampled says afterwards
 * whether it was sampled rather than kept by the kernel. */
long long backend_peak(struct backend *b);
/* backend_hit names a limit the kernel enforced ("memory", "pids"), or is
 * NULL. */
const char *backend_hit(struct backend *b);
void backend_kill(struct backend *b);
void backend_destroy(struct backend *b, char *err, size_t errn);

/* base_dir is where fresh working directories go. */
void base_dir(int root, char *out, size_t n);
/* sweep_stale removes the cgroups and working directories of runs whose
 * process is dead (a process killed with SIGKILL cannot remove its own). */
void sweep_stale(int root);
/* remove_all removes a directory and what it holds. */
void remove_all(const char *path);
void path_join(char *out, size_t n, const char *a, const char *b);
int exists(const char *path);

#endif
