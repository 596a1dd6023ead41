/*
 * Host-side tests of the hardened MRAPI directory (lib/mrapi/dir*.c, dir.h)
 * over loopback TCP: a stranger without the domain's secret learns nothing
 * and cannot take a node's id; a second domain sees nothing of the first's
 * unshared ids; a create from an unauthenticated connection is refused; a
 * node trusts no service that cannot prove the secret; idle and slow
 * strangers are closed and do not keep a node out; a peer that sends
 * megabytes and never reads does not delay another node. The peers that
 * misbehave speak the protocol with raw sockets (helpers below); the real
 * nodes use dir_open with a keyring (MRAPI_RDMA_KEYS). Every test runs in its
 * own process (Check's fork mode) on its own port, each bounded in time.
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/dir.h"
#include "lib/mrapi/mrapi.h"
#include "tests/unit/port_fx.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SECRET1 "one-secret-of-domain-1-0123456789"
#define SECRET2 "two-secret-of-domain-2-0123456789"
#define SECRET7 "seven-secret-of-domain-7-01234567"

static unsigned port_;
static char keys_path_[64];

static int64_t ms_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A keyring file with text, mode 0600, named by MRAPI_RDMA_KEYS. */
static void use_keys(const char *text)
{
	int fd;

	snprintf(keys_path_, sizeof(keys_path_), "/tmp/mrapi-dir-test-%d.keys", (int)getpid());
	fd = open(keys_path_, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ck_assert_int_eq(setenv("MRAPI_RDMA_KEYS", keys_path_, 1), 0);
}

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	port_ = fx_free_port();
	use_keys("1 " SECRET1 "\n2 " SECRET2 "\n7 " SECRET7 "\n");
}

static void teardown(void)
{
	mrapi_status_t st;

	mrapi_finalize(&st);
	unlink(keys_path_);
	unsetenv("MRAPI_RDMA_KEYS");
}

/* A real node (domain, node) of the directory, authenticated with the keyring. */
static int node(uint32_t domain, uint32_t n)
{
	int fd = -1;

	ck_assert_int_eq(dir_open("127.0.0.1", port_, domain, n, 3000, &fd), 0);
	return fd;
}

static int create(int fd, uint32_t id, int shared, uint32_t *gen)
{
	uint32_t got;

	return dir_create(fd, id, MRAPI_RMEM_ATYPE_DEFAULT, shared, 0x1000, 64, 7, 5000, "127.0.0.1", &got, gen);
}

/* ---- a raw peer: a TCP connection that says what the test writes ---- */

static int raw(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port_) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr), 1);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* One line within ms: 0, -ETIMEDOUT, or -ECONNRESET (the service closed it). */
static int raw_line(int fd, char *buf, size_t len, int ms)
{
	int64_t end = ms_now() + ms;
	size_t k = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int left = (int)(end - ms_now()), r;
		char c;

		if (left <= 0 || (r = poll(&p, 1, left)) == 0)
			return -ETIMEDOUT;
		if (r < 0 || read(fd, &c, 1) != 1)
			return -ECONNRESET;
		if (c == '\n' || k + 1 >= len) {
			buf[k] = '\0';
			return 0;
		}
		buf[k++] = c;
	}
}

static void raw_say(int fd, const char *line)
{
	ck_assert_int_eq(send(fd, line, strlen(line), MSG_NOSIGNAL), (ssize_t)strlen(line));
}

/* The service's greeting, when it sends one. */
static void raw_greeting(int fd)
{
	char line[DIR_LINE];

	(void)raw_line(fd, line, sizeof(line), 300);
}

/* Nothing but refusals or the end within ms: no "OK" reaches fd. */
static int raw_gets_no_ok(int fd, int ms)
{
	char line[DIR_LINE];
	int64_t end = ms_now() + ms;

	while (ms_now() < end)
		if (raw_line(fd, line, sizeof(line), (int)(end - ms_now())) == 0 && strncmp(line, "OK", 2) == 0)
			return 0;
	return 1;
}

/* fd is closed by the service within ms. */
static int raw_closed_within(int fd, int ms)
{
	char line[DIR_LINE];
	int64_t end = ms_now() + ms;

	while (ms_now() < end)
		if (raw_line(fd, line, sizeof(line), (int)(end - ms_now())) == -ECONNRESET)
			return 1;
	return 0;
}

/* ----------------------------------------------------------------- tests -- */

