// Package sandbox runs one untrusted program under CPU, wall, memory,
// process and output limits, isolated (own PID, mount and network
// namespaces, private /tmp, an unprivileged user, a fresh working
// directory), and measures it exactly: the kernel's accounting of the whole
// process tree through cgroups (v2 or v1), or /proc polling where there are
// none, marked as less accurate. Every track runs solvers through it.
package sandbox
