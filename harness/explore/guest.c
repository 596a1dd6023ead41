/* guest.c — the one guest of explore --stack=vm: ci/vm running ci/vm-agents (guest.h). */
#define _GNU_SOURCE /* setpgid, kill */
#include "harness/explore/guest.h"
#include "harness/nodes/console.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GUEST_VM_TIMEOUT_S 604800 /* ci/vm's own bound on a boot: a week of exploring */
#define GUEST_STOP_S 20

static void tick(void)
{
	nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
}

/* n free TCP ports of 127.0.0.1, as the kernel picks them, as "P0,P1,..." into buf. 0 or -errno. */
static int free_ports(unsigned n, char *buf, size_t len)
{
	int fds[TOPO_MAX_NODES + 1], rc = 0;
	size_t off = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < n && !rc; k++) { /* all held open until every one is known: n distinct ports */
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		socklen_t sl = sizeof(sa);

		fds[k] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fds[k] < 0 || bind(fds[k], (struct sockaddr *)&sa, sizeof(sa)) ||
		    getsockname(fds[k], (struct sockaddr *)&sa, &sl)) {
			rc = -errno;
			if (fds[k] >= 0)
				close(fds[k]);
			break;
		}
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%u", k ? "," : "", ntohs(sa.sin_port));
	}
	while (k--)
		close(fds[k]);
	return rc ? rc : off < len ? 0 : -ENAMETOOLONG;
}

/* The run's secret: 32 random bytes in hex, a file only its owner reads. 0 or -errno. */
static int make_token(const char *path)
{
	unsigned char raw[32];
	char hex[65];
	int in = open("/dev/urandom", O_RDONLY | O_CLOEXEC), out, rc = 0;

	if (in < 0)
		return -errno;
	if (read(in, raw, sizeof(raw)) != (ssize_t)sizeof(raw))
		rc = -EIO;
	close(in);
	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(hex + 2 * i, 3, "%02x", raw[i]);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0)
		return -errno;
	if (write(out, hex, 64) != 64)
		rc = -EIO;
	return close(out) || rc ? (rc ? rc : -errno) : 0;
}

/* Start boot g->boots + 1: ci/vm with a management NIC forwarding ports, running ci/vm-agents. */
static int spawn(struct ex_guest *g, const char *topo, char *err, size_t errlen)
{
	char civm[PATH_MAX + 16], agents[PATH_MAX + 32], n[16], ports[(TOPO_MAX_NODES + 1) * 7], tmo[40], cons[PATH_MAX + 96];
	char nic[(TOPO_MAX_NODES + 1) * 48 + 96], token[PATH_MAX + 48], log[PATH_MAX + 48];
	/* tsc=reliable: the guest's clock is the TSC, read in user space, not the HPET (a trap
	 * into QEMU for every clock read, every TCP segment's timestamps among them; under
	 * TCG the vCPUs' TSCs are one clock). Without it an answer's write cost 1.5-4 ms. */
	char *argv[] = { civm, "-q", tmo, cons, "--kernel-arg=tsc=reliable", "--qemu=-netdev", nic, "--qemu=-device",
			 "--qemu=virtio-net-pci,netdev=mgmt,mac=52:54:00:bb:00:01", "--", agents, n, token, (char *)topo,
			 ports, "--exec", NULL };
	size_t off;
	int rc = free_ports(g->nodes * g->lanes + 1, ports, sizeof(ports)); /* the last: the executor's */
	const char *last;

	if (rc) {
		snprintf(err, errlen, "no free ports on 127.0.0.1 for the guest's agents: %s", strerror(-rc));
		return rc;
	}
	last = strrchr(ports, ',');
	snprintf(g->exec, sizeof(g->exec), "127.0.0.1:%.5s", last ? last + 1 : ports); /* a port: 5 digits */
	g->boots++;
	snprintf(civm, sizeof(civm), "%s/ci/vm", g->root);
	snprintf(agents, sizeof(agents), "%s/ci/vm-agents", g->root);
	snprintf(n, sizeof(n), "%u", g->nodes);
	snprintf(tmo, sizeof(tmo), "--timeout=%d", GUEST_VM_TIMEOUT_S);
	snprintf(g->console, sizeof(g->console), "%s/console-%u", g->dir, g->boots);
	snprintf(cons, sizeof(cons), "--console=%s", g->console);
	snprintf(token, sizeof(token), "%s/token", g->dir);
	snprintf(log, sizeof(log), "%s/guest.log", g->dir);
	off = (size_t)snprintf(nic, sizeof(nic), "--qemu=user,id=mgmt,restrict=on,net=10.0.2.0/24");
	{
		char tmp[sizeof(ports)], *save = NULL;
		unsigned k = 0; /* guest port 7000 + k: lane k / nodes's agent of node k % nodes (ci/vm-agents); the
		                   last, 7000 + nodes x lanes: the executor's */

		snprintf(tmp, sizeof(tmp), "%s", ports);
		for (char *p = strtok_r(tmp, ",", &save); p && off < sizeof(nic); p = strtok_r(NULL, ",", &save), k++)
			off += (size_t)snprintf(nic + off, sizeof(nic) - off, ",hostfwd=tcp:127.0.0.1:%s-10.0.2.15:%u", p,
						7000 + k);
	}
	fflush(NULL);
	g->pid = fork();
	if (g->pid < 0) {
		rc = -errno;
		g->pid = 0;
		snprintf(err, errlen, "cannot start %s: %s", civm, strerror(-rc));
		return rc;
	}
	if (g->pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM); /* explore gone: ci/vm's trap stops its QEMU */
		if (!freopen("/dev/null", "r", stdin) || !freopen(log, "a", stdout) || dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
			_exit(127);
		execv(civm, argv);
		_exit(127);
	}
	setpgid(g->pid, g->pid);
	return 0;
}