START_TEST(test_stranger_learns_nothing_and_cannot_take_a_node_id)
{
	int a = node(2, 1), s1, s2, b;
	uint32_t gen;

	ck_assert_int_eq(create(a, 5, 1, &gen), MRAPI_SUCCESS);
	/* no secret: node 2 of domain 7 said first, then asked for domain 2's id */
	s1 = raw();
	raw_greeting(s1);
	raw_say(s1, "HELLO 7 2\n");
	raw_say(s1, "GET 5\n");
	ck_assert(raw_gets_no_ok(s1, 500));
	/* a made-up proof */
	s2 = raw();
	raw_greeting(s2);
	raw_say(s2, "HELLO 7 2 "
		    "0000000000000000000000000000000000000000000000000000000000000000 "
		    "0000000000000000000000000000000000000000000000000000000000000000\nGET 5\n");
	ck_assert(raw_gets_no_ok(s2, 500));
	/* the real node 2 of domain 7 still gets its id */
	b = node(7, 2);
	close(b);
	close(s1);
	close(s2);
	close(a);
}
END_TEST

START_TEST(test_wrong_secret_is_refused)
{
	int a = node(1, 1), fd = -1;

	use_keys("1 not-the-secret-of-domain-1-xxxxxxxx\n");
	ck_assert_int_eq(dir_open("127.0.0.1", port_, 1, 2, 3000, &fd), -EACCES);
	close(a);
}
END_TEST

START_TEST(test_second_domain_sees_nothing_of_the_first)
{
	int a = node(1, 1), b = node(2, 1), c = node(1, 2);
	uint32_t gen, gen_shared;
	struct dir_seg s;

	ck_assert_int_eq(create(a, 5, 0, &gen), MRAPI_SUCCESS);           /* domain 1's only */
	ck_assert_int_eq(create(a, 6, 1, &gen_shared), MRAPI_SUCCESS);    /* DOMAIN_SHARED */
	ck_assert_int_eq(dir_get(b, 5, &s), MRAPI_ERR_DOMAIN_NOTSHARED); /* no address, no key */
	ck_assert_int_eq(dir_op(b, "ATTACH", 5, gen), MRAPI_ERR_RMEM_INVALID);
	ck_assert_int_eq(dir_op(b, "DETACH", 5, gen), MRAPI_ERR_RMEM_INVALID);
	ck_assert_int_eq(dir_op(b, "DELETE", 5, gen), MRAPI_ERR_RMEM_INVALID);
	/* its own domain sees it, and the shared one is everyone's (MRAPI's DOMAIN_SHARED) */
	ck_assert_int_eq(dir_get(c, 5, &s), MRAPI_SUCCESS);
	ck_assert_uint_eq(s.rkey, 7);
	ck_assert_int_eq(dir_op(c, "ATTACH", 5, gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_get(b, 6, &s), MRAPI_SUCCESS);
	ck_assert_uint_eq(s.domain, 1);
	ck_assert_int_eq(dir_op(b, "ATTACH", 6, gen_shared), MRAPI_SUCCESS);
	/* domain 2 taking id 5 changes nothing of domain 1's */
	ck_assert_int_eq(create(b, 5, 0, &gen), MRAPI_ERR_RMEM_EXISTS);
	close(a);
	close(b);
	close(c);
}
END_TEST

/*
 * DELETE by a node that did not create the segment: a node of its domain may,
 * as in the reference implementation (rmem3 deletes from whichever thread got
 * the buffer); a node of another domain that sees the shared segment, and a
 * stranger, may not.
 */
START_TEST(test_delete_by_a_node_of_its_domain)
{
	int a = node(1, 1), b = node(2, 1), c = node(1, 2), s = raw();
	uint32_t gen;
	char line[96];
	struct dir_seg d;

	ck_assert_int_eq(create(a, 60, 1, &gen), MRAPI_SUCCESS); /* DOMAIN_SHARED: b sees it */
	ck_assert_int_eq(dir_op(b, "DELETE", 60, gen), MRAPI_ERR_RMEM_NOTOWNER);
	raw_greeting(s);
	snprintf(line, sizeof(line), "HELLO 1 3\nDELETE 60 %u\n", gen); /* no proof */
	raw_say(s, line);
	ck_assert(raw_gets_no_ok(s, 500));
	ck_assert_int_eq(dir_get(c, 60, &d), MRAPI_SUCCESS); /* it lives on */
	ck_assert_int_eq(dir_op(a, "ATTACH", 60, gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_op(b, "ATTACH", 60, gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_op(c, "ATTACH", 60, gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_op(c, "DELETE", 60, gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_get(b, 60, &d), MRAPI_ERR_RMEM_ID_INVALID);
	ck_assert_int_eq(dir_op(c, "DETACH", 60, gen), MRAPI_ERR_RMEM_INVALID); /* went with its delete */
	ck_assert_int_eq(dir_op(a, "DETACH", 60, gen), MRAPI_SUCCESS);          /* the creator's ends */
	ck_assert_int_eq(dir_op(b, "DETACH", 60, gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_op(a, "DELETE", 60, gen), MRAPI_ERR_RMEM_INVALID);
	close(s);
	close(a);
	close(b);
	close(c);
}
END_TEST

START_TEST(test_forged_create_is_refused)
{
	int a = node(1, 1), s = raw(), b;
	uint32_t gen;
	struct dir_seg d;

	raw_greeting(s);
	raw_say(s, "HELLO 1 9\nCREATE 50 0 1 4096 4096 7 5000 10.9.9.9\n"); /* no proof */
	ck_assert(raw_gets_no_ok(s, 500));
	ck_assert_int_eq(dir_get(a, 50, &d), MRAPI_ERR_RMEM_ID_INVALID);
	/* a node of domain 2 creates as itself: the segment is domain 2's whatever it says */
	b = node(2, 3);
	ck_assert_int_eq(create(b, 51, 1, &gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_get(a, 51, &d), MRAPI_SUCCESS);
	ck_assert_uint_eq(d.domain, 2);
	ck_assert_int_eq(dir_op(a, "DELETE", 51, gen), MRAPI_ERR_RMEM_NOTOWNER);
	close(s);
	close(a);
	close(b);
}
END_TEST

/* A listening socket on the test's port (a fake directory's). */
static int fake_listen(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port_) };
	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)), 0);
	ck_assert_int_eq(inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr), 1);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(lfd, 4), 0);
	return lfd;
}

