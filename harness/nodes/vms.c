/* vms.c — `run --stack=vms`: a guest per node under ci/vms --serve (vms.h). */
#define _GNU_SOURCE /* setpgid, kill */
#include "harness/nodes/vms.h"
#include "harness/nodes/death.h"
#include "harness/base/guard.h"
#include "harness/base/proc.h"
#include "harness/run/proto.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BOOT_S 600     /* a guest's boot under TCG, several at once on two cores */
#define STOP_S 20      /* what ci/vms gets to stop its guests before it is killed */

static const char names[] = "abcdefghijklmnop"; /* ci/vms's node names */

static void tick(void)
{
	nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
}

/* The number in ci/vms's file DIR/NODE.what (NODE NUL: DIR/what), or -1 when there is none yet. */
static long num_file(const struct vms *v, int node, const char *what)
{
	char path[PATH_MAX + 64];
	long x = -1;
	FILE *f;

	if (node >= 0)
		snprintf(path, sizeof(path), "%s/%c.%s", v->dir, names[node], what);
	else
		snprintf(path, sizeof(path), "%s/%s", v->dir, what);
	if (!(f = fopen(path, "r")))
		return -1;
	if (fscanf(f, "%ld", &x) != 1)
		x = -1;
	fclose(f);
	return x;
}

/* Whether ci/vms still runs (reaped here when not; its status into *st). */
static int alive(struct vms *v, int *st)
{
	if (v->pid > 0 && waitpid(v->pid, st, WNOHANG) == v->pid)
		v->pid = 0;
	return v->pid > 0;
}

/* ci/vms ended with st: the reason and its log's last line into err; -EPIPE. */
static int gone(const struct vms *v, int st, char *err, size_t errlen)
{
	char last[300] = "";
	FILE *f = fopen(v->log, "r");

	while (f && fgets(last, sizeof(last), f))
		if (strstr(last, "ci/vms: node") && strstr(last, "never answered"))
			break; /* the first reason: the console lines follow it */
	if (f)
		fclose(f);
	last[strcspn(last, "\n")] = '\0';
	snprintf(err, errlen, "ci/vms ended (exit %d)%s%s", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
		 last[0] ? ": " : "", last);
	return -EPIPE;
}

/* Load DIR/hosts.topo once it has nodes nodes, waiting up to BOOT_S. 0 or -errno with err. */
static int await_topo(struct vms *v, size_t nodes, struct topo *t, char *err, size_t errlen)
{
	char path[PATH_MAX + 16], ready[PATH_MAX + 16], terr[256];
	double t0 = proto_now_s();
	int st = 0;

	snprintf(path, sizeof(path), "%s/hosts.topo", v->dir);
	snprintf(ready, sizeof(ready), "%s/ready", v->dir);
	for (;;) {
		/* ready: every first boot answered; hosts.topo is rewritten once grown nodes answer */
		if (access(ready, F_OK) == 0 && topo_load(path, t, terr, sizeof(terr)) == 0 && t->n >= nodes) {
			v->n = t->n;
			return 0;
		}
		if (!alive(v, &st))
			return gone(v, st, err, errlen);
		if (proto_now_s() - t0 > BOOT_S) {
			snprintf(err, errlen, "the node guests did not come up within %d s", BOOT_S);
			return -ETIMEDOUT;
		}
		tick();
	}
}

int vms_start(struct vms *v, const char *root, size_t nodes, int mem_mb, const char *log, struct topo *t, char *err,
	      size_t errlen)
{
	char civms[PATH_MAX + 16], n[16], mem[32], dir[PATH_MAX + 16], port[32], token[PATH_MAX + 16];
	char *argv[] = { civms, n, mem, dir, port, "--serve", NULL };
	int p[2], rc;
	pid_t self = getpid();

	memset(v, 0, sizeof(*v));
	v->in = -1;
	snprintf(v->log, sizeof(v->log), "%s", log);
	snprintf(v->dir, sizeof(v->dir), "%s/build/run/vms-%ld", root, (long)getpid());
	snprintf(civms, sizeof(civms), "%s/ci/vms", root);
	snprintf(n, sizeof(n), "%zu", nodes);
	snprintf(mem, sizeof(mem), "--mem=%d", mem_mb);
	snprintf(dir, sizeof(dir), "--dir=%s", v->dir);
	/* the agents' ports: one block of 16 per run, so that runs side by side do not meet */
	snprintf(port, sizeof(port), "--base-port=%ld", 20000 + (long)(getpid() % 1000) * 16);
	if (pipe2(p, O_CLOEXEC)) {
		rc = -errno;
		snprintf(err, errlen, "pipe: %s", strerror(-rc));
		return rc;
	}
	fflush(NULL);
	v->pid = fork();
	if (v->pid < 0) {
		rc = -errno;
		close(p[0]);
		close(p[1]);
		snprintf(err, errlen, "cannot start %s: %s", civms, strerror(-rc));
		return rc;
	}
	if (v->pid == 0) {
		setpgid(0, 0);
		/* this run's death: ci/vms's standard input ends (it stops its guests), its guard stops the group */
		if (proc_die_with(self, SIGTERM) == -ESRCH)
			_exit(127);
		if (dup2(p[0], 0) < 0 || !freopen("/dev/null", "w", stdout) || !freopen(log, "a", stderr))
			_exit(127);
		execv(civms, argv);
		_exit(127);
	}
	setpgid(v->pid, v->pid);
	v->pgid = v->pid;
	guard_group(v->pgid, 1);
	close(p[0]);
	v->in = p[1];
	if ((rc = await_topo(v, nodes, t, err, errlen)) != 0) {
		vms_stop(v);
		return rc;
	}
	snprintf(token, sizeof(token), "%s/token", v->dir);
	setenv("RDMACHECK_AGENT_TOKEN", token, 1);
	for (size_t i = 0; i < v->n; i++)
		v->boot[i] = (unsigned)num_file(v, (int)i, "boot");
	return 0;
}

