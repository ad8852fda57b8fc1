// Helpers the C side of the sandbox shares (declared in native_linux.h).

#include "native_linux.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

long long now_ns(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int write_all(int fd, const char *b, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno;
		b += w, n -= (size_t)w;
	}
	return 0;
}

void list_add(struct list *l, char *s)
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

void kv_put(struct kv *k, const char *key, const char *value)
{
	int n = snprintf(k->b + k->len, k->cap - k->len, "%s=%s", key, value);
	if (n >= 0 && (size_t)n < k->cap - k->len)
		k->len += (size_t)n + 1; /* keep the NUL */
}

void kv_put_num(struct kv *k, const char *key, long long v)
{
	char b[32];
	snprintf(b, sizeof b, "%lld", v);
	kv_put(k, key, b);
}

int mkdir_all(const char *path, mode_t mode)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
		return ENAMETOOLONG;
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, mode) && errno != EEXIST)
			return errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return errno;
	return 0;
}

void to_null(int fd)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || dup3(null, fd, O_CLOEXEC) < 0)
		close(fd);
	if (null >= 0 && null != fd)
		close(null);
}

pid_t spawn(int (*fn)(void *), void *arg, size_t stack, int flags, int *pidfd)
{
	char *s = mmap(NULL, stack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (s == MAP_FAILED)
		return -1;
	/* The stack stays mapped: the process runs on it until it exits. */
	return clone(fn, s + stack, flags, arg, pidfd);
}
