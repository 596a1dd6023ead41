/*
 * Unit tests of explore's in-guest executor (harness/explore/exec*.c, issue
 * 31): its reads are bounded (a request too long, garbled, or too slow is
 * refused with a clear error, and the host is told), and a case sent to it
 * comes back as the record a run of the same file makes, judged on the host
 * as that run judged it. The engine under the executor here is the model
 * (be_model_ops, recorded by tape_rec as a real run is), over a socketpair.
 */
#include "harness/explore/exec.h"
#include "harness/run/be_model.h"
#include "harness/run/tape.h"

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FILE_011 "scenarios/verbs/011-mr-relaxed-ordering-optional.scn"

/* ex_exec_run_fn on the model engine simulating o->prof, recorded (the executor's, with the model for the stack). */
static int run_model(void *ctx, const struct scn_file *f, const struct run_opts *o, struct result *r, char **lines)
{
	struct be_model *bm = calloc(1, sizeof(*bm));
	struct tape_rec tr;
	int rc;

	(void)ctx;
	*lines = NULL;
	if (!bm || bm_init(bm, f, &o->prof)) {
		free(bm);
		return -ENOMEM;
	}
	tape_rec_init(&tr, &be_model_ops, bm, o, f);
	rc = run_scenario(f, &tr.ops, &tr, o, r);
	rc = rc ? rc : tape_rec_finish(&tr, r);
	if (!rc)
		*lines = tape_take(r);
	bm_free(bm);
	free(bm);
	return rc;
}

/* The text of FILE_011 (malloc'd) and the file parsed. */
static char *read_011(struct scn_file **f)
{
	FILE *in = fopen(FILE_011, "r");
	char *text = calloc(1, 65536);
	struct scn_diags d;
	size_t n;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(text);
	n = fread(text, 1, 65535, in);
	fclose(in);
	ck_assert_int_eq(scn_parse_text(text, n, "explore.scn", f, &d), 0);
	return text;
}

/* Write s to fd whole. */
static void put(int fd, const char *s)
{
	ck_assert_int_eq(write(fd, s, strlen(s)), (ssize_t)strlen(s));
}

/* What ex_exec_read_case says of the bytes req (then, with hold, the writer stays silent): its rc and err. */
static int read_of(const char *req, char *err, size_t errlen)
{
	struct proto_rd rd = { 0 };
	struct ex_exec_case c;
	int sv[2], rc;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	put(sv[1], req);
	err[0] = '\0';
	rc = ex_exec_read_case(sv[0], &rd, 1000, &c, err, errlen);
	free(c.text);
	close(sv[0]);
	close(sv[1]);
	return rc;
}

