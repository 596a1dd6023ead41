/*
 * Unit tests of explore's kept agents on a guest (harness/explore/agents.c,
 * issue 31): a case whose agent ends while the guest runs is the agent's
 * death (an ERROR, as `run` judges an agent that died), not the guest's
 * hang. The guest here is a process that sleeps (it runs; its ci/vm is one
 * that cannot start, so the boot that follows fails at once), its one node's
 * agent a fake one listening on 127.0.0.1 that proves the run's secret
 * (remote.h), answers hello and reset, and exits, listener and all, at the
 * case's first alloc_pd.
 */
#include "harness/explore/agents.h"
#include "harness/run/proto.h"
#include "harness/run/remote.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

#define HELLO "ok hello node=a gid=fe800000000000000000000000000001 driver=rxe kernel=6.1"

/* A fake agent's answer to the request msg on fd: hello and reset as an agent answers them, ok to the rest. */
static void answer(int fd, const char *msg)
{
	if (proto_is(msg, "hello"))
		proto_send(fd, HELLO);
	else if (proto_is(msg, "reset"))
		proto_send(fd, "ok objs=0 fams=0");
	else
		proto_send(fd, "ok");
}

/* A socket listening on 127.0.0.1 at a port of the kernel's choice, that port into *port. */
static int listen_loopback(unsigned *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	int lfd = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(lfd, 4), 0);
	ck_assert_int_eq(getsockname(lfd, (struct sockaddr *)&sa, &sl), 0);
	*port = ntohs(sa.sin_port);
	return lfd;
}

/*
 * A fresh directory from the mkdtemp template tmpl into dir, the run's secret
 * in its file token (path into path, mode 0600, RDMACHECK_AGENT_TOKEN naming
 * it), read back into *k as the coordinator reads it.
 */
static void token_setup(const char *tmpl, const char *secret, char *path, size_t size, struct remote_key *k)
{
	char err[256];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", tmpl);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, size, "%s/token", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(secret, f);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(remote_key_read(path, k, err, sizeof(err)), 0);
	setenv("RDMACHECK_AGENT_TOKEN", path, 1);
}

/* The fake agent's session on fd: 1 when it must end (at alloc_pd), 0 when the coordinator quit. */
static int serve(int fd)
{
	struct proto_rd rd = { 0 };
	char msg[PROTO_LINE_MAX];

	proto_send(fd, HELLO);
	while (proto_recv(fd, &rd, msg, sizeof(msg), 20000) >= 0) {
		if (proto_is(msg, "alloc_pd"))
			return 1;
		answer(fd, msg);
		if (proto_is(msg, "quit"))
			break;
	}
	return 0;
}

/* A fake listening agent with key k; its port into *port. Its pid. */
static pid_t fake_listener(const struct remote_key *k, unsigned *port)
{
	int lfd = listen_loopback(port);
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char why[160];

		for (int sessions = 0; sessions < 8; sessions++) {
			int fd = accept(lfd, NULL, NULL);

			if (fd < 0 || remote_accept(fd, k, why, sizeof(why)))
				_exit(2);
			if (serve(fd))
				_exit(0); /* the agent ends: its listener with it */
			close(fd);
		}
		_exit(0);
	}
	close(lfd);
	return pid;
}

START_TEST(test_an_agent_that_ends_while_the_guest_runs_is_no_guest_hang)
{
	static const char secret[] = "0123456789abcdef0123456789abcdef";
	struct ex_guest *g = calloc(1, sizeof(*g));
	struct ex_agents *a = calloc(1, sizeof(*a));
	struct ex_case c = { 0 };
	struct result r;
	struct remote_key k;
	struct m_profile prof;
	char path[128];
	unsigned port;
	pid_t agent;
	int st = 0;

	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_nonnull(a);
	signal(SIGPIPE, SIG_IGN);
	token_setup("/tmp/test-explore-agents-XXXXXX", secret, path, sizeof(path), &k);
	agent = fake_listener(&k, &port);

	/* The guest: it runs (a sleeping process of its own group); its next boot cannot start. */
	g->status = -1;
	g->nodes = 1;
	snprintf(g->root, sizeof(g->root), "%s/no-checkout", dir);
	snprintf(g->dir, sizeof(g->dir), "%s", dir);
	g->pid = fork();
	ck_assert_int_ge(g->pid, 0);
	if (g->pid == 0) {
		setpgid(0, 0);
		signal(SIGTERM, SIG_DFL); /* not the test runner's handler */
		for (;;)
			pause();
	}
	setpgid(g->pid, g->pid);
	g->t.n = 1;
	g->t.mode = TOPO_MODE_HOSTS;
	snprintf(g->t.node[0].name, sizeof(g->t.node[0].name), "a");
	snprintf(g->t.node[0].agent, sizeof(g->t.node[0].agent), "127.0.0.1:%u", port);

	ck_assert_int_eq(m_profile_get("rxe", 0, &prof), 0);
	ck_assert_int_eq(ex_agents_open(a, &g->t, g, &prof, 2000, 1), 0);
	c.nnodes = 1;
	ck_assert_int_eq(ex_case_push(&c, "a: alloc_pd pd"), 0);
	/* the agent ends under the case; the guest's new boot fails (no ci/vm): -EIO */
	ck_assert_int_eq(ex_agents_run(a, &c, &r), -EIO);
	ck_assert_msg(r.v == V_ERROR, "verdict %s: %s", verdict_str(r.v), r.reason);
	ck_assert_ptr_null(strstr(r.reason, "TIMEOUT"));
	ck_assert_ptr_nonnull(strstr(r.reason, "the agent ended while the guest ran"));
	ck_assert_int_ne(g->status, 121); /* not a hung guest */

	result_clear(&r);
	ex_case_free(&c);
	ex_agents_close(a);
	ex_guest_kill(g);
	waitpid(agent, &st, 0);
	unsetenv("RDMACHECK_AGENT_TOKEN");
	unlink(path);
	snprintf(path, sizeof(path), "%s/guest.log", dir);
	unlink(path);
	rmdir(dir);
	free(a);
	free(g);
}
END_TEST

