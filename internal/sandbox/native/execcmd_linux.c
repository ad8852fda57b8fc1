// `smtarena exec`, run before the Go runtime starts.
//
// The constructor below sees `smtarena exec ... -- CMD ARGS...` and runs it
// on the engine (engine_linux.c) without ever starting Go: on a
// paravirtualised machine the Go runtime and the package initialisers of
// this binary take over 10 ms to start, and the command's whole overhead
// around a solver is meant to stay under 5 ms.
//
// It takes exactly the flags of cmd/smtarena/cmd_exec.go, written as
// --name value or --name=value, followed by "--" and the command. Anything
// else (help, a short flag, a value it would read differently from the Go
// flag parser, no "--"), or SMTARENA_EXEC_ENGINE=go in the environment,
// leaves the command line to the Go command, which runs the same run
// through internal/sandbox and prints the same keys.

#include "native_linux.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct exec_flags {
	struct engine_spec spec;
	const char *stdin_path, *output_path;
	int json;
};

/* decimal accepts what both C's strtod and Go's ParseFloat read alike:
 * digits with an optional point and exponent. */
static int decimal(const char *v, double *out)
{
	const char *p = v;
	int digits = 0;
	if (*p == '+' || *p == '-')
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			digits++;
	if (!digits)
		return -1;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p)
		return -1;
	*out = strtod(v, NULL);
	return 0;
}

/* integer accepts a plain decimal integer (Go's flag parser reads a
 * leading 0 as octal: such values are left to it). */
static int integer(const char *v, long long *out)
{
	if (!(v[0] >= '1' && v[0] <= '9') && strcmp(v, "0"))
		return -1;
	for (const char *p = v; *p; p++)
		if (*p < '0' || *p > '9')
			return -1;
	errno = 0;
	*out = strtoll(v, NULL, 10);
	return errno ? -1 : 0;
}

static int seconds(const char *v, long long *ns)
{
	double d;
	if (decimal(v, &d) || d < 0 || d > 1e9)
		return -1;
	*ns = (long long)(d * 1e9);
	return 0;
}