START_TEST(test_requests_out_of_bounds_are_refused_with_a_clear_error)
{
	char err[400], line[EX_EXEC_LINE_MAX + 64];
	struct timespec t0, t1;

	ex_exec_msg_ms = 300;
	ck_assert_int_eq(read_of("case 1 rxe 6001 0 1 999999999\n", err, sizeof(err)), -EPROTO); /* oversize */
	ck_assert_msg(strstr(err, "a case of 999999999 bytes: at most 262144"), "%s", err);
	ck_assert_int_eq(read_of("hello there\n", err, sizeof(err)), -EPROTO); /* garbled */
	ck_assert_msg(strstr(err, "not a request"), "%s", err);
	ck_assert_int_eq(read_of("case 1 rxe 6001 2 1 5\n", err, sizeof(err)), -EPROTO); /* CRASH is 0 or 1 */
	ck_assert_int_eq(read_of("case 1 rxe 6001 1 1\n", err, sizeof(err)), -EPROTO); /* a field missing */
	ck_assert_int_eq(read_of("case 1 rxe 6001 1  1 5\n", err, sizeof(err)), -EPROTO); /* an empty one */
	ck_assert_int_eq(read_of("case 1 r;x 6001 0 1 5\n", err, sizeof(err)), -EPROTO); /* a profile's name */
	ck_assert_int_eq(read_of("case -1 rxe 6001 0 1 5\n", err, sizeof(err)), -EPROTO);
	memset(line, 'x', sizeof(line) - 2);
	line[sizeof(line) - 2] = '\n';
	line[sizeof(line) - 1] = '\0';
	ck_assert_int_eq(read_of(line, err, sizeof(err)), -EPROTO); /* a line too long */
	ck_assert_msg(strstr(err, "longer than 256 bytes"), "%s", err);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(read_of("case 1 rxe 6001 0 1 10\nabc", err, sizeof(err)), -EPROTO); /* slow: 3 of 10 bytes */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_msg(strstr(err, "a body of 10 bytes that did not come"), "%s", err);
	ck_assert_int_lt(t1.tv_sec - t0.tv_sec, 3);
	ck_assert_int_eq(read_of("case 1 rxe 60", err, sizeof(err)), -EPROTO); /* a line begun, never ended */
	ck_assert_msg(strstr(err, "did not end within 300 ms"), "%s", err);
	ck_assert_int_eq(read_of("case 7 rxe 6001 1 0 3\nabc", err, sizeof(err)), 0);
	ex_exec_msg_ms = EX_EXEC_MSG_MS;
}
END_TEST

/* The executor on one end of a socketpair (a child), the host's fd back. */
static int serve_child(pid_t *pid)
{
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	*pid = fork();
	ck_assert_int_ge(*pid, 0);
	if (*pid == 0) {
		close(sv[0]);
		_exit(ex_exec_serve_conn(sv[1], -1, run_model, NULL) == 0 ? 0 : 1);
	}
	close(sv[1]);
	return sv[0];
}

START_TEST(test_the_host_is_told_why_its_request_was_refused)
{
	struct proto_rd rd = { 0 };
	struct ex_exec_answer a;
	char line[64], err[400];
	pid_t pid;
	int fd = serve_child(&pid), st;

	ck_assert_int_eq(proto_recv(fd, &rd, line, sizeof(line), 5000), 6);
	ck_assert_str_eq(line, "exec 1");
	put(fd, "case 1 rxe 6001 0 1 300000\n");
	ck_assert_int_eq(ex_exec_read_answer(fd, &rd, 5000, &a, err, sizeof(err)), -EPROTO);
	ck_assert_msg(strstr(err, "the executor refused: a case of 300000 bytes: at most 262144"), "%s", err);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(fd);
}
END_TEST

START_TEST(test_a_case_comes_back_as_the_record_of_a_run_of_its_file_judged_alike)
{
	struct ex_exec_link l = { .fd = -1 };
	struct m_profile prof;
	struct scn_file *f, *files[3];
	char *text = read_011(&f), *texts[3], *lines;
	struct result rs[3], live = { 0 };
	struct run_opts o = { .mode = RUN_REAL };
	uint8_t lost[3];
	pid_t pid;
	int st;

	ck_assert_int_eq(m_profile_get("rxe", 6001, &prof), 0);
	o.prof = prof;
	o.ahead = 1; /* as the executor runs a case no step of may kill the kernel */
	ck_assert_int_eq(run_model(NULL, f, &o, &live, &lines), 0); /* the record of a run of the file */
	l.fd = serve_child(&pid);
	{
		char g[16];

		ck_assert_int_eq(proto_recv(l.fd, &l.rd, g, sizeof(g), 5000), 6);
	}
	for (int k = 0; k < 3; k++) { /* three in flight: each answered in order */
		texts[k] = text;
		files[k] = f;
	}
	ck_assert_int_eq(ex_exec_run(&l, &prof, 0, 10000, texts, files, 3, rs, lost), 0);
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(lost[k], 0);
		ck_assert_int_eq(rs[k].v, live.v);
		ck_assert_int_eq(rs[k].steps_run, live.steps_run);
		ck_assert_int_eq(rs[k].line, live.line);
		ck_assert_mem_eq(rs[k].rules, live.rules, sizeof(live.rules));
		result_clear(&rs[k]);
	}
	ck_assert_uint_eq(l.cases, 3);
	{ /* the record itself: the one a run of the file makes (the kernel's name aside: one machine here) */
		struct ex_exec_answer a;
		char err[300];

		ck_assert_int_eq(ex_exec_send_case(l.fd, 99, &prof, 0, 1, text, strlen(text)), 0);
		ck_assert_int_eq(ex_exec_read_answer(l.fd, &l.rd, 5000, &a, err, sizeof(err)), 0);
		ck_assert(a.ran);
		ck_assert_uint_eq(a.id, 99);
		ck_assert_str_eq(a.lines, lines);
		free(a.lines);
	}
	ex_exec_link_close(&l); /* the executor sees the end of the stream and returns */
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(lines);
	result_clear(&live);
	scn_free(f);
	free(text);
}
END_TEST

