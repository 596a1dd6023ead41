/*
 * Unit tests of the model: an atomic's local SGE that is not 8 bytes
 * (RA-ATOM-2). The specification reading (generic): refused, at the post
 * (EINVAL) or by a LOC_LEN_ERR completion, longer or shorter alike
 * (rdma-unit-test CompareSwapInvalidSize, 9 bytes: LOC_LEN_ERR). rxe 6.1
 * refuses a shorter one only: rdma-core's rxe validate_send_wr checks
 * length < 8, so a longer SGE goes on and the atomic runs (its 8 bytes land
 * in the SGE's first 8): a deviation of the rxe profile, seen in verbs/261.
 */
#include "tests/unit/model_fx.h"

START_TEST(test_RA_ATOM_2_longer_sge_generic_refused)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op c = op_rdma(&f, M_OP_CAS, 0, s.qa, s.ma, 0, 1, s.mb, 0, 9);
	struct m_pred pr = fx_predict(&f, c);

	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_LOC_LEN_ERR)));
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_LEN_ERR), M_RULE_RA_ATOM_2));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ATOM_2_longer_sge_rxe_goes_on)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	struct m_op c = op_rdma(&f, M_OP_CAS, 0, s.qa, s.ma, 0, 1, s.mb, 0, 9);
	struct m_op fadd = op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 0, 16);
	struct m_pred pr = fx_predict(&f, c);

	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RA_ATOM_2));
	ck_assert(fx_only(fx_predict(&f, fadd), wc_(M_WC_SUCCESS)));
	/* shorter: still refused (rxe: at the post) */
	c.verbs.len = 4;
	pr = fx_predict(&f, c);
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_has(pr, err_(EINVAL)));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_atom_len(void)
{
	Suite *s = suite_create("model_atom_len");
	TCase *tc = tcase_create("atom_len");

	tcase_add_test(tc, test_RA_ATOM_2_longer_sge_generic_refused);
	tcase_add_test(tc, test_RA_ATOM_2_longer_sge_rxe_goes_on);
	suite_add_tcase(s, tc);
	return s;
}
