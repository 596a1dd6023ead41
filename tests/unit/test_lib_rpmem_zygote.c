/*
 * Host-side tests of rpmemd-zygote (lib/rpmem/zygote.c, zygote_main.c) and of
 * the client's in-process channel (rpmem_set_channel, client.c), the two ways
 * explore's kept agents start a target's daemon without an exec per call
 * (issue 31): a session the zygote forked serves a remove in the root its
 * argv names, through a channel the library dialed itself, with RPMEM_CMD a
 * command that does not exist (without the channel: ECONNREFUSED). No RDMA
 * device is needed: a remove touches none.
 */
#define _DEFAULT_SOURCE
#include "lib/rpmem/client.h"
#include "lib/rpmem/rpmem_int.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static struct {
	char port[16], key[2 * RPMEM_KEY_BYTES + 1];
	int dials;
} at;

static int dial(void *arg)
{
	(void)arg;
	at.dials++;
	return rpmem_dial("127.0.0.1", at.port, at.key);
}

static int refused(void *arg)
{
	(void)arg;
	return -ECONNREFUSED;
}

/* A listening socket on loopback, its port in at.port and a fresh key in at.key. */
static int listener(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sin);
	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	ck_assert_int_eq(listen(lfd, RPMEM_KEY_PEERS_MAX), 0);
	ck_assert_int_eq(getsockname(lfd, (struct sockaddr *)&sin, &sl), 0);
	snprintf(at.port, sizeof(at.port), "%u", ntohs(sin.sin_port));
	ck_assert_int_eq(rpmem_key_new(at.key, sizeof(at.key)), 0);
	return lfd;
}

/* build/rpmemd-zygote, next to the directory of this test binary (build/tests). */
static void zygote_path(char *out, size_t cap)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	ck_assert_ptr_nonnull(slash = strrchr(self, '/'));
	*slash = '\0';
	ck_assert_int_lt(snprintf(out, cap, "%s/../rpmemd-zygote", self), (int)cap);
	ck_assert_msg(access(out, X_OK) == 0, "%s not built (make)", out);
}

START_TEST(test_zygote_session_serves_over_the_channel)
{
	char exe[PATH_MAX], root[] = "/tmp/rdmacheck-zygote.XXXXXX", set[PATH_MAX + 16];
	const char *argv[] = { "rpmemd-rpma", "-c", "/dev/null", "--poolset-dir", root, NULL };
	int zsock, lfd, ws, fd;
	pid_t zpid, s1, s2;

	zygote_path(exe, sizeof(exe));
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(set, sizeof(set), "%s/x.set", root);
	fd = open(set, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "PMEMPOOLSET\n2097152 x.part0\n", 28), 28);
	close(fd);
	setenv("RPMEM_SSH", "", 1);
	setenv("RPMEM_CMD", "/nonexistent/rpmemd", 1);
	ck_assert_int_eq(rpmem_zygote_start(exe, &zpid, &zsock), 0);

	/* a session: not this process's child; it removes the pool set in its root */
	lfd = listener();
	s1 = rpmem_zygote_serve(zsock, lfd, at.key, 5000, argv);
	close(lfd);
	ck_assert_int_gt(s1, 0);
	ck_assert_int_eq(waitpid(s1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
	rpmem_set_channel(dial, NULL);
	ck_assert_msg(rpmem_remove("127.0.0.1", "x.set", RPMEM_REMOVE_FORCE | RPMEM_REMOVE_POOL_SET) == 0, "%s",
		      rpmem_errormsg());
	ck_assert_int_eq(at.dials, 1);
	ck_assert_int_eq(access(set, F_OK), -1);

	/* the next session is another process (the spare forked after the first was handed out) */
	lfd = listener();
	s2 = rpmem_zygote_serve(zsock, lfd, at.key, 5000, argv);
	close(lfd);
	ck_assert_int_gt(s2, 0);
	ck_assert_int_ne(s2, s1);
	errno = 0;
	ck_assert_int_eq(rpmem_remove("127.0.0.1", "x.set", 0), -1); /* gone: the daemon's answer */
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(at.dials, 2);

	/* a dial that fails is a daemon that cannot start; without the channel, the command */
	rpmem_set_channel(refused, NULL);
	errno = 0;
	ck_assert_int_eq(rpmem_remove("127.0.0.1", "x.set", 0), -1);
	ck_assert_int_eq(errno, ECONNREFUSED);
	rpmem_set_channel(NULL, NULL);
	errno = 0;
	ck_assert_int_eq(rpmem_remove("127.0.0.1", "x.set", 0), -1);
	ck_assert_int_eq(errno, ECONNREFUSED);
	ck_assert_int_eq(at.dials, 2);

	/* a request without the daemon's words is refused; at EOF of its socket the zygote ends */
	lfd = listener();
	ck_assert_int_eq(rpmem_zygote_serve(zsock, lfd, at.key, 5000, (const char *[]){ NULL }), -EINVAL);
	close(lfd);
	close(zsock);
	ck_assert_int_eq(waitpid(zpid, &ws, 0), zpid);
	ck_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
	ck_assert_int_eq(rmdir(root), 0);
}
END_TEST

Suite *suite_test_lib_rpmem_zygote(void)
{
	Suite *s = suite_create("lib_rpmem_zygote");
	TCase *tc = tcase_create("host");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_zygote_session_serves_over_the_channel);
	suite_add_tcase(s, tc);
	return s;
}