/* parse_cores reads a CPU list such as 0,2-3. */
static int parse_cores(const char *v, struct engine_spec *s)
{
	static int cores[1024];
	int n = 0;
	const char *p = v;
	while (*p) {
		char *end;
		if (*p < '0' || *p > '9')
			return -1;
		long a = strtol(p, &end, 10), b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -1;
			b = strtol(p, &end, 10);
			p = end;
			if (b < a)
				return -1;
		}
		for (long c = a; c <= b; c++) {
			if (n == 1024)
				return -1;
			cores[n++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	s->cores = cores;
	s->ncores = n;
	return 0;
}

/* parse_flags reads the command line; -1 leaves it to the Go command. */
static int parse_flags(int argc, char **argv, struct exec_flags *f)
{
	memset(f, 0, sizeof *f);
	f->spec.stdin_fd = -1;
	f->spec.out_fd = 1;
	f->spec.status_fd = -1;
	f->spec.grace_ns = 1000000000LL;
	int i = 2;
	for (; i < argc; i++) {
		char *a = argv[i];
		if (!strcmp(a, "--"))
			break;
		if (strncmp(a, "--", 2))
			return -1;
		char name[64];
		const char *v = NULL;
		char *eq = strchr(a, '=');
		size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (len >= sizeof name)
			return -1;
		memcpy(name, a + 2, len);
		name[len] = 0;
		if (!strcmp(name, "json") || !strcmp(name, "keep-workdir") || !strcmp(name, "timestamps")) {
			if (eq)
				return -1;
			if (name[0] == 'j')
				f->json = 1;
			else if (name[0] == 'k')
				f->spec.keep_workdir = 1;
			else
				f->spec.timestamps = 1;
			continue;
		}
		if (eq) {
			v = eq + 1;
		} else {
			if (i + 1 >= argc)
				return -1;
			v = argv[++i];
		}
		long long n;
		if (!strcmp(name, "cpu-limit")) {
			if (seconds(v, &f->spec.cpu_ns))
				return -1;
		} else if (!strcmp(name, "wall-limit")) {
			if (seconds(v, &f->spec.wall_ns))
				return -1;
		} else if (!strcmp(name, "grace")) {
			if (seconds(v, &f->spec.grace_ns))
				return -1;
		} else if (!strcmp(name, "mem-limit")) {
			if (integer(v, &n) || n > (1LL << 43))
				return -1;
			f->spec.mem_bytes = n << 20;
		} else if (!strcmp(name, "output-limit")) {
			if (integer(v, &n) || n > (1LL << 43))
				return -1;
			f->spec.output_bytes = n << 20;
		} else if (!strcmp(name, "pids-limit")) {
			if (integer(v, &n) || n > 1 << 30)
				return -1;
			f->spec.pids = (long)n;
		} else if (!strcmp(name, "cores")) {
			if (parse_cores(v, &f->spec))
				return -1;
		} else if (!strcmp(name, "protocol")) {
			if (strcmp(v, "2022") && strcmp(v, "2005"))
				return -1;
			f->spec.protocol2005 = !strcmp(v, "2005");
		} else if (!strcmp(name, "stdin")) {
			f->stdin_path = *v ? v : NULL;
		} else if (!strcmp(name, "workdir")) {
			f->spec.workdir = *v ? v : NULL;
		} else if (!strcmp(name, "output")) {
			f->output_path = *v ? v : NULL;
		} else if (!strcmp(name, "backend")) {
			f->spec.backend = *v ? v : NULL;
		} else {
			return -1;
		}
	}
	if (i + 1 >= argc)
		return -1; /* no "--", or no command after it */
	f->spec.args = argv + i + 1;
	return 0;
}

/* clean_join is Go's filepath.Abs of a relative path: dir/rel, with "."
 * and ".." resolved lexically. */
static char *clean_join(const char *dir, const char *rel)
{
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *in = malloc(n), *out = malloc(n + 1);
	if (!in || !out)
		_exit(111);
	snprintf(in, n, "%s/%s", dir, rel);
	size_t o = 0;
	for (char *p = in; *p;) {
		while (*p == '/')
			p++;
		char *e = strchr(p, '/');
		size_t k = e ? (size_t)(e - p) : strlen(p);
		if (k == 0 || (k == 1 && p[0] == '.')) {
		} else if (k == 2 && p[0] == '.' && p[1] == '.') {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
		} else {
			out[o++] = '/';
			memcpy(out + o, p, k);
			o += k;
		}
		p += k;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = 0;
	free(in);
	return out;
}

/* Go's strings are its flag parser's: errors start lower case. */
static const char *go_strerror(int e, char *buf, size_t n)
{
	snprintf(buf, n, "%s", strerror(e));
	if (buf[0] >= 'A' && buf[0] <= 'Z' && !(buf[1] >= 'A' && buf[1] <= 'Z'))
		buf[0] = (char)(buf[0] - 'A' + 'a');
	return buf;
}

static void format_seconds(char *b, size_t n, long long ns)
{
	/* As Go's Duration.Seconds, then 'f' with 6 digits. */
	double s = (double)(ns / 1000000000LL) + (double)(ns % 1000000000LL) / 1e9;
	snprintf(b, n, "%.6f", s);
}

/* civil is the date of a day counted from 1970-01-01 (H. Hinnant's
 * days_from_civil, inverted): gmtime would read the time zone files. */
static void civil(long long z, long long *y, unsigned *m, unsigned *d)
{
	z += 719468;
	long long era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (long long)yoe + era * 400 + (*m <= 2);
}

/* format_time is Go's RFC3339Nano in UTC; a zero time is Go's zero time. */
static void format_time(char *b, size_t n, struct timespec t)
{
	if (t.tv_sec == 0 && t.tv_nsec == 0) {
		snprintf(b, n, "0001-01-01T00:00:00Z");
		return;
	}
	long long days = t.tv_sec / 86400, secs = t.tv_sec % 86400, y;
	unsigned m, d;
	civil(days, &y, &m, &d);
	int k = snprintf(b, n, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", y, m, d, secs / 3600, secs / 60 % 60, secs % 60);
	if (t.tv_nsec) {
		char frac[16];
		snprintf(frac, sizeof frac, ".%09ld", t.tv_nsec);
		for (int i = 9; frac[i] == '0'; i--)
			frac[i] = 0;
		snprintf(b + k, n - (size_t)k, "%sZ", frac);
	} else {
		snprintf(b + k, n - (size_t)k, "Z");
	}
}

/* out is the result as it is printed, built in memory and written at once
 * (stdio's machinery is not worth its pages here). */
struct out {
	char b[16384];
	size_t n;
};

static void put(struct out *o, const char *s, size_t k)
{
	if (k > sizeof o->b - o->n)
		k = sizeof o->b - o->n;
	memcpy(o->b + o->n, s, k);
	o->n += k;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void json_string(struct out *o, const char *s)
{
	puts_(o, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char e[8];
		if (*p == '"' || *p == '\\')
			e[0] = '\\', e[1] = (char)*p, e[2] = 0;
		else if (*p == '\n')
			strcpy(e, "\\n");
		else if (*p == '\r')
			strcpy(e, "\\r");
		else if (*p == '\t')
			strcpy(e, "\\t");
		else if (*p < 0x20)
			snprintf(e, sizeof e, "\\u%04x", *p);
		else
			e[0] = (char)*p, e[1] = 0;
		puts_(o, e);
	}
	puts_(o, "\"");
}

/* print_result prints the measurements as cmd/smtarena/cmd_exec.go does:
 * key=value lines, or one JSON object with the keys in the same order. */
static int print_result(int fd, const struct engine_result *r, int json)
{
	char wall[32], cpu[32], user[32], sys[32], peak[32], code[16], out[32], start[64], end[64];
	format_seconds(wall, sizeof wall, r->wall_ns);
	format_seconds(cpu, sizeof cpu, r->user_ns + r->sys_ns);
	format_seconds(user, sizeof user, r->user_ns);
	format_seconds(sys, sizeof sys, r->sys_ns);
	snprintf(peak, sizeof peak, "%.3f", (double)r->peak_bytes / (1 << 20));
	snprintf(code, sizeof code, "%d", r->exit_code);
	snprintf(out, sizeof out, "%lld", r->output_bytes);
	format_time(start, sizeof start, r->start);
	format_time(end, sizeof end, r->end);
	struct {
		const char *key, *value;
		char kind; /* s string, n number, b boolean */
	} fields[] = {
		{"reason", r->reason, 's'},
		{"wall_s", wall, 'n'},
		{"cpu_s", cpu, 'n'},
		{"user_s", user, 'n'},
		{"sys_s", sys, 'n'},
		{"peak_mb", peak, 'n'},
		{"exit_code", code, 'n'},
		{"signal", r->signal, 's'},
		{"backend", r->backend ? r->backend : "", 's'},
		{"accurate", r->accurate ? "true" : "false", 'b'},
		{"workdir", r->workdir, 's'},
		{"output_bytes", out, 'n'},
		{"start", start, 's'},
		{"end", end, 's'},
		{"error", r->error, 's'},
	};
	size_t nf = sizeof fields / sizeof *fields;
	if (!r->error[0])
		nf--;
	static struct out o;
	for (size_t i = 0; i < nf; i++) {
		if (!json) {
			puts_(&o, fields[i].key);
			puts_(&o, "=");
			puts_(&o, fields[i].value);
			puts_(&o, "\n");
			continue;
		}
		puts_(&o, i ? ",\"" : "{\"");
		puts_(&o, fields[i].key);
		puts_(&o, "\":");
		if (fields[i].kind == 's')
			json_string(&o, fields[i].value);
		else
			puts_(&o, fields[i].value);
	}
	if (json)
		puts_(&o, "}\n");
	return write_all(fd, o.b, o.n);
}

/* say writes "smtarena: " and the parts to standard error, as one line. */
static void say(const char *a, const char *b, const char *c, const char *d)
{
	static struct out o;
	o.n = 0;
	puts_(&o, "smtarena: ");
	puts_(&o, a);
	puts_(&o, b ? b : "");
	puts_(&o, c ? c : "");
	puts_(&o, d ? d : "");
	puts_(&o, "\n");
	write_all(2, o.b, o.n);
}

/* exec_main runs the command; it returns the exit status, or -1 to leave
 * the command line to Go. */
static int exec_main(int argc, char **argv)
{
	const char *engine = getenv("SMTARENA_EXEC_ENGINE");
	if (engine && !strcmp(engine, "go"))
		return -1;
	struct exec_flags f;
	if (parse_flags(argc, argv, &f))
		return -1;
	/* Standard streams that are closed would be taken by the run's pipes. */
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0)
			open("/dev/null", O_RDWR);
	char eb[256];
	/* The program runs in a fresh directory: file arguments given relative
	 * to here are passed as absolute paths. */
	char cwd[4096];
	if (getcwd(cwd, sizeof cwd)) {
		for (char **a = f.spec.args + 1; *a; a++) {
			struct stat st;
			if ((*a)[0] != '/' && (*a)[0] != '-' && !stat(*a, &st))
				*a = clean_join(cwd, *a);
		}
	}
	if (f.stdin_path) {
		f.spec.stdin_fd = open(f.stdin_path, O_RDONLY | O_CLOEXEC);
		if (f.spec.stdin_fd < 0) {
			say("open ", f.stdin_path, ": ", go_strerror(errno, eb, sizeof eb));
			return 2;
		}
	}
	int report = 2; /* keep the program's output clean on stdout */
	if (f.output_path) {
		f.spec.out_fd = open(f.output_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (f.spec.out_fd < 0) {
			say("open ", f.output_path, ": ", go_strerror(errno, eb, sizeof eb));
			return 2;
		}
		report = 1;
	}
	struct engine_result r;
	engine_run(&f.spec, &r);
	if (f.output_path && close(f.spec.out_fd) && !r.out_errno)
		r.out_errno = errno;
	/* A run that could not be set up has its teardown's errors added. */
	if (r.setup_failed)
		engine_teardown(&r, 0);
	int e = print_result(report, &r, f.json);
	/* The result is out: the run's cgroups and directory are removed
	 * after we exit (as internal/sandbox does in the background). */
	if (!r.setup_failed)
		engine_teardown(&r, 1);
	if (e) {
		say("write result: ", go_strerror(e, eb, sizeof eb), NULL, NULL);
		return 2;
	}
	if (r.setup_failed) {
		say(r.error, NULL, NULL, NULL);
		return 2;
	}
	if (!strcmp(r.reason, "failed")) {
		say("run failed: ", r.error, NULL, NULL);
		return 2;
	}
	if (r.out_errno) {
		say("write ", f.output_path ? f.output_path : "/dev/stdout", ": ", go_strerror(r.out_errno, eb, sizeof eb));
		return 2;
	}
	return 0;
}

__attribute__((constructor)) static void smtarena_exec(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "exec")) {
		int code = exec_main(argc, argv);
		if (code >= 0)
			_exit(code); /* nothing is buffered: no stdio is used */
	}
}
