/*
 * Unit tests of the agents' network transport (harness/run/remote.c,
 * harness/agent/listen.c): the token file's checks, the mutual HMAC
 * handshake (the right secret is let in; a wrong one, none, or an agent that
 * cannot prove the secret are refused), and a listening agent reached over
 * TCP on loopback that refuses a coordinator without the secret, says so on
 * stderr, and then serves one that has it (its greeting is the line protocol's).
 */
#define _GNU_SOURCE /* pipe2 */
#include "harness/agent/agent.h"
#include "harness/run/proto.h"
#include "harness/run/remote.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/rdmacheck-remote-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A token file holding text, with mode; its path in path. */
static void token(const char *name, const char *text, mode_t mode, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(chmod(path, mode), 0);
}

static void key_of(const char *text, struct remote_key *k)
{
	char path[128], err[256];

	token("k", text, 0600, path, sizeof(path));
	ck_assert_int_eq(remote_key_read(path, k, err, sizeof(err)), 0);
}

START_TEST(test_token_file_checks)
{
	struct remote_key k;
	char path[128], err[256];

	token("good", "0123456789abcdef0123\n", 0600, path, sizeof(path));
	ck_assert_int_eq(remote_key_read(path, &k, err, sizeof(err)), 0);
	ck_assert_uint_eq(k.len, 20); /* the newline is not part of the secret */
	token("open", "0123456789abcdef0123\n", 0644, path, sizeof(path));
	ck_assert_int_eq(remote_key_read(path, &k, err, sizeof(err)), -EPERM);
	ck_assert_ptr_nonnull(strstr(err, "chmod 600"));
	token("short", "short\n", 0600, path, sizeof(path));
	ck_assert_int_eq(remote_key_read(path, &k, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "16 to 256 bytes"));
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(remote_key_read(path, &k, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "none"));
	/* a FIFO no one writes is refused at once, not waited on (lib/common/secret_file.c) */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(remote_key_read(path, &k, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "not a regular file"));
	unlink(path);
	/* a file larger than the longest secret and a CRLF */
	token("long", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		      "0123456789abcdef0123456789abcdef\n", 0600, path, sizeof(path));
	ck_assert_int_eq(remote_key_read(path, &k, err, sizeof(err)), -EFBIG);
	ck_assert_ptr_nonnull(strstr(err, "larger than 258 bytes"));
}
END_TEST

START_TEST(test_split_host_port)
{
	char h[64], p[16];

	ck_assert_int_eq(remote_split("10.0.0.2:7000", h, sizeof(h), p, sizeof(p)), 0);
	ck_assert_str_eq(h, "10.0.0.2");
	ck_assert_str_eq(p, "7000");
	ck_assert_int_eq(remote_split("[::1]:7000", h, sizeof(h), p, sizeof(p)), 0);
	ck_assert_str_eq(h, "::1");
	ck_assert_int_eq(remote_split("node-a:1", h, sizeof(h), p, sizeof(p)), 0);
	ck_assert_str_eq(h, "node-a");
	ck_assert_int_eq(remote_split("nocolon", h, sizeof(h), p, sizeof(p)), -EINVAL);
	ck_assert_int_eq(remote_split(":7000", h, sizeof(h), p, sizeof(p)), -EINVAL);
	ck_assert_int_eq(remote_split("host:", h, sizeof(h), p, sizeof(p)), -EINVAL);
	ck_assert_int_eq(remote_split("[::1:7000", h, sizeof(h), p, sizeof(p)), -EINVAL);
}
END_TEST

/*
 * The agent's side in a child on one end of a socketpair (key agent_key), the
 * coordinator's in this process with coord_key: what remote_offer returns; the
 * child's verdict (0 let in, else refused) in *agent_rc.
 */
static int handshake(const char *agent_key, const char *coord_key, int *agent_rc)
{
	struct remote_key ka, kc;
	int sv[2], st, rc;
	char err[256];
	pid_t pid;

	key_of(agent_key, &ka);
	key_of(coord_key, &kc);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char why[160];

		close(sv[1]);
		_exit(remote_accept(sv[0], &ka, why, sizeof(why)) == 0 ? 0 : 1);
	}
	close(sv[0]);
	rc = remote_offer(sv[1], &kc, err, sizeof(err));
	close(sv[1]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	*agent_rc = WEXITSTATUS(st);
	return rc;
}

START_TEST(test_handshake_right_secret_let_in)
{
	int agent;

	ck_assert_int_eq(handshake("the-run-secret-0123456789", "the-run-secret-0123456789", &agent), 0);
	ck_assert_int_eq(agent, 0);
}
END_TEST

