/*
 * Unit tests of the runner's memory comparison (harness/run/runner.c
 * run_scenario): the end comparison of every MR with the model's bytes, and
 * the check step's within a range, naming the first differing offset; a read
 * that fails is an error. Reality is the scripted fake engine of runner_fx.h,
 * which can corrupt any byte it shows.
 */
#include "tests/unit/runner_fx.h"

#include <check.h>
#include <errno.h>
#include <string.h>


START_TEST(test_memory_mismatch_at_end)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+64 len=128 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	fk.flip_obj = 1; /* a.dst, two bytes: the first is named */
	fk.flip_off = 300;
	fk.flip2_obj = 1;
	fk.flip2_off = 100;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 0);
	ck_assert_str_eq(r.reason, "a.dst: memory differs from the model at offset 100");
	ck_assert_has(r.detail, "  a.dst, offset 100: model 5a 5a 5a 5a 5a 5a 5a 5a | real a5 5a 5a 5a 5a 5a 5a 5a \n");
	ck_assert_uint_eq(r.steps_run, 10); /* all of them */
	ck_assert_uint_eq(r.steps, 10);
	done(f, &r);

	/* past the first 4 KiB chunk of a bigger buffer; the first difference is named */
	static const char text2[] = "nodes a\n"
				    "a: alloc_pd pd\n"
				    "a: reg_mr m pd=pd len=16K access=LOCAL_WRITE\n"
				    "a: fill m byte=0x11 off=8K len=4K\n";
	f = parse(text2);
	fk.flip_obj = 1;
	fk.flip_off = 12287; /* the last byte of the filled range (another in the next chunk) */
	fk.flip2_obj = 1;
	fk.flip2_off = 12300;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "a.m: memory differs from the model at offset 12287");
	ck_assert_has(r.detail, "  a.m, offset 12287: model 11 | real ee \n");
	done(f, &r);
}
END_TEST

START_TEST(test_check_step)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+64 len=128 expect SUCCESS\n"
				       "a: check dst off=64 len=64\n"
				       "a: fill dst byte=1\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	/* a difference inside the checked range fails at the check */
	fk.flip_obj = 1;
	fk.flip_off = 70;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 12);
	ck_assert_str_eq(r.reason, "a.dst: memory differs from the model at offset 70");
	ck_assert_uint_eq(fk.nexec, 10); /* stopped at the check */
	done(f, &r);

	/* outside it the check passes; the end comparison finds it */
	f = parse(text);
	fk.flip_obj = 3; /* b.src */
	fk.flip_off = 4000;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 0);
	ck_assert_str_eq(r.reason, "b.src: memory differs from the model at offset 4000");
	ck_assert_uint_eq(fk.nexec, 11);
	done(f, &r);

	/* reading fails: an error at the check */
	f = parse(text);
	fk.read_rc = -EIO;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_uint_eq(r.line, 12);
	ck_assert_str_eq(r.reason, "line 12: reading a.dst: Input/output error");
	done(f, &r);
}
END_TEST

/* A 1 GiB MR written at its start, middle and end: only the pages the model holds are read (model/mem.c). */
START_TEST(test_memory_gib_mr_read_where_the_model_holds_pages)
{
	static const char text[] = "nodes a b\n"
				   "a: alloc_pd pd\n"
				   "a: reg_mr src pd=pd len=1G access=LOCAL_WRITE\n"
				   "a: create_qp q pd=pd\n"
				   "b: alloc_pd pd\n"
				   "b: reg_mr dst pd=pd len=1G access=LOCAL_WRITE|REMOTE_WRITE\n"
				   "b: create_qp q pd=pd\n"
				   "connect a.q b.q\n"
				   "a: fill src byte=0x11 off=0 len=64\n"
				   "a: fill src byte=0x22 off=536870880 len=64\n"
				   "a: fill src byte=0x33 off=1073741760 len=64\n"
				   "a: write q local=src+0 remote=b.dst+0 len=64 expect SUCCESS\n"
				   "a: write q local=src+536870880 remote=b.dst+536870880 len=64 expect SUCCESS\n"
				   "a: write q local=src+1073741760 remote=b.dst+1073741760 len=64 expect SUCCESS\n"
				   "b: check dst\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_PASS);
	/* 4 pages of each MR (the middle range spans two): the check's and the end's, no more */
	ck_assert_uint_eq(fk.read_bytes, 3 * 4 * 4096);
	done(f, &r);

	/* a byte of a held page that reality holds otherwise is found, at its offset */
	f = parse(text);
	fk.flip_obj = 4; /* b.dst */
	fk.flip_off = 1073741823;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "b.dst: memory differs from the model at offset 1073741823");
	ck_assert_uint_eq(r.line, 15); /* at the check */
	done(f, &r);
}
END_TEST

Suite *suite_test_runner_memory(void)
{
	Suite *s = suite_create("test_runner_memory");
	TCase *tc = tcase_create("memory");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_memory_mismatch_at_end);
	tcase_add_test(tc, test_check_step);
	tcase_add_test(tc, test_memory_gib_mr_read_where_the_model_holds_pages);
	suite_add_tcase(s, tc);
	return s;
}
