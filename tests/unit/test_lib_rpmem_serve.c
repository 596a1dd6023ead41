/*
 * Host-side tests of the daemon's control channel over TCP (lib/rpmem/serve.c,
 * used by rpmem-connect and a target agent's rpmem_serve): the one-time key
 * (fresh, checked a byte at a time so the daemon's bytes after it stay
 * unread, refused when wrong, short or too long), and a dial on loopback whose
 * relay carries both directions and ends when the daemon's side ends.
 */
#define _DEFAULT_SOURCE
#include "lib/rpmem/rpmem_int.h"
#include "harness/run/proto.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* A socketpair whose one end got text; the other end is returned in *rd. */
static void fed(int *rd, const char *text, int close_after)
{
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert_int_eq(write(sv[1], text, strlen(text)), (ssize_t)strlen(text));
	if (close_after)
		close(sv[1]);
	*rd = sv[0];
}

START_TEST(test_key_is_fresh_hex)
{
	char a[2 * RPMEM_KEY_BYTES + 1], b[sizeof(a)];

	ck_assert_int_eq(rpmem_key_new(a, sizeof(a)), 0);
	ck_assert_int_eq(rpmem_key_new(b, sizeof(b)), 0);
	ck_assert_uint_eq(strlen(a), 2 * RPMEM_KEY_BYTES);
	ck_assert_uint_eq(strspn(a, "0123456789abcdef"), 2 * RPMEM_KEY_BYTES);
	ck_assert_str_ne(a, b);
	ck_assert_int_eq(rpmem_key_new(a, 2 * RPMEM_KEY_BYTES), -EINVAL);
}
END_TEST

START_TEST(test_key_check_takes_only_its_line)
{
	char rest[8] = "";
	int fd;

	fed(&fd, "k3y\nDAEMON", 0);
	ck_assert_int_eq(rpmem_key_check(fd, "k3y", 1000), 0);
	ck_assert_int_eq(read(fd, rest, sizeof(rest) - 1), 6);
	ck_assert_str_eq(rest, "DAEMON");
	close(fd);
}
END_TEST

START_TEST(test_key_check_refuses)
{
	int fd;

	fed(&fd, "k3z\n", 0); /* wrong */
	ck_assert_int_eq(rpmem_key_check(fd, "k3y", 1000), -EACCES);
	close(fd);
	fed(&fd, "k3\n", 0); /* a prefix */
	ck_assert_int_eq(rpmem_key_check(fd, "k3y", 1000), -EACCES);
	close(fd);
	fed(&fd, "k3yy\n", 0); /* longer */
	ck_assert_int_eq(rpmem_key_check(fd, "k3y", 1000), -EACCES);
	close(fd);
	fed(&fd, "0123456789012345678901234567890123456789", 0); /* no newline, past any key */
	ck_assert_int_eq(rpmem_key_check(fd, "k3y", 1000), -EACCES);
	close(fd);
	fed(&fd, "k3y", 1); /* EOF before the newline */
	ck_assert_int_eq(rpmem_key_check(fd, "k3y", 1000), -EPROTO);
	close(fd);
	fed(&fd, "k3", 0); /* silence */
	ck_assert_int_eq(rpmem_key_check(fd, "k3y", 50), -ETIMEDOUT);
	close(fd);
}
END_TEST

/*
 * The key's time limit is the line's, not a byte's (issue 29.9): a peer
 * sending a byte every 200 ms is cut off at the limit (1 s), not let go on
 * until the line is too long.
 */
START_TEST(test_key_check_deadline_is_the_lines)
{
	int sv[2], rc;
	int64_t t0;
	pid_t pid;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(sv[0]);
		for (int i = 0; i < 40 && write(sv[1], "a", 1) == 1; i++)
			usleep(200000);
		_exit(0);
	}
	close(sv[1]);
	t0 = proto_now_ms();
	rc = rpmem_key_check(sv[0], "k3y", 1000);
	ck_assert_int_eq(rc, -ETIMEDOUT);
	ck_assert_int_lt(proto_now_ms() - t0, 1500);
	close(sv[0]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
END_TEST

START_TEST(test_dial_sends_key_and_relay_carries_both_ways)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sin);
	int lfd = socket(AF_INET, SOCK_STREAM, 0), in[2], out[2], fd, c, ws;
	char port[16], buf[16] = "";
	pid_t pid;

	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	ck_assert_int_eq(listen(lfd, 1), 0);
	ck_assert_int_eq(getsockname(lfd, (struct sockaddr *)&sin, &sl), 0);
	snprintf(port, sizeof(port), "%u", ntohs(sin.sin_port));
	ck_assert_int_eq(rpmem_dial("not-an-address", port, "k"), -EINVAL);
	fd = rpmem_dial("127.0.0.1", port, "k3y");
	ck_assert_int_ge(fd, 0);
	c = accept(lfd, NULL, NULL);
	ck_assert_int_ge(c, 0);
	ck_assert_int_eq(rpmem_key_check(c, "k3y", 1000), 0);
	ck_assert_int_eq(pipe(in), 0);
	ck_assert_int_eq(pipe(out), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(in[1]);
		close(out[0]);
		close(c); /* the daemon's end is the parent's only */
		close(lfd);
		_exit(rpmem_relay(in[0], out[1], fd) ? 1 : 0);
	}
	close(in[0]);
	close(out[1]);
	close(fd);
	ck_assert_int_eq(write(in[1], "ping", 4), 4); /* client -> daemon */
	ck_assert_int_eq(read(c, buf, 4), 4);
	ck_assert_int_eq(memcmp(buf, "ping", 4), 0);
	ck_assert_int_eq(write(c, "pong", 4), 4); /* daemon -> client */
	ck_assert_int_eq(read(out[0], buf, 4), 4);
	ck_assert_int_eq(memcmp(buf, "pong", 4), 0);
	close(in[1]); /* the client closes its channel: the daemon sees EOF */
	ck_assert_int_eq(read(c, buf, sizeof(buf)), 0);
	close(c); /* the daemon ends: so does the relay */
	ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
	ck_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
	ck_assert_int_eq(read(out[0], buf, sizeof(buf)), 0);
	close(out[0]);
	close(lfd);
}
END_TEST

Suite *suite_test_lib_rpmem_serve(void)
{
	Suite *s = suite_create("lib_rpmem_serve");
	TCase *tc = tcase_create("host");

	tcase_add_test(tc, test_key_is_fresh_hex);
	tcase_add_test(tc, test_key_check_takes_only_its_line);
	tcase_add_test(tc, test_key_check_refuses);
	tcase_add_test(tc, test_key_check_deadline_is_the_lines);
	tcase_add_test(tc, test_dial_sends_key_and_relay_carries_both_ways);
	suite_add_tcase(s, tc);
	return s;
}