START_TEST(test_handshake_wrong_secret_refused)
{
	int agent;

	ck_assert_int_eq(handshake("the-run-secret-0123456789", "a-guess-at-the-secret-xx", &agent), -EACCES);
	ck_assert_int_eq(agent, 1);
}
END_TEST

START_TEST(test_handshake_no_proof_refused)
{
	struct remote_key k;
	char why[160], line[256];
	int sv[2];

	key_of("the-run-secret-0123456789", &k);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert_int_eq(write(sv[1], "hello\n", 6), 6); /* a peer that is no coordinator */
	ck_assert_int_eq(remote_accept(sv[0], &k, why, sizeof(why)), -EACCES);
	ck_assert_ptr_nonnull(strstr(why, "no proof"));
	ck_assert_int_gt(read(sv[1], line, sizeof(line)), 0); /* it had sent its challenge, nothing else */
	close(sv[0]);
	close(sv[1]);
}
END_TEST

START_TEST(test_handshake_impostor_agent_refused)
{
	/* An "agent" that answers any proof with ok and a made-up MAC: the coordinator refuses it. */
	struct remote_key k;
	char err[256], line[512];
	int sv[2];
	pid_t pid;

	key_of("the-run-secret-0123456789", &k);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		static const char hi[] = "rdmacheck-agent 1 "
					 "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n";
		static const char ok[] = "ok 0000000000000000000000000000000000000000000000000000000000000000\n";

		close(sv[1]);
		if (write(sv[0], hi, sizeof(hi) - 1) < 0 || read(sv[0], line, sizeof(line)) <= 0 ||
		    write(sv[0], ok, sizeof(ok) - 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(sv[0]);
	ck_assert_int_eq(remote_offer(sv[1], &k, err, sizeof(err)), -EACCES);
	ck_assert_ptr_nonnull(strstr(err, "could not prove"));
	close(sv[1]);
	waitpid(pid, NULL, 0);
}
END_TEST

START_TEST(test_listening_agent_refuses_then_serves)
{
	struct agent_node node = { "n0", "no-such-rdma-device", "lo", "127.0.0.1", 1 };
	struct remote_key good, bad;
	char bound[128], err[256], msg[512], logpath[160];
	int lfd, fd, st;
	FILE *log;
	pid_t pid;

	key_of("the-run-secret-0123456789", &good);
	key_of("not-the-run-secret-98765", &bad);
	lfd = agent_bind("127.0.0.1:0", bound, sizeof(bound), err, sizeof(err));
	ck_assert_int_ge(lfd, 0);
	snprintf(logpath, sizeof(logpath), "%s/agent.log", dir);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int lf = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(lf, 2);
		_exit(agent_listen(lfd, &good, &node, 1000, 1, 0) == 0 ? 0 : 1);
	}
	close(lfd);
	ck_assert_int_eq(remote_dial(bound, &bad, 2000, err, sizeof(err)), -EACCES);
	fd = remote_dial(bound, &good, 2000, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	/* past the handshake, the line protocol: the agent greets (here with the error of a device
	 * this host does not have) */
	{
		struct proto_rd rd;

		proto_rd_reset(&rd);
		ck_assert_int_ge(proto_recv(fd, &rd, msg, sizeof(msg), 5000), 0);
	}
	ck_assert_msg(strncmp(msg, "ok hello", 8) == 0 || strncmp(msg, "err ", 4) == 0, "%s", msg);
	close(fd);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0); /* --sessions=1: done after the one it served */
	log = fopen(logpath, "r");
	ck_assert_ptr_nonnull(log);
	msg[fread(msg, 1, sizeof(msg) - 1, log)] = '\0';
	fclose(log);
	ck_assert_msg(strstr(msg, "rdmacheck-agent: refused 127.0.0.1:") && strstr(msg, "wrong secret"), "%s", msg);
	ck_assert_msg(strstr(msg, "holds the secret: serving node n0"), "%s", msg);
}
END_TEST

Suite *suite_test_remote(void)
{
	Suite *s = suite_create("test_remote");
	TCase *tc = tcase_create("remote");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_token_file_checks);
	tcase_add_test(tc, test_split_host_port);
	tcase_add_test(tc, test_handshake_right_secret_let_in);
	tcase_add_test(tc, test_handshake_wrong_secret_refused);
	tcase_add_test(tc, test_handshake_no_proof_refused);
	tcase_add_test(tc, test_handshake_impostor_agent_refused);
	tcase_add_test(tc, test_listening_agent_refuses_then_serves);
	suite_add_tcase(s, tc);
	return s;
}