int vms_grow(struct vms *v, size_t nodes, struct topo *t, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/grow", v->dir);
	if (!(f = fopen(path, "w")) || fprintf(f, "%zu\n", nodes) < 0 || fclose(f)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -EIO;
	}
	return await_topo(v, nodes, t, err, errlen);
}

int vms_before(struct vms *v, size_t nodes, char *err, size_t errlen)
{
	double t0 = proto_now_s();
	int st = 0;

	for (size_t i = 0; i < nodes && i < v->n; i++) {
		long boot;

		if (v->lost[i]) {
			snprintf(err, errlen, "node %c's guest did not come back within %d s after it ended", names[i],
				 BOOT_S);
			return -EHOSTDOWN;
		}
		while ((boot = num_file(v, (int)i, "boot")) < 0 || num_file(v, (int)i, "up") != boot) {
			if (!alive(v, &st))
				return gone(v, st, err, errlen);
			if (proto_now_s() - t0 > BOOT_S) {
				v->lost[i] = 1;
				snprintf(err, errlen, "node %c's guest did not come back within %d s", names[i], BOOT_S);
				return -ETIMEDOUT;
			}
			tick();
		}
		v->boot[i] = (unsigned)boot;
	}
	return 0;
}

/* The first node in [0, nodes) whose scenario-time boot ended (its ci/vm status into *status), or -1. */
static int ended(const struct vms *v, size_t nodes, long *status)
{
	for (size_t i = 0; i < nodes && i < v->n; i++) {
		char what[32];

		snprintf(what, sizeof(what), "exit-%u", v->boot[i]);
		if ((*status = num_file(v, (int)i, what)) >= 0)
			return (int)i;
	}
	return -1;
}

int vms_after(struct vms *v, size_t nodes, int wait_ms, struct result *r, const struct rec_state *s, char **tail)
{
	double t0 = proto_now_s();
	long status = -1;
	int node = ended(v, nodes, &status);
	char console[PATH_MAX + 32], who[32];

	while (node < 0 && r->v == V_ERROR && (proto_now_s() - t0) * 1000 < wait_ms && v->pid > 0) {
		tick();
		node = ended(v, nodes, &status);
	}
	if (node < 0 || (status != 120 && status != 121))
		return node; /* none ended; or killed: the ERROR naming the node stands */
	snprintf(console, sizeof(console), "%s/%c.console-%u", v->dir, names[node], v->boot[node]);
	snprintf(who, sizeof(who), " of node %c", names[node]);
	death_judge(r, s, status == 120, who, console, tail);
	return node;
}

void vms_reboot(struct vms *v, size_t node)
{
	char path[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%c.reboot", v->dir, names[node]);
	if ((f = fopen(path, "w")))
		fclose(f);
}

void vms_stop(struct vms *v)
{
	int st;

	if (v->in >= 0)
		close(v->in); /* ci/vms stops its guests and removes its directory */
	v->in = -1;
	for (int i = 0; v->pid > 0 && i < STOP_S * 5; i++) {
		if (!alive(v, &st))
			break;
		tick();
	}
	if (v->pid > 0) {
		kill(-v->pid, SIGTERM);
		sleep(1);
		kill(-v->pid, SIGKILL);
		waitpid(v->pid, &st, 0);
		v->pid = 0;
	}
	if (v->pgid > 0)
		guard_group(v->pgid, 0);
	v->pgid = 0;
}
