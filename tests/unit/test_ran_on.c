/*
 * Unit tests of harness/suite/ran_on.c: what a run ran on, as the coverage
 * page's header names it — the stack ci/stack chose (from its line in the
 * stack log) and the kernel the runner ran under, not the --stack asked for.
 */
#include "harness/suite/suite.h"
#include "harness/suite/args.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A stack log holding text; its path into path (a mkstemp template). */
static void log_of(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_stack_choice_from_the_log)
{
	char vm[] = "/tmp/rdmacheck-ranon-XXXXXX", host[] = "/tmp/rdmacheck-ranon-XXXXXX";
	char none[] = "/tmp/rdmacheck-ranon-XXXXXX", where[16];

	log_of(vm, "ci/stack: host stack unusable (not root); using the VM\nci/stack: real stack: vm\n"
		   "ci/vm: booting the guest (tcg, kernel 6.1.0-27-amd64)...\n");
	log_of(host, "ci/stack: real stack: host\n");
	log_of(none, "ci/stack: SKIP: no real RDMA stack: host: not root; vm: no kernel image in /boot\n");
	where[0] = '\0';
	outer_stack_choice(vm, where, sizeof(where));
	ck_assert_str_eq(where, "vm");
	where[0] = '\0';
	outer_stack_choice(host, where, sizeof(where));
	ck_assert_str_eq(where, "host");
	where[0] = '\0';
	outer_stack_choice(none, where, sizeof(where));
	ck_assert_str_eq(where, "");
	outer_stack_choice("/nonexistent/stack.log", where, sizeof(where));
	ck_assert_str_eq(where, "");
	unlink(vm);
	unlink(host);
	unlink(none);
}
END_TEST

START_TEST(test_ran_on_names_what_ran)
{
	struct run_args a = { .stack = "auto" };
	struct outer o = { .a = &a };
	struct m_profile prof;
	char buf[512];

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &prof), 0);
	snprintf(o.ran_where, sizeof(o.ran_where), "vm");
	snprintf(o.ran_kernel, sizeof(o.ran_kernel), "6.1.0-27-amd64");
	outer_ran_on(&o, &prof, buf, sizeof(buf));
	ck_assert_str_eq(buf, "soft-RoCE (rxe) in a VM (ci/vm, Linux 6.1.0-27-amd64)");
	ck_assert_ptr_null(strstr(buf, "auto"));

	snprintf(o.ran_where, sizeof(o.ran_where), "host");
	outer_ran_on(&o, &prof, buf, sizeof(buf));
	ck_assert_str_eq(buf, "soft-RoCE (rxe) on this host (Linux 6.1.0-27-amd64)");

	o.ran_where[0] = '\0';
	outer_ran_on(&o, &prof, buf, sizeof(buf));
	ck_assert_str_eq(buf, "no real stack (ci/stack found none: stack.log says why)");

	a.stack = "model";
	outer_ran_on(&o, &prof, buf, sizeof(buf));
	ck_assert_str_eq(buf, "the model simulating profile rxe 6.1");

	a.stack = "auto";
	a.device = "mlx5_0";
	outer_ran_on(&o, &prof, buf, sizeof(buf));
	ck_assert_str_eq(buf, "device mlx5_0 on this host, Linux 6.1.0-27-amd64");
	a.device = NULL;
	a.topology = "nodes.topo";
	outer_ran_on(&o, &prof, buf, sizeof(buf));
	ck_assert_str_eq(buf, "the nodes of nodes.topo");
}
END_TEST

Suite *suite_test_ran_on(void)
{
	Suite *s = suite_create("test_ran_on");
	TCase *tc = tcase_create("ran_on");

	tcase_add_test(tc, test_stack_choice_from_the_log);
	tcase_add_test(tc, test_ran_on_names_what_ran);
	suite_add_tcase(s, tc);
	return s;
}
