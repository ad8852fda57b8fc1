// The C side of the sandbox: declarations shared by the run's first process
// (firstproc_linux.c), the engine that runs one solver (engine_linux.c), its
// front ends (execcmd_linux.c for `smtarena exec`, runner_linux.c for the Go
// API) and the helpers they share (util_linux.c).

#ifndef SMTARENA_NATIVE_H
#define SMTARENA_NATIVE_H

#define _GNU_SOURCE
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* A growable NULL-terminated list of strings. */
struct list {
	char **items;
	int n, cap;
};

void list_add(struct list *l, char *s);

/* config is what the first process of a run does: the program, its
 * environment and directory, its user, and the isolation to set up. */
struct config {
	struct list args, env, binds;
	const int *cores; /* CPUs to pin to: ncores of them, or none */
	int ncores;
	struct list joins; /* cgroup.procs files the first process writes itself into */
	const char *dir;
	long uid, gid; /* -1: keep */
	int mounts, newpid;
	long long aslimit;
	long nproc;
};

/* The first process reports on this descriptor; the solver's standard
 * streams are 0, 1 and 2. */
#define REPORT_FD 4

/* first_run is the first process of a run, set up by c: it starts the
 * solver, waits for it, kills what is left of the run, writes its report on
 * REPORT_FD and exits. */
__attribute__((noreturn)) void first_run(struct config *c);

/* Limits and settings of one run, as sandbox.Spec has them. */
struct engine_spec {
	char **args;          /* NULL-terminated */
	char **env;           /* extra environment, NULL-terminated (may be NULL) */
	long long cpu_ns;     /* 0: no limit */
	long long wall_ns;
	long long mem_bytes;
	long pids;
	long long output_bytes;
	int *cores;
	int ncores;
	int protocol2005;
	long long grace_ns;   /* 0: 1 s (3 s for protocol 2005) */
	const char *workdir;  /* NULL: a fresh one */
	int keep_workdir;
	const char *backend;  /* NULL: the best there is */
	int stdin_fd;         /* -1: /dev/null */
	int out_fd;           /* the solver's output goes there; -1 discards it */
	int timestamps;       /* prefix each line with wall/cpu seconds */
	/* The Go side (runner_linux.c): the solver writes straight into
	 * out_fd, which the caller reads, counts and cuts (SIGUSR2 tells us
	 * the output limit was reached); what the run is and how it goes is
	 * said on status_fd as it happens (see runner_linux.c). */
	int direct_output;
	int status_fd;        /* -1: none */
	int cpu_updates;      /* say the CPU time at each sample (fallback) */
	/* A run inside a cluster allocation (sandbox.Spec.Cluster): the
	 * host's network namespace, the caller's user, and the paths in keep
	 * (NULL-terminated, may be NULL) visible though under a private
	 * directory (the munge socket, slurm.conf). */
	int share_net;
	int keep_user;
	char **keep;
};

/* What was measured, as sandbox.Result has it. */
struct engine_result {
	const char *reason;
	char error[4200];
	int exit_code;
	char signal[32];
	long long wall_ns, user_ns, sys_ns, peak_bytes, output_bytes;
	const char *backend;
	int accurate;
	char workdir[4096];
	struct timespec start, end; /* CLOCK_REALTIME */
	/* setup_failed: the run could not be set up at all (no working
	 * directory, no backend): the error is the command's. */
	int setup_failed;
	/* out_errno: writing the solver's output failed (a full disk). */
	int out_errno;
};

/* engine_run runs one program under s and fills r. The run's cgroups and
 * working directory are left for engine_teardown, so that the result can
 * be given first. */
void engine_run(const struct engine_spec *s, struct engine_result *r);

/* engine_teardown removes what engine_run left: at once (an error goes to
 * r), or with detach in a process left behind, so that the caller can exit
 * as soon as the result is out; what it cannot remove the next run's sweep
 * of stale runs does. */
void engine_teardown(struct engine_result *r, int detach);

/* Helpers the files share (util_linux.c). */
long long now_ns(clockid_t clock);
/* write_all writes all of b, and returns 0 or the errno that stopped it. */
int write_all(int fd, const char *b, size_t n);
/* mkdir_all makes path and its missing parents; it returns 0 or an errno. */
int mkdir_all(const char *path, mode_t mode);
/* to_null points fd at /dev/null (or closes it), so that what was open
 * there is ours no more. */
void to_null(int fd);
/* spawn starts fn(arg) in a new process on a stack of its own, mapped for
 * it (clone(2) flags; pidfd as for CLONE_PIDFD). */
pid_t spawn(int (*fn)(void *), void *arg, size_t stack, int flags, int *pidfd);

/* kv builds the "key=value" strings, each ended by a NUL, that the C side
 * and the Go side exchange, in a fixed buffer (what does not fit is left
 * out). */
struct kv {
	char *b;
	size_t cap, len;
};

void kv_put(struct kv *k, const char *key, const char *value);
void kv_put_num(struct kv *k, const char *key, long long v);

#endif