/* A fake agent's session on fd that answers every request (lane_listener): each one's line into log. */
static void serve_all(int fd, FILE *log)
{
	struct proto_rd rd = { 0 };
	char msg[PROTO_LINE_MAX];

	proto_send(fd, HELLO);
	while (proto_recv(fd, &rd, msg, sizeof(msg), 20000) >= 0) {
		answer(fd, msg);
		fprintf(log, "%s\n", msg);
		fflush(log);
		if (proto_is(msg, "quit"))
			break;
	}
}

/* A fake listening agent with key k that serves one session (serve_all: a lane's), logging into path; its port. */
static pid_t lane_listener(const struct remote_key *k, const char *path, unsigned *port)
{
	int lfd = listen_loopback(port);
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		FILE *log = fopen(path, "w");
		char why[160];

		int fd = log ? accept(lfd, NULL, NULL) : -1;

		if (fd < 0 || remote_accept(fd, k, why, sizeof(why)))
			_exit(2);
		serve_all(fd, log);
		close(fd);
		_exit(0);
	}
	close(lfd);
	return pid;
}

/*
 * Two lanes, each its own agent: a batch of four cases goes to them in two
 * contiguous shares (cases 0-1 on lane 0, 2-3 on lane 1), every case judged
 * as alone (a PASS each), the steps begun counted once.
 */
START_TEST(test_lanes_share_a_batch_out_and_judge_each_case)
{
	static const char secret[] = "0123456789abcdef0123456789abcdef";
	struct ex_agents *a = calloc(2, sizeof(*a));
	struct topo *t = calloc(2, sizeof(*t));
	struct ex_case c[4] = { { 0 } };
	struct result r[4];
	struct remote_key k;
	struct m_profile prof;
	char path[128], logs[2][128], line[64];
	unsigned port[2];
	unsigned long steps = 0;
	pid_t agent[2];
	FILE *f;
	int st = 0;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(t);
	signal(SIGPIPE, SIG_IGN);
	token_setup("/tmp/test-explore-lanes-XXXXXX", secret, path, sizeof(path), &k);
	ck_assert_int_eq(m_profile_get("rxe", 0, &prof), 0);
	for (int l = 0; l < 2; l++) {
		snprintf(logs[l], sizeof(logs[l]), "%s/lane%d.log", dir, l);
		agent[l] = lane_listener(&k, logs[l], &port[l]);
		t[l].n = 1;
		t[l].mode = TOPO_MODE_HOSTS;
		snprintf(t[l].node[0].name, sizeof(t[l].node[0].name), "a");
		snprintf(t[l].node[0].agent, sizeof(t[l].node[0].agent), "127.0.0.1:%u", port[l]);
		ck_assert_int_eq(ex_agents_open(&a[l], &t[l], NULL, &prof, 2000, 0), 0);
	}
	for (int i = 0; i < 4; i++) {
		c[i].nnodes = 1;
		snprintf(line, sizeof(line), "a: alloc_pd pd%d", i);
		ck_assert_int_eq(ex_case_push(&c[i], line), 0);
	}
	ck_assert_int_eq(ex_agents_run_lanes(a, 2, c, 4, r, &steps), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_msg(r[i].v == V_PASS, "case %d: %s: %s", i, verdict_str(r[i].v), r[i].reason);
	ck_assert_uint_eq(steps, 4);
	for (int l = 0; l < 2; l++) {
		ex_agents_close(&a[l]);
		waitpid(agent[l], &st, 0);
	}
	{
		unsigned n0 = 0, n1 = 0;
		char buf[PROTO_LINE_MAX + 2];

		for (int l = 0; l < 2; l++) {
			f = fopen(logs[l], "r");
			ck_assert_ptr_nonnull(f);
			while (fgets(buf, sizeof(buf), f))
				if (strncmp(buf, "alloc_pd", 8) == 0)
					*(l ? &n1 : &n0) += 1;
			fclose(f);
		}
		ck_assert_uint_eq(n0, 2); /* cases 0-1 */
		ck_assert_uint_eq(n1, 2); /* cases 2-3 */
	}
	for (int i = 0; i < 4; i++) {
		result_clear(&r[i]);
		ex_case_free(&c[i]);
	}
	unsetenv("RDMACHECK_AGENT_TOKEN");
	unlink(path);
	unlink(logs[0]);
	unlink(logs[1]);
	rmdir(dir);
	free(a);
	free(t);
}
END_TEST

/* The alloc_pd lines lane l's agent of node a logged into path. */
static unsigned pd_lines(const char *path)
{
	char buf[PROTO_LINE_MAX + 2];
	unsigned n = 0;
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(buf, sizeof(buf), f))
		n += strncmp(buf, "alloc_pd", 8) == 0;
	fclose(f);
	return n;
}

