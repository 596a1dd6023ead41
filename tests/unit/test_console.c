/*
 * Unit tests of what rdmacheck reads from the machine under test
 * (harness/nodes/console.c): kernel splats found in kernel log and console text
 * (a WARN in rxe, BUGs, Oopses, panics, hung tasks, UBSAN; no false alarm on
 * ordinary lines), the verdict a splat gives a scenario, /dev/kmsg records
 * turned into lines, the last line of a log and ci/stack's reason.
 */
#define _GNU_SOURCE /* SOCK_SEQPACKET in socketpair */
#include "harness/nodes/console.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A WARN splat from rxe as the kernel log has it (6.1, trimmed). */
static const char warn_log[] =
	"[   41.101223] rdma_rxe: loaded\n"
	"[   42.512001] ------------[ cut here ]------------\n"
	"[   42.512010] WARNING: CPU: 1 PID: 311 at drivers/infiniband/sw/rxe/rxe_mr.c:716 rxe_dereg_mr+0x7c/0x90 "
	"[rdma_rxe]\n"
	"[   42.512100] Modules linked in: rdma_rxe ib_uverbs ib_core\n"
	"[   42.512200] RIP: 0010:rxe_dereg_mr+0x7c/0x90 [rdma_rxe]\n"
	"[   42.512300] Call Trace:\n"
	"[   42.512400] ---[ end trace 0000000000000000 ]---\n";

START_TEST(test_splat_warn)
{
	char what[256];

	ck_assert_int_eq(console_splat(warn_log, what, sizeof(what)), SPLAT_WARN);
	ck_assert_str_eq(what, "WARNING: CPU: 1 PID: 311 at drivers/infiniband/sw/rxe/rxe_mr.c:716 "
			       "rxe_dereg_mr+0x7c/0x90 [rdma_rxe]");
}
END_TEST

START_TEST(test_splat_kinds)
{
	static const struct {
		const char *text, *what;
		enum splat kind;
	} cases[] = {
		{ "[ 1.0] BUG: kernel NULL pointer dereference, address: 0000000000000008\n",
		  "BUG: kernel NULL pointer dereference, address: 0000000000000008", SPLAT_BUG },
		{ "[ 2.0] kernel BUG at mm/slub.c:379!\n", "kernel BUG at mm/slub.c:379!", SPLAT_BUG },
		{ "[ 3.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [kworker/0:1:12]\n",
		  "watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [kworker/0:1:12]", SPLAT_BUG },
		{ "[ 4.0] Oops: 0000 [#1] PREEMPT SMP NOPTI\n", "Oops: 0000 [#1] PREEMPT SMP NOPTI", SPLAT_OOPS },
		{ "[ 5.0] general protection fault, probably for non-canonical address 0xdead: 0000 [#1] SMP\n",
		  "general protection fault, probably for non-canonical address 0xdead: 0000 [#1] SMP", SPLAT_OOPS },
		{ "[ 6.0] Kernel panic - not syncing: Fatal exception\n", "Kernel panic - not syncing: Fatal exception",
		  SPLAT_PANIC },
		{ "[ 7.0] INFO: task rdmacheck:311 blocked for more than 120 seconds.\n",
		  "INFO: task rdmacheck:311 blocked for more than 120 seconds.", SPLAT_HUNG },
		{ "[ 8.0] UBSAN: shift-out-of-bounds in drivers/infiniband/sw/rxe/rxe_resp.c:512:20\n",
		  "UBSAN: shift-out-of-bounds in drivers/infiniband/sw/rxe/rxe_resp.c:512:20", SPLAT_UBSAN },
		{ "[ 9.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n",
		  "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:", SPLAT_HUNG },
		/* the first splat wins, whatever follows */
		{ "x\n[ 1.0] WARNING: CPU: 0 PID: 1 at a.c:1 f\n[ 2.0] BUG: b\n", "WARNING: CPU: 0 PID: 1 at a.c:1 f",
		  SPLAT_WARN },
		/* ordinary lines are no finding */
		{ "[ 1.0] rdma_rxe: loaded\n[ 2.0] infiniband rxe0: set active\n", "", SPLAT_NONE },
		{ "[ 1.0] myDEBUG: nothing\n[ 2.0] INFO: task list\n[ 3.0] WARNING: low memory\n", "", SPLAT_NONE },
		{ "", "", SPLAT_NONE },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char what[256];
		enum splat k = console_splat(cases[i].text, what, sizeof(what));

		ck_assert_msg(k == cases[i].kind, "case %zu: %s, want %s", i, splat_str(k), splat_str(cases[i].kind));
		ck_assert_str_eq(what, cases[i].what);
	}
	ck_assert_int_eq(console_splat(NULL, (char[8]){ 0 }, 8), SPLAT_NONE);
}
END_TEST

START_TEST(test_splat_names)
{
	enum splat s;

	for (int i = 0; i < SPLAT_COUNT_; i++) {
		ck_assert_int_eq(splat_parse(splat_str((enum splat)i), &s), 0);
		ck_assert_int_eq(s, i);
	}
	ck_assert_str_eq(splat_str(SPLAT_COUNT_), "?");
	ck_assert_int_eq(splat_parse("warn", &s), -EINVAL);
}
END_TEST