/* A service that greets, then answers HELLO "OK" (what = its proof, or none). */
static pid_t fake_directory(const char *what)
{
	int lfd = fake_listen();
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char line[DIR_LINE], reply[DIR_LINE];
		int fd = accept(lfd, NULL, NULL);
		const char *greet = "DIR 1 1111111111111111111111111111111111111111111111111111111111111111\n";

		snprintf(reply, sizeof(reply), "OK%s%s\n", *what ? " " : "", what);
		if (fd < 0 || write(fd, greet, strlen(greet)) < 0 || raw_line(fd, line, sizeof(line), 3000) ||
		    write(fd, reply, strlen(reply)) < 0)
			_exit(1);
		(void)raw_line(fd, line, sizeof(line), 3000);
		_exit(0);
	}
	close(lfd);
	return pid;
}

START_TEST(test_node_refuses_a_directory_without_the_secret)
{
	const char *answers[] = { "", "2222222222222222222222222222222222222222222222222222222222222222" };

	for (int i = 0; i < 2; i++) {
		int fd = -1, st;
		pid_t pid = fake_directory(answers[i]);

		ck_assert_int_eq(dir_open("127.0.0.1", port_, 1, 1, 3000, &fd), -EACCES);
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		port_ = fx_free_port();
	}
}
END_TEST

/* A directory that sends its greeting a byte every 100 ms holds a node no longer than its timeout. */
START_TEST(test_node_waits_per_message_not_per_byte)
{
	int lfd = fake_listen(), fd = -1, st;
	int64_t t0;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		const char *greet = "DIR 1 1111111111111111111111111111111111111111111111111111111111111111\n";
		int c = accept(lfd, NULL, NULL);

		for (const char *p = greet; c >= 0 && *p; p++) {
			if (send(c, p, 1, MSG_NOSIGNAL) != 1)
				_exit(0);
			usleep(100000);
		}
		_exit(0);
	}
	close(lfd);
	t0 = ms_now();
	ck_assert_int_eq(dir_open("127.0.0.1", port_, 1, 1, 1000, &fd), -ETIMEDOUT);
	ck_assert_int_lt(ms_now() - t0, 2000);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
}
END_TEST

#define IDLE_PEERS 120 /* more than DIR_SLOTS */

START_TEST(test_idle_strangers_do_not_keep_a_node_out)
{
	int a = node(1, 1), idle[IDLE_PEERS], drip, b;
	int64_t t0;

	for (int i = 0; i < IDLE_PEERS; i++)
		idle[i] = raw();
	drip = raw();
	usleep(100000);
	t0 = ms_now();
	b = node(1, 2); /* the real node gets in at once */
	ck_assert_int_lt(ms_now() - t0, 1000);
	/* a stranger dripping a byte at a time has the same deadline as an idle one */
	for (int i = 0; i < 10; i++) {
		if (send(drip, "H", 1, MSG_NOSIGNAL) != 1)
			break;
		usleep(200000);
	}
	ck_assert(raw_closed_within(idle[IDLE_PEERS - 1], DIR_HELLO_MS + 1000));
	ck_assert(raw_closed_within(drip, 1000));
	for (int i = 0; i < IDLE_PEERS; i++)
		close(idle[i]);
	close(drip);
	close(a);
	close(b);
}
END_TEST

#define FLOOD_BYTES (4u << 20)

/*
 * A node that sends GETs and never reads its replies (a child process): at
 * least FLOOD_BYTES unless the service drops it first, then a GET every 50
 * ms until it does. Writes to res whether it was dropped within 6 s, and
 * the bytes it sent.
 */
