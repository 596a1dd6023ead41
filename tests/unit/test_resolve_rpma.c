/*
 * Unit tests of the librpma steps' resolution (harness/api/rpma/resolve_rpma.c):
 * objects, offsets, null= as the call's pointer-argument bits, flags, and the
 * descriptor rpma_mr_remote_from_descriptor is given (the source object's
 * bytes from the engine's blob, bytes=, field overrides, size) — through a
 * fake engine; and the whole path through the model engine (lint).
 */
#include "harness/run/be_model.h"
#include "harness/run/runner.h"
#include "tests/unit/resolve_fx.h"

#include <check.h>
#include <errno.h>
#include <string.h>

/* Objects: 0 a.m, 1 b.buf, 2 b.r, 3 b.cn, 4 b.alias, 5 c.r2, 6 b.t, 7 b.z, 8 b.n */
static const char text[] =
	"require rpma\n"
	"nodes a b c\n"
	"a: rpma_mr_reg m len=4K usage=READ_SRC|WRITE_DST offset=12 prot=RO\n"          /* 3 */
	"b: rpma_mr_reg buf len=8K usage=WRITE_SRC null=PTR|MR_PTR\n"                  /* 4 */
	"b: rpma_mr_remote_from_descriptor r from=a.m size=64\n"                       /* 5 */
	"b: rpma_connect cn peer=a pmem\n"                                              /* 6 */
	"b: rpma_mr_reg alias len=4K usage=READ_DST buf=buf\n"                         /* 7 */
	"c: rpma_mr_remote_from_descriptor r2 from=b.r rkey=a.m.rkey+1 usage=0\n"      /* 8 */
	"b: rpma_mr_remote_from_descriptor t bytes=0x0102 addr=a.m.addr length=7\n"    /* 9 */
	"b: rpma_mr_remote_from_descriptor z null=DESC|MR_PTR\n"                       /* 10 */
	"b: rpma_write cn local=buf+8 remote=r+16 len=64\n"                             /* 11 */
	"b: rpma_read cn local=buf remote=r-8 len=4G flags=COMPLETION_ON_ERROR null=SRC\n" /* 12 */
	"b: rpma_read cn len=0 flags=0\n"                                               /* 13 */
	"b: rpma_atomic_write cn remote=r+8 value=0x1122 null=CONN|DST|SRC\n"           /* 14 */
	"b: rpma_flush cn remote=r+24 len=1M type=VISIBILITY\n"                         /* 15 */
	"b: rpma_flush cn remote=r len=8 type=2 flags=COMPLETION_ALWAYS\n"              /* 16 */
	"b: rpma_mr_dereg buf null=MR_PTR|MR\n"                                        /* 17 */
	"b: rpma_mr_get_descriptor buf null=DESC\n"                                    /* 18 */
	"b: rpma_mr_get_descriptor_size buf null=DESC_SIZE expect RPMA_E_INVAL\n"     /* 19 */
	"b: rpma_mr_remote_get_size r null=SIZE\n"                                     /* 20 */
	"b: rpma_mr_remote_get_flush_type r null=MR|FLUSH_TYPE\n"                      /* 21 */
	"b: rpma_conn_disconnect cn null=CONN expect RPMA_E_INVAL\n"                    /* 22 */
	"b: rpma_mr_reg n len=64 usage=SEND null=CONN\n"                               /* 23 */
	"b: rpma_write cn local=a.m remote=r len=8\n";                                  /* 24: another node's MR */