static struct result mk(enum verdict v, const char *reason, const char *detail)
{
	struct result r = { .v = v };

	snprintf(r.reason, sizeof(r.reason), "%s", reason);
	r.detail = detail ? strdup(detail) : NULL;
	return r;
}

START_TEST(test_finding_verdicts)
{
	struct result r = mk(V_PASS, "", NULL);

	/* a pass with a WARN fails, saying so */
	ck_assert_int_eq(console_finding(&r, warn_log, NULL, 0), 1);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "kernel WARN during the scenario: WARNING: CPU: 1 PID: 311 at "
				   "drivers/infiniband/sw/rxe/rxe_mr.c:716 rxe_dereg_mr+0x7c/0x90 [rdma_rxe]");
	ck_assert_str_eq(r.detail, "  the scenario itself passed: \n");
	result_clear(&r);
	/* an xfail too; its reason kept in the detail */
	r = mk(V_XFAIL, "line 9: declared deviation LP-5", "  more\n");
	ck_assert_int_eq(console_finding(&r, warn_log, NULL, 0), 1);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.detail, "  the scenario itself was an xfail: line 9: declared deviation LP-5\n  more\n");
	result_clear(&r);
	/* a failure stays one, with the splat as a note */
	r = mk(V_FAIL, "line 3: write gave SUCCESS", NULL);
	ck_assert_int_eq(console_finding(&r, "[ 1.0] BUG: sleeping function called from invalid context\n", NULL, 0), 1);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 3: write gave SUCCESS");
	ck_assert_str_eq(r.detail, "  note: kernel BUG during the scenario: BUG: sleeping function called from "
				   "invalid context\n");
	result_clear(&r);
	/* quiet kernel: nothing changes */
	r = mk(V_PASS, "", NULL);
	ck_assert_int_eq(console_finding(&r, "[ 1.0] rdma_rxe: loaded\n", NULL, 0), 0);
	ck_assert_int_eq(console_finding(&r, NULL, NULL, 0), 0);
	ck_assert_int_eq(r.v, V_PASS);
	ck_assert_ptr_null(r.detail);
}
END_TEST

START_TEST(test_kmsg_records)
{
	int sv[2];
	char *t;
	static const char *const recs[] = {
		"6,1201,41101223,-;rdma_rxe: loaded\n",
		"4,1202,42512010,-;WARNING: CPU: 1 PID: 311 at rxe_mr.c:716 rxe_dereg_mr\n SUBSYSTEM=infiniband\n",
		"garbage without a semicolon\n",
	};

	/* /dev/kmsg gives one record per read(): a SEQPACKET socket does the same */
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK, 0, sv), 0);
	for (size_t i = 0; i < 3; i++)
		ck_assert_int_eq(write(sv[1], recs[i], strlen(recs[i])), (ssize_t)strlen(recs[i]));
	t = kmsg_take(sv[0]);
	ck_assert_str_eq(t, "[   41.101223] rdma_rxe: loaded\n"
			    "[   42.512010] WARNING: CPU: 1 PID: 311 at rxe_mr.c:716 rxe_dereg_mr\n");
	free(t);
	ck_assert_ptr_null(kmsg_take(sv[0])); /* nothing new */
	close(sv[0]);
	close(sv[1]);
}
END_TEST

START_TEST(test_log_lines)
{
	char path[] = "/tmp/rdmacheck-console-XXXXXX", out[256];
	int fd = mkstemp(path);
	static const char log[] = "ci/stack: probing\n"
				  "ci/stack: SKIP: no real RDMA stack: no rxe module and no QEMU\n"
				  "rdmacheck: netns/topology up 2 failed (1)\n  \n";

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, log, sizeof(log) - 1), (ssize_t)sizeof(log) - 1);
	close(fd);
	ck_assert_int_eq(console_last_line(path, NULL, out, sizeof(out)), 1);
	ck_assert_str_eq(out, "rdmacheck: netns/topology up 2 failed (1)");
	console_stack_reason(path, 77, out, sizeof(out));
	ck_assert_str_eq(out, "no real RDMA stack: no rxe module and no QEMU");
	console_stack_reason(path, 3, out, sizeof(out));
	ck_assert_str_eq(out, "the runner on the real stack failed (exit 3): rdmacheck: netns/topology up 2 failed (1)");
	unlink(path);
	ck_assert_int_eq(console_last_line(path, NULL, out, sizeof(out)), 0);
	console_stack_reason(path, 77, out, sizeof(out));
	ck_assert_str_eq(out, "no real RDMA stack here");
}
END_TEST

Suite *suite_test_console(void)
{
	Suite *s = suite_create("test_console");
	TCase *tc = tcase_create("console");

	tcase_add_test(tc, test_splat_warn);
	tcase_add_test(tc, test_splat_kinds);
	tcase_add_test(tc, test_splat_names);
	tcase_add_test(tc, test_finding_verdicts);
	tcase_add_test(tc, test_kmsg_records);
	tcase_add_test(tc, test_log_lines);
	suite_add_tcase(s, tc);
	return s;
}