static pid_t flooder(int res)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		static char chunk[6000];
		int fd = -1, dropped = 0;
		size_t sent = 0;
		int64_t end;

		for (size_t i = 0; i + 6 <= sizeof(chunk); i += 6)
			memcpy(chunk + i, "GET 5\n", 6);
		if (dir_open("127.0.0.1", port_, 1, 9, 3000, &fd))
			_exit(1);
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		end = ms_now() + 6000;
		while (ms_now() < end) {
			ssize_t n = send(fd, chunk, sent < FLOOD_BYTES ? sizeof(chunk) : 6, MSG_NOSIGNAL);

			if (n < 0 && errno == EAGAIN) {
				poll(&(struct pollfd){ .fd = fd, .events = POLLOUT }, 1, 50);
				continue;
			}
			if (n <= 0) {
				dropped = 1;
				break;
			}
			sent += (size_t)n;
			if (sent >= FLOOD_BYTES)
				usleep(50000);
		}
		if (write(res, &dropped, sizeof(dropped)) != sizeof(dropped) ||
		    write(res, &sent, sizeof(sent)) != sizeof(sent))
			_exit(2);
		_exit(0);
	}
	return pid;
}

START_TEST(test_peer_that_never_reads_stalls_only_itself)
{
	int a = node(1, 1), p[2], dropped = 0, st;
	size_t sent = 0;
	int64_t worst = 0, end;
	uint32_t gen;
	struct dir_seg s;
	pid_t pid;

	ck_assert_int_eq(create(a, 5, 1, &gen), MRAPI_SUCCESS);
	ck_assert_int_eq(pipe(p), 0);
	pid = flooder(p[1]);
	end = ms_now() + 3000;
	while (ms_now() < end) { /* another node's requests, all the while */
		int64_t t0 = ms_now();

		ck_assert_int_eq(dir_get(a, 5, &s), MRAPI_SUCCESS);
		if (ms_now() - t0 > worst)
			worst = ms_now() - t0;
		usleep(20000);
	}
	ck_assert_int_lt(worst, 500);
	ck_assert_int_eq(read(p[0], &dropped, sizeof(dropped)), (ssize_t)sizeof(dropped));
	ck_assert_int_eq(read(p[0], &sent, sizeof(sent)), (ssize_t)sizeof(sent));
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(dropped, 1); /* and the service let that one go */
	ck_assert_uint_ge(sent, FLOOD_BYTES / 4);
	fprintf(stderr, "test_mrapi_dir: worst GET %lld ms beside a peer that sent %zu bytes and never read\n",
		(long long)worst, sent);
	close(a);
}
END_TEST

/* Through the public calls: a squatter does not keep node 2 out; a bad keyring fails the node. */
START_TEST(test_api_initialize_with_a_keyring)
{
	char dir[32];
	int s;
	mrapi_status_t st;

	snprintf(dir, sizeof(dir), "127.0.0.1:%u", port_);
	ck_assert_int_eq(setenv("MRAPI_RDMA_DIR", dir, 1), 0);
	close(node(1, 1)); /* the service runs (and lingers) */
	s = raw();
	raw_greeting(s);
	raw_say(s, "HELLO 1 2\n");
	ck_assert(raw_gets_no_ok(s, 300));
	mrapi_initialize(1, 2, 0, NULL, &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	mrapi_finalize(&st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	use_keys("1 too-short\n");
	mrapi_initialize(1, 2, 0, NULL, &st);
	ck_assert_int_eq(st, MRAPI_ERR_NODE_INITFAILED);
	use_keys("2 " SECRET2 "\n"); /* no line for domain 1 */
	mrapi_initialize(1, 2, 0, NULL, &st);
	ck_assert_int_eq(st, MRAPI_ERR_NODE_INITFAILED);
	close(s);
}
END_TEST

Suite *suite_test_mrapi_dir(void)
{
	Suite *s = suite_create("mrapi_dir");
	TCase *tc = tcase_create("loopback");

	tcase_set_timeout(tc, 20);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_stranger_learns_nothing_and_cannot_take_a_node_id);
	tcase_add_test(tc, test_wrong_secret_is_refused);
	tcase_add_test(tc, test_second_domain_sees_nothing_of_the_first);
	tcase_add_test(tc, test_delete_by_a_node_of_its_domain);
	tcase_add_test(tc, test_forged_create_is_refused);
	tcase_add_test(tc, test_node_refuses_a_directory_without_the_secret);
	tcase_add_test(tc, test_node_waits_per_message_not_per_byte);
	tcase_add_test(tc, test_idle_strangers_do_not_keep_a_node_out);
	tcase_add_test(tc, test_peer_that_never_reads_stalls_only_itself);
	tcase_add_test(tc, test_api_initialize_with_a_keyring);
	suite_add_tcase(s, tc);
	return s;
}