static void setup(void)
{
	fx_parse(text, "rr.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_rpma_registrations)
{
	struct hcall c = fx_ok(3);

	ck_assert_uint_eq(c.op, M_OP_RPMA_MR_REG);
	ck_assert_uint_eq(c.node, 0);
	ck_assert_int_eq(c.obj, 0);
	ck_assert_uint_eq(c.rpma.len, 4096);
	ck_assert_uint_eq(c.rpma.usage, M_RPMA_READ_SRC | M_RPMA_WRITE_DST);
	ck_assert_uint_eq(c.rpma.offset, 12);
	ck_assert_uint_eq(c.rpma.prot, M_PROT_RO);
	ck_assert_int_eq(c.rpma.mr, -1);
	ck_assert_uint_eq(c.rpma.nulls, 0);
	ck_assert_uint_eq(c.rpma.flags, M_RPMA_F_COMPLETION_ALWAYS); /* the default */
	c = fx_ok(4); /* rpma_mr_reg(peer, ptr, mr_ptr): PTR is bit 1, MR_PTR bit 2 */
	ck_assert_uint_eq(c.rpma.nulls, M_RPMA_NULL_ARG1 | M_RPMA_NULL_ARG2);
	ck_assert_uint_eq(c.rpma.prot, M_PROT_RW);
	c = fx_ok(7); /* buf=: the other MR's buffer */
	ck_assert_int_eq(c.rpma.mr, 1);
	ck_assert_int_eq(c.obj, 4);
	ck_assert_uint_eq(fx_nblob, 0);
}
END_TEST

START_TEST(test_rpma_descriptors)
{
	struct hcall c = fx_ok(5);

	ck_assert_uint_eq(c.op, M_OP_RPMA_REMOTE_FROM_DESC);
	ck_assert_int_eq(c.obj, 2);
	ck_assert_uint_eq(c.rpma.ndesc, 21);
	ck_assert_uint_eq(c.rpma.desc[0], 0x10);  /* a.m's bytes from the engine */
	ck_assert_uint_eq(c.rpma.desc[20], 0x10);
	ck_assert_uint_eq(c.rpma.size, 64);
	ck_assert_uint_eq(fx_nblob, 1);
	/* handed on: b.r's bytes, rkey and usage overwritten, size defaults to the bytes */
	c = fx_ok(8);
	ck_assert_uint_eq(c.node, 2);
	ck_assert_uint_eq(c.rpma.desc[0], 0x12);
	ck_assert_uint_eq(c.rpma.desc[16], 0x01);
	ck_assert_uint_eq(c.rpma.desc[17], 0x20);
	ck_assert_uint_eq(c.rpma.desc[18], 0);
	ck_assert_uint_eq(c.rpma.desc[20], 0);
	ck_assert_uint_eq(c.rpma.size, 21);
	/* bytes= (2), then fields written over them: the descriptor grows to 16 */
	c = fx_ok(9);
	ck_assert_uint_eq(c.rpma.ndesc, 16);
	ck_assert_uint_eq(c.rpma.desc[0], 0x00); /* addr 0xa0000000 little-endian */
	ck_assert_uint_eq(c.rpma.desc[3], 0xa0);
	ck_assert_uint_eq(c.rpma.desc[8], 7);
	ck_assert_uint_eq(c.rpma.size, 16);
	/* no descriptor at all: zeros, 21 passed */
	c = fx_ok(10);
	ck_assert_uint_eq(c.rpma.ndesc, 0);
	ck_assert_uint_eq(c.rpma.size, 21);
	ck_assert_uint_eq(c.rpma.nulls, M_RPMA_NULL_ARG0 | M_RPMA_NULL_ARG1);
}
END_TEST

START_TEST(test_rpma_connection_and_io)
{
	struct hcall c = fx_ok(6);

	ck_assert_uint_eq(c.op, M_OP_RPMA_CONNECT);
	ck_assert_uint_eq(c.node, 1);
	ck_assert_uint_eq(c.rpma.peer_node, 0);
	ck_assert_uint_eq(c.rpma.pmem, 1); /* pmem */
	ck_assert_int_eq(c.obj, 3);

	c = fx_ok(11);
	ck_assert_uint_eq(c.op, M_OP_RPMA_WRITE);
	ck_assert_int_eq(c.obj, 3);
	ck_assert_int_eq(c.rpma.mr, 1);
	ck_assert_uint_eq(c.rpma.offset, 8);
	ck_assert_int_eq(c.rpma.remote, 2);
	ck_assert_uint_eq(c.rpma.roff, 16);
	ck_assert_uint_eq(c.rpma.len, 64);
	ck_assert_uint_eq(c.rpma.flags, 3);

	c = fx_ok(12); /* rpma_read(conn, dst, src): SRC is bit 2; a negative offset wraps */
	ck_assert_uint_eq(c.rpma.offset, 0);
	ck_assert_uint_eq(c.rpma.roff, (uint64_t)-8);
	ck_assert_uint_eq(c.rpma.len, 4ull << 30);
	ck_assert_uint_eq(c.rpma.flags, M_RPMA_F_COMPLETION_ON_ERROR);
	ck_assert_uint_eq(c.rpma.nulls, M_RPMA_NULL_ARG2);

	c = fx_ok(13); /* no local, no remote: NULL MRs */
	ck_assert_int_eq(c.rpma.mr, -1);
	ck_assert_int_eq(c.rpma.remote, -1);
	ck_assert_uint_eq(c.rpma.flags, 0);

	c = fx_ok(14);
	ck_assert_uint_eq(c.op, M_OP_RPMA_ATOMIC_WRITE);
	ck_assert_uint_eq(c.rpma.value, 0x1122);
	ck_assert_uint_eq(c.rpma.roff, 8);
	ck_assert_uint_eq(c.rpma.nulls, 7);

	c = fx_ok(15);
	ck_assert_uint_eq(c.op, M_OP_RPMA_FLUSH);
	ck_assert_uint_eq(c.rpma.flush_type, M_RPMA_FLUSH_VISIBILITY);
	ck_assert_uint_eq(c.rpma.len, 1u << 20);
	ck_assert_uint_eq(c.rpma.roff, 24);
	ck_assert_uint_eq(fx_ok(16).rpma.flush_type, 2); /* an integer where a word goes */

	c = fx_ok(22);
	ck_assert_uint_eq(c.op, M_OP_RPMA_DISCONNECT);
	ck_assert_uint_eq(c.rpma.nulls, 1);
	ck_assert_uint_eq(c.nprefer, 1);
}
END_TEST

START_TEST(test_rpma_null_bits_per_call)
{
	struct hcall c;
	int32_t missing;

	ck_assert_uint_eq(fx_ok(17).rpma.nulls, 3);                 /* dereg(mr_ptr, *mr_ptr) */
	ck_assert_uint_eq(fx_ok(18).rpma.nulls, M_RPMA_NULL_ARG1); /* get_descriptor(mr, desc) */
	ck_assert_uint_eq(fx_ok(19).rpma.nulls, M_RPMA_NULL_ARG1);
	ck_assert_uint_eq(fx_ok(20).rpma.nulls, M_RPMA_NULL_ARG1);
	ck_assert_uint_eq(fx_ok(21).rpma.nulls, 3);
	/* a name the call has no argument of */
	ck_assert_int_eq(fx_res(23, &c, &missing), -EINVAL);
	/* librpma objects belong to the step's node */
	ck_assert_int_eq(fx_res(24, &c, &missing), -EINVAL);
}
END_TEST

START_TEST(test_rpma_missing_objects)
{
	struct hcall c;
	int32_t missing;

	fx_missing[0] = 0; /* a.m failed to register on this engine */
	ck_assert_int_eq(fx_res(5, &c, &missing), -ENOENT);
	ck_assert_int_eq(missing, 0);
	ck_assert_int_eq(fx_res(8, &c, &missing), -ENOENT); /* rkey=a.m.rkey+1 */
	ck_assert_int_eq(missing, 0);
}
END_TEST

/* The model engine runs a librpma scenario end to end (lint: generic reading). */
START_TEST(test_rpma_through_the_model_engine)
{
	static const char s[] =
		"require rpma\nnodes a b c\n"
		"a: rpma_mr_reg m len=4K usage=READ_SRC|WRITE_DST\n"
		"a: fill m byte=0x44\n"
		"b: rpma_mr_reg buf len=4K usage=READ_DST|WRITE_SRC\n"
		"b: rpma_mr_remote_from_descriptor r from=a.m\n"
		"c: rpma_mr_remote_from_descriptor r2 from=b.r\n"
		"c: rpma_mr_remote_get_size r2 expect size=4096\n"
		"c: rpma_mr_reg buf len=4K usage=READ_DST|WRITE_SRC\n"
		"c: rpma_connect cc peer=a\n"
		"c: rpma_read cc local=buf+0 remote=r2+0 len=4K expect SUCCESS\n"
		"c: check buf\n"
		"b: rpma_connect cn peer=a\n"
		"b: rpma_write cn local=buf+0 remote=r+4090 len=64 flags=COMPLETION_ON_ERROR expect REM_ACCESS_ERR\n"
		"b: rpma_read cn len=0 expect WR_FLUSH_ERR\n"
		"b: rpma_mr_remote_from_descriptor z from=a.m usage=0 expect RPMA_E_NOSUPP\n"
		"b: rpma_conn_disconnect cn\n"
		"b: rpma_conn_disconnect cn expect RPMA_E_INVAL\n"
		"a: rpma_mr_dereg m\n"
		"c: rpma_read cc local=buf+0 remote=r2+0 len=8 expect REM_ACCESS_ERR\n"
		"a: check m\n";
	struct scn_diags d;
	struct scn_file *sf;
	struct be_model eng;
	struct m_profile gen;
	struct result r;
	struct run_opts o = { .mode = RUN_LINT };

	ck_assert_int_eq(scn_parse_text(s, strlen(s), "m.scn", &sf, &d), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &gen), 0);
	o.prof = gen;
	o.engine_caps = gen.caps;
	ck_assert_int_eq(bm_init(&eng, sf, &gen), 0);
	ck_assert_int_eq(run_scenario(sf, &be_model_ops, &eng, &o, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s %s", verdict_str(r.v), r.reason, r.detail ? r.detail : "");
	ck_assert_uint_eq(r.steps_run, sf->nsteps - 2); /* check is no engine step */
	result_clear(&r);
	bm_free(&eng);
	scn_free(sf);
}
END_TEST

Suite *suite_test_resolve_rpma(void)
{
	Suite *s = suite_create("resolve_rpma");
	TCase *tc = tcase_create("librpma");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_rpma_registrations);
	tcase_add_test(tc, test_rpma_descriptors);
	tcase_add_test(tc, test_rpma_connection_and_io);
	tcase_add_test(tc, test_rpma_null_bits_per_call);
	tcase_add_test(tc, test_rpma_missing_objects);
	tcase_add_test(tc, test_rpma_through_the_model_engine);
	suite_add_tcase(s, tc);
	return s;
}