START_TEST(test_a_case_that_does_not_parse_is_an_error_with_its_place)
{
	struct ex_exec_link l = { .fd = -1 };
	struct m_profile prof;
	struct scn_file *f, *files[1];
	char *text = read_011(&f), *texts[1] = { "nodes a\na: frobnicate x\n" };
	struct result rs[1];
	uint8_t lost[1];
	char g[16];
	pid_t pid;
	int st;

	ck_assert_int_eq(m_profile_get("rxe", 6001, &prof), 0);
	files[0] = f;
	l.fd = serve_child(&pid);
	ck_assert_int_eq(proto_recv(l.fd, &l.rd, g, sizeof(g), 5000), 6);
	ck_assert_int_eq(ex_exec_run(&l, &prof, 0, 10000, texts, files, 1, rs, lost), 0);
	ck_assert_int_eq(lost[0], 0);
	ck_assert_int_eq(rs[0].v, V_ERROR);
	ck_assert_msg(strstr(rs[0].reason, "the executor: the case does not parse: line 2, col"), "%s", rs[0].reason);
	ex_exec_link_close(&l);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	scn_free(f);
	free(text);
}
END_TEST

START_TEST(test_an_executor_that_stops_answering_loses_the_cases_in_flight)
{
	struct ex_exec_link l = { .fd = -1 };
	struct m_profile prof;
	struct scn_file *f, *files[2];
	char *text = read_011(&f), *texts[2] = { text, text };
	struct result rs[2];
	uint8_t lost[2];
	int sv[2];

	ck_assert_int_eq(m_profile_get("rxe", 6001, &prof), 0);
	files[0] = files[1] = f;
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	l.fd = sv[0]; /* nobody answers on sv[1]: the first case's budget, (steps + 4) x 20 ms, passes */
	ck_assert_int_eq(ex_exec_run(&l, &prof, 0, 20, texts, files, 2, rs, lost), 0);
	ck_assert_int_eq(lost[0], 1);
	ck_assert_int_eq(lost[1], 1);
	ck_assert_int_eq(l.fd, -1);
	ck_assert_msg(strstr(l.err, "no answer in time"), "%s", l.err);
	close(sv[1]);
	scn_free(f);
	free(text);
}
END_TEST

