/*
 * Unit tests of how a librpmem scenario's bytes are judged
 * (harness/api/rpmem/model_rpmem.c model_buf_rpmem, the runner's check and
 * end-of-scenario comparison): a pool object's bytes are its target's pool
 * (the part files on the real stack), not the client's memory, so bytes the
 * client only filled are not there, bytes it persisted are, and a target
 * that lost a persist fails the scenario.
 */
#include "harness/run/be_model.h"
#include "harness/run/runner.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char head[] = "require rpmem\nnodes a b\n"
			   "b: rpmem_poolset set=\"pool.set\" size=4M\n"
			   "a: rpmem_create p target=b set=\"pool.set\" size=1M attr=5244434b00000000\n"
			   "a: rpmem_fill p offset=8K len=64 byte=0xa1\n";

/* A stack whose calls all succeed and whose target's pool holds `lost` ? zeros : the persisted bytes. */
static int lost;

static int fake_exec(void *be, const struct hcall *c, struct hres *r)
{
	(void)be;
	(void)c;
	memset(r, 0, sizeof(*r));
	r->out = (struct m_outcome){ M_OUT_OK, 0 };
	return 0;
}

static int fake_read(void *be, int32_t obj, uint64_t off, size_t len, uint8_t *buf)
{
	(void)be;
	(void)obj;
	for (size_t i = 0; i < len; i++)
		buf[i] = !lost && off + i >= 8192 && off + i < 8192 + 64 ? 0xa1 : 0;
	return 0;
}

static const struct backend_ops fake_ops = { .name = "fake", .exec = fake_exec, .read = fake_read };

static struct result run(const char *steps, const struct backend_ops *ops)
{
	char text[2048];
	struct scn_diags d;
	struct scn_file *f = NULL;
	struct run_opts o = { .mode = RUN_REAL };
	struct be_model eng;
	struct result r;

	snprintf(text, sizeof(text), "%s%s", head, steps);
	ck_assert_int_eq(scn_parse_text(text, strlen(text), "dir/t.scn", &f, &d), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &o.prof), 0);
	if (ops == &be_model_ops) {
		ck_assert_int_eq(bm_init(&eng, f, &o.prof), 0);
		ck_assert_int_eq(run_scenario(f, ops, &eng, &o, &r), 0);
		bm_free(&eng);
	} else {
		ck_assert_int_eq(run_scenario(f, ops, NULL, &o, &r), 0);
	}
	scn_free(f);
	return r;
}

START_TEST(test_RPMEM_PERSIST_1_check_sees_the_targets_bytes)
{
	struct result r = run("a: check p off=8192 len=64 byte=0\n" /* filled, not persisted: not on the target */
			      "a: rpmem_persist p offset=8K len=64\n"
			      "a: check p off=8192 len=64 byte=0xa1\n"
			      "a: rpmem_close p\n"
			      "a: check p off=8192 len=64 byte=0xa1\n", /* the pool stays after close */
			      &be_model_ops);

	ck_assert_msg(r.v == V_PASS, "%s", r.detail ? r.detail : "");
	result_clear(&r);
	r = run("a: check p off=8192 len=64 byte=0xa1\n", &be_model_ops);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_ptr_nonnull(strstr(r.reason, "the model says 0x00"));
	result_clear(&r);
}
END_TEST

START_TEST(test_RPMEM_PERSIST_1_lost_persist_fails_at_the_end)
{
	static const char steps[] = "a: rpmem_persist p offset=8K len=64\na: rpmem_close p\n";
	struct result r;

	lost = 0;
	r = run(steps, &fake_ops);
	ck_assert_msg(r.v == V_PASS, "%s", r.detail ? r.detail : "");
	result_clear(&r);
	lost = 1;
	r = run(steps, &fake_ops);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_ptr_nonnull(strstr(r.reason, "memory differs from the model at offset 8192"));
	result_clear(&r);
	/* removed: the model holds no bytes, nothing is compared */
	r = run("a: rpmem_close p\na: rpmem_remove target=b set=\"pool.set\"\n", &fake_ops);
	ck_assert_msg(r.v == V_PASS, "%s", r.detail ? r.detail : "");
	result_clear(&r);
}
END_TEST

Suite *suite_test_run_rpmem(void)
{
	Suite *s = suite_create("run_rpmem");
	TCase *tc = tcase_create("bytes");

	tcase_add_test(tc, test_RPMEM_PERSIST_1_check_sees_the_targets_bytes);
	tcase_add_test(tc, test_RPMEM_PERSIST_1_lost_persist_fails_at_the_end);
	suite_add_tcase(s, tc);
	return s;
}