int ex_guest_ended(struct ex_guest *g, int wait_ms)
{
	for (int waited = 0;; waited += 200) {
		int st = 0;

		if (g->pid <= 0)
			return 1;
		if (waitpid(g->pid, &st, WNOHANG) == g->pid) {
			g->pid = 0;
			g->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
			return 1;
		}
		if (waited >= wait_ms)
			return 0;
		tick();
	}
}

void ex_guest_kill(struct ex_guest *g)
{
	if (g->pid <= 0)
		return;
	kill(-g->pid, SIGTERM);
	if (!ex_guest_ended(g, GUEST_STOP_S * 1000)) {
		kill(-g->pid, SIGKILL);
		ex_guest_ended(g, 5000);
	}
}

/* Lane l's topology of the boot whose lane 0 is at topo: topo, or topo.L (ci/vm-agents). */
static void lane_path(const char *topo, unsigned l, char *buf, size_t len)
{
	if (l)
		snprintf(buf, len, "%s.%u", topo, l);
	else
		snprintf(buf, len, "%s", topo);
}

/* Wait for boot g->boots's topology at topo (its agents listening), or for the guest's end. */
static int await(struct ex_guest *g, const char *topo, char *err, size_t errlen)
{
	char log[PATH_MAX + 48], why[512], terr[256];
	time_t end = time(NULL) + EX_GUEST_BOOT_S;

	snprintf(log, sizeof(log), "%s/guest.log", g->dir);
	while (access(topo, R_OK) != 0) {
		if (g->stop && g->stop()) {
			ex_guest_kill(g);
			snprintf(err, errlen, "interrupted while the guest booted (boot %u)", g->boots);
			return -EINTR;
		}
		if (ex_guest_ended(g, 0) || time(NULL) >= end) {
			if (g->pid > 0)
				ex_guest_kill(g);
			console_last_line(log, NULL, why, sizeof(why));
			snprintf(err, errlen, "the guest's agents never listened (boot %u, ci/vm exit %d): %.400s",
				 g->boots, g->status, why[0] ? why : "(its log is empty)");
			return -EIO;
		}
		tick();
	}
	for (unsigned l = 0; l < g->lanes; l++) { /* lane 0's file is written last: all are there */
		char path[PATH_MAX + 80];

		lane_path(topo, l, path, sizeof(path));
		if (topo_load(path, &g->lane[l], terr, sizeof(terr)) || g->lane[l].n != g->nodes) {
			ex_guest_kill(g);
			snprintf(err, errlen, "the guest's topology %s: %s", path, terr[0] ? terr : "not one node a node");
			return -EPROTO;
		}
	}
	g->t = g->lane[0];
	return 0;
}

/* Boot g->boots + 1 and wait for its agents. */
static int boot(struct ex_guest *g, char *err, size_t errlen)
{
	char topo[PATH_MAX + 64];
	int rc;

	snprintf(topo, sizeof(topo), "%s/hosts-%u.topo", g->dir, g->boots + 1);
	rc = spawn(g, topo, err, errlen);
	return rc ? rc : await(g, topo, err, errlen);
}

int ex_guest_start(struct ex_guest *g, const char *root, unsigned nodes, unsigned lanes, char *err, size_t errlen)
{
	char token[PATH_MAX + 48];
	int (*stop)(void) = g->stop;
	int rc;

	memset(g, 0, sizeof(*g));
	g->stop = stop;
	g->status = -1;
	if (nodes < 1 || nodes > TOPO_MAX_NODES) {
		snprintf(err, errlen, "the guest holds 1 to %d nodes, not %u", TOPO_MAX_NODES, nodes);
		return -EINVAL;
	}
	if (lanes < 1 || lanes > EX_GUEST_LANES_MAX || nodes * lanes > TOPO_MAX_NODES) {
		snprintf(err, errlen, "the guest serves 1 to %d lanes of %u nodes (%d agents at most), not %u",
			 EX_GUEST_LANES_MAX, nodes, TOPO_MAX_NODES, lanes);
		return -EINVAL;
	}
	g->nodes = nodes;
	g->lanes = lanes;
	snprintf(g->root, sizeof(g->root), "%s", root);
	snprintf(g->dir, sizeof(g->dir), "%s/build/explore-vm-%ld", root, (long)getpid());
	if (mkdir(g->dir, 0700) && errno != EEXIST) {
		rc = -errno;
		snprintf(err, errlen, "cannot make %s: %s", g->dir, strerror(-rc));
		return rc;
	}
	snprintf(token, sizeof(token), "%s/token", g->dir);
	rc = make_token(token);
	if (rc) {
		snprintf(err, errlen, "cannot write the run's secret %s: %s", token, strerror(-rc));
		return rc;
	}
	setenv("RDMACHECK_AGENT_TOKEN", token, 1);
	return boot(g, err, errlen);
}

int ex_guest_reboot(struct ex_guest *g, char *err, size_t errlen)
{
	ex_guest_kill(g);
	return boot(g, err, errlen);
}

void ex_guest_stop(struct ex_guest *g)
{
	char path[PATH_MAX + 80];

	ex_guest_kill(g);
	if (!g->dir[0])
		return;
	for (unsigned b = 1; b <= g->boots; b++) {
		char topo[PATH_MAX + 64];

		snprintf(topo, sizeof(topo), "%s/hosts-%u.topo", g->dir, b);
		for (unsigned l = 0; l < g->lanes; l++) {
			lane_path(topo, l, path, sizeof(path));
			unlink(path);
		}
		snprintf(path, sizeof(path), "%s/console-%u", g->dir, b);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/token", g->dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/guest.log", g->dir);
	unlink(path);
	rmdir(g->dir);
	g->dir[0] = '\0';
}