START_TEST(test_a_record_of_another_file_or_a_short_one_is_an_error_not_a_verdict)
{
	struct run_opts o = { .mode = RUN_REAL, .ahead = 1 };
	struct scn_file *f, *g;
	struct scn_diags d;
	struct result live = { 0 }, r;
	char *text = read_011(&f), *lines, *cut;
	const char *other = "nodes a\na: alloc_pd pd\na: dealloc_pd pd\n";

	ck_assert_int_eq(m_profile_get("rxe", 6001, &o.prof), 0);
	ck_assert_int_eq(run_model(NULL, f, &o, &live, &lines), 0);
	ck_assert_int_eq(ex_exec_judge(f, &o.prof, lines, &r), 0); /* its own file: the live verdict */
	ck_assert_int_eq(r.v, live.v);
	result_clear(&r);
	ck_assert_int_eq(scn_parse_text(other, strlen(other), "other.scn", &g, &d), 0);
	ck_assert_int_eq(ex_exec_judge(g, &o.prof, lines, &r), 0); /* another file's steps */
	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_msg(strstr(r.reason, "the executor's record is not of this case"), "%s", r.reason);
	result_clear(&r);
	cut = strrchr(lines, '\n'); /* the record without its last calls: the run asks what it never saw */
	ck_assert_ptr_nonnull(cut);
	*cut = '\0';
	cut = strrchr(lines, '\n');
	ck_assert_ptr_nonnull(cut);
	cut[1] = '\0';
	ck_assert_int_eq(ex_exec_judge(f, &o.prof, lines, &r), 0);
	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_msg(strstr(r.reason, "the executor's record does not answer this run"), "%s", r.reason);
	result_clear(&r);
	result_clear(&live);
	free(lines);
	scn_free(f);
	scn_free(g);
	free(text);
}
END_TEST

/* secret into a fresh file of mode 0600 under dir (path into path). */
static void token_file(const char *dir, const char *name, const char *secret, char *path, size_t size)
{
	FILE *f;

	snprintf(path, size, "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(secret, f);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0600), 0);
}

START_TEST(test_only_a_host_with_the_runs_secret_is_served)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	char dir[] = "/tmp/test-exec-XXXXXX", good[64], bad[64], at[32], err[300];
	struct ex_exec_link l = { .fd = -1 };
	struct remote_key key;
	int lfd = socket(AF_INET, SOCK_STREAM, 0), st;
	pid_t pid;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	token_file(dir, "good", "0123456789abcdef0123456789abcdef", good, sizeof(good));
	token_file(dir, "bad", "fedcba9876543210fedcba9876543210", bad, sizeof(bad));
	ck_assert_int_eq(remote_key_read(good, &key, err, sizeof(err)), 0);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(lfd, 4), 0);
	ck_assert_int_eq(getsockname(lfd, (struct sockaddr *)&sa, &sl), 0);
	snprintf(at, sizeof(at), "127.0.0.1:%u", ntohs(sa.sin_port));
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		alarm(30);
		_exit(ex_exec_serve(lfd, &key, run_model, NULL) ? 1 : 0);
	}
	close(lfd);
	ck_assert_int_lt(ex_exec_link_open(&l, at, bad), 0); /* another secret: refused */
	ck_assert_int_eq(l.fd, -1);
	ck_assert_int_eq(ex_exec_link_open(&l, at, good), 0); /* the run's: greeted */
	ck_assert_int_ge(l.fd, 0);
	ex_exec_link_close(&l);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	unlink(good);
	unlink(bad);
	rmdir(dir);
}
END_TEST

Suite *suite_test_explore_exec(void)
{
	Suite *s = suite_create("test_explore_exec");
	TCase *tc = tcase_create("exec");

	signal(SIGPIPE, SIG_IGN);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_requests_out_of_bounds_are_refused_with_a_clear_error);
	tcase_add_test(tc, test_the_host_is_told_why_its_request_was_refused);
	tcase_add_test(tc, test_a_case_comes_back_as_the_record_of_a_run_of_its_file_judged_alike);
	tcase_add_test(tc, test_a_case_that_does_not_parse_is_an_error_with_its_place);
	tcase_add_test(tc, test_an_executor_that_stops_answering_loses_the_cases_in_flight);
	tcase_add_test(tc, test_a_record_of_another_file_or_a_short_one_is_an_error_not_a_verdict);
	tcase_add_test(tc, test_only_a_host_with_the_runs_secret_is_served);
	suite_add_tcase(s, tc);
	return s;
}