/*
 * A case the model says may kill the kernel (rxe 6.1: a LOCAL_INV of an unbound
 * type-2 window, verbs/057) is not run in its lane's share, where its death would
 * take the other lanes' cases in flight with it, but after the lanes, alone, on
 * lane 0: of cases 0-1 (lane 0) and 2-3 (lane 1), case 3 being that one, lane 1
 * runs case 2 only and lane 0 three.
 */
START_TEST(test_lanes_leave_a_case_that_may_kill_for_after)
{
	static const char secret[] = "0123456789abcdef0123456789abcdef";
	static const char *const kill[] = { "b: alloc_pd pd", "b: create_qp q pd=pd", "a: create_qp q pd=pd",
					    "connect a.q b.q", "a: alloc_mw w pd=pd type=2", "a: local_inv q w" };
	struct ex_agents *a = calloc(2, sizeof(*a));
	struct topo *t = calloc(2, sizeof(*t));
	struct ex_case c[4] = { { 0 } };
	struct result r[4];
	struct remote_key k;
	struct m_profile prof;
	char path[128], logs[2][2][128], line[64];
	unsigned port;
	unsigned long steps = 0;
	pid_t agent[2][2];
	int st = 0;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(t);
	signal(SIGPIPE, SIG_IGN);
	token_setup("/tmp/test-explore-alone-XXXXXX", secret, path, sizeof(path), &k);
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &prof), 0);
	for (int l = 0; l < 2; l++) {
		t[l].n = 2;
		t[l].mode = TOPO_MODE_HOSTS;
		for (int nd = 0; nd < 2; nd++) {
			snprintf(logs[l][nd], sizeof(logs[l][nd]), "%s/lane%d-%d.log", dir, l, nd);
			agent[l][nd] = lane_listener(&k, logs[l][nd], &port);
			snprintf(t[l].node[nd].name, sizeof(t[l].node[nd].name), "%c", 'a' + nd);
			snprintf(t[l].node[nd].agent, sizeof(t[l].node[nd].agent), "127.0.0.1:%u", port);
		}
		ck_assert_int_eq(ex_agents_open(&a[l], &t[l], NULL, &prof, 2000, 1), 0);
	}
	for (int i = 0; i < 4; i++) {
		c[i].nnodes = 2;
		snprintf(line, sizeof(line), "a: alloc_pd pd");
		ck_assert_int_eq(ex_case_push(&c[i], line), 0);
		for (size_t j = 0; i == 3 && j < sizeof(kill) / sizeof(kill[0]); j++)
			ck_assert_int_eq(ex_case_push(&c[i], kill[j]), 0);
	}
	ck_assert_int_eq(ex_agents_run_lanes(a, 2, c, 4, r, &steps), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_msg(r[i].v == V_PASS, "case %d: %s: %s", i, verdict_str(r[i].v), r[i].reason);
	for (int l = 0; l < 2; l++) {
		ex_agents_close(&a[l]);
		for (int nd = 0; nd < 2; nd++)
			waitpid(agent[l][nd], &st, 0);
	}
	ck_assert_uint_eq(pd_lines(logs[0][0]), 3); /* cases 0-1, then 3 */
	ck_assert_uint_eq(pd_lines(logs[1][0]), 1); /* case 2 */
	for (int i = 0; i < 4; i++) {
		result_clear(&r[i]);
		ex_case_free(&c[i]);
	}
	unsetenv("RDMACHECK_AGENT_TOKEN");
	unlink(path);
	for (int l = 0; l < 2; l++)
		for (int nd = 0; nd < 2; nd++)
			unlink(logs[l][nd]);
	rmdir(dir);
	free(a);
	free(t);
}
END_TEST

Suite *suite_test_explore_agents(void)
{
	Suite *s = suite_create("test_explore_agents");
	TCase *tc = tcase_create("agents");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_an_agent_that_ends_while_the_guest_runs_is_no_guest_hang);
	tcase_add_test(tc, test_lanes_share_a_batch_out_and_judge_each_case);
	tcase_add_test(tc, test_lanes_leave_a_case_that_may_kill_for_after);
	suite_add_tcase(s, tc);
	return s;
}
