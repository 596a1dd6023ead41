/*
 * Unit tests of the librpmem family's registry row (model/rpmem/rpmem.c):
 * its operations through model_predict/model_apply, and the clone/free
 * hooks that deep-copy and release the pools' bytes.
 */
#include "model/rpmem/rpmem.h"
#include "tests/unit/model_fx.h"

#include <stdio.h>

#define MIB (1ull << 20)

static struct m_rpmem_attr attr_of(char c)
{
	struct m_rpmem_attr a;

	memset(&a, 0, sizeof(a));
	memcpy(a.signature, "RDMACHK", 7);
	a.user_flags[0] = (unsigned char)c;
	return a;
}

/* The family through the model's public entry points: poolset, create, persist, clone, free. */
START_TEST(test_rpmem_family_registry_and_clone)
{
	struct model m, c;
	struct m_profile p;
	struct m_pred pr;
	struct m_op op;
	int h;

	ck_assert_int_eq(model_init(&m, 2), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &p), 0);
	ck_assert_int_eq(m_op_family(M_OP_RPMEM_PERSIST), M_FAM_RPMEM);
	ck_assert_str_eq(m_op_kind_str(M_OP_RPMEM_POOLSET), "rpmem_poolset");
	memset(&op, 0, sizeof(op));
	op.kind = M_OP_RPMEM_POOLSET;
	op.node = 0;
	op.obj = -1;
	op.rpmem.target = 1;
	snprintf(op.rpmem.set, sizeof(op.rpmem.set), "pool.set");
	op.rpmem.nparts = 1;
	op.rpmem.part[0] = 4 * MIB;
	ck_assert_int_eq(model_predict(&m, &p, &op, &pr), 0);
	ck_assert_int_eq(model_apply(&m, &pr, 0, &h), 0);
	ck_assert_int_eq(model_predict(&m, &p, &op, &pr), -EINVAL); /* the name is taken */
	op.kind = M_OP_RPMEM_CREATE;
	op.rpmem.pool_addr = 0x10000;
	op.rpmem.pool_size = MIB;
	op.rpmem.nlanes = 2;
	op.rpmem.attr = attr_of('r');
	ck_assert_int_eq(model_predict(&m, &p, &op, &pr), 0);
	ck_assert_int_eq(pr.op.kind, M_OP_RPMEM_CREATE);
	ck_assert_int_eq(model_pred_find(&pr, ok_()), 0);
	ck_assert_int_eq(model_apply(&m, &pr, 0, &h), 0);
	ck_assert_int_ge(h, 0);
	memset(&op.rpmem, 0, sizeof(op.rpmem));
	op.kind = M_OP_RPMEM_FILL;
	op.obj = (int16_t)h;
	op.rpmem.offset = 8192;
	op.rpmem.len = 64;
	op.rpmem.byte = 0x5a;
	ck_assert_int_eq(model_predict(&m, &p, &op, &pr), 0);
	ck_assert_int_eq(model_apply(&m, &pr, 0, NULL), 0);
	op.kind = M_OP_RPMEM_PERSIST;
	ck_assert_int_eq(model_predict(&m, &p, &op, &pr), 0);
	ck_assert_int_eq(model_apply(&m, &pr, (size_t)model_pred_find(&pr, ok_()), NULL), 0);
	ck_assert_int_eq(model_clone(&c, &m), 0);
	ck_assert_ptr_eq(c.rpmem.target[1].set[0].data, m.rpmem.target[1].set[0].data); /* shared until written */
	ck_assert_ptr_eq(c.rpmem.h[h].local, m.rpmem.h[h].local);
	model_free(&m);
	uint8_t b[64];
	memset(b, 0x5a, sizeof(b));
	ck_assert_int_eq(m_rpmem_part_compare(&c.rpmem, 1, "pool.set", 0, 8192, b, sizeof(b)), -1);
	model_free(&c);
	ck_assert_ptr_null(c.rpmem.target[1].set[0].data);
}
END_TEST

Suite *suite_test_model_rpmem_family(void)
{
	Suite *s = suite_create("model_rpmem_family");
	TCase *tc = tcase_create("family");

	tcase_add_test(tc, test_rpmem_family_registry_and_clone);
	suite_add_tcase(s, tc);
	return s;
}
