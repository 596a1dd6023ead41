/*
 * Unit tests of the accepted uDAPL EP's name (dat_ep_connect accept=): the
 * language declares it on the peer's node (harness/lang/scn_decl.c),
 * resolution hands its id over (resolve_dat.c), and the model engine maps it
 * to the model's accepting connection (model_made_dat), so later steps post,
 * disconnect and free on the passive side; scenarios/dat/029-031.
 */
#include "harness/run/be_model.h"
#include "harness/run/runner.h"
#include "tests/unit/dat_fx.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <string.h>

#define BASE "require dapl\nnodes a b\na: dat_ia_open\nb: dat_ia_open\na: dat_pz_create z\nb: dat_pz_create z\n" \
	     "a: dat_lmr_create t pz=z len=4K priv=WRITE|REMOTE_READ\nb: dat_lmr_create src pz=z len=4K priv=LOCAL_WRITE\n"

START_TEST(test_accept_declares_the_peer_ep)
{
	struct scn_file *f = parse_ok(BASE "a: dat_ep_connect e pz=z peer=b.z accept=f\n"
				      "b: dat_ep_post_rdma_write f local=src+0 remote=a.t+0 len=64\n"
				      "b: dat_ep_connect g pz=z peer=a.z accept=a.h expect DAT_INVALID_HANDLE\n");
	const struct scn_step *s = &f->steps[6];
	const struct scn_value *v = scn_step_arg(s, "accept");

	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->node, 1);
	ck_assert_str_eq(f->objs[v->obj].name, "f");
	ck_assert_uint_eq(f->objs[v->obj].node, 1);
	ck_assert_uint_eq(f->objs[v->obj].cls, SCN_C_DAT_EP);
	ck_assert(f->objs[v->obj].live);
	ck_assert_uint_eq(f->objs[v->obj].step, 6);
	/* the post names it on its own node; printed back with its node */
	ck_assert_int_eq(f->steps[7].obj, v->obj);
	ck_assert_str_eq(fmt(f, 6), "a: dat_ep_connect e pz=z peer=b.z accept=b.f");
	/* a connection that is expected to fail makes no live EP on either side */
	v = scn_step_arg(&f->steps[8], "accept");
	ck_assert_str_eq(f->objs[v->obj].name, "h");
	ck_assert_uint_eq(f->objs[v->obj].node, 0);
	ck_assert(!f->objs[v->obj].live);
	scn_free(f);
}
END_TEST

START_TEST(test_accept_refusals)
{
	/* the accepted EP is the peer's: another node is an error */
	ck_assert_int_eq(parse_err(BASE "a: dat_ep_connect e pz=z peer=b.z accept=a.f\n"), SCN_E_DECL_NODE);
	ck_assert_str_eq(scn_fx_d.d[0].msg, "accept= makes 'f' on node b (the peer's), not on node a");
	/* a live name of the peer's node is not made again */
	ck_assert_int_eq(parse_err(BASE "a: dat_ep_connect e pz=z peer=b.z accept=src\n"), SCN_E_LIVE);
	ck_assert_int_eq(parse_err(BASE "a: dat_ep_connect e pz=z peer=b.z accept=x.f\n"), SCN_E_UNKNOWN_NODE);
	ck_assert_int_eq(parse_err(BASE "a: dat_ep_connect e pz=z peer=b.z accept=expect\n"), SCN_E_RESERVED_NAME);
	ck_assert_int_eq(parse_err(BASE "a: dat_ep_connect e pz=z peer=b.z accept=f+8\n"), SCN_E_BAD_NAME);
	/* without accept= the passive EP has no name on b */
	ck_assert_int_eq(parse_err(BASE "a: dat_ep_connect e pz=z peer=b.z\n"
					"b: dat_ep_disconnect e\n"),
			 SCN_E_UNKNOWN_NAME);
}
END_TEST

/* Run text on the model engine as lint does; the verdict. */
static enum verdict lint(const char *text, struct result *r)
{
	struct scn_file *f = parse_ok(text);
	struct run_opts o = { .mode = RUN_LINT, .engine_caps = M_CAP_DAPL };
	struct m_profile gen;
	struct be_model eng;

	ck_assert_int_eq(m_profile_get("rxe", 0, &o.prof), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &gen), 0);
	ck_assert_int_eq(bm_init(&eng, f, &gen), 0);
	ck_assert_int_eq(run_scenario(f, &be_model_ops, &eng, &o, r), 0);
	bm_free(&eng);
	scn_free(f);
	return r->v;
}

START_TEST(test_accepted_ep_posts_and_disconnects_on_the_model)
{
	static const char text[] = BASE "a: dat_ep_connect e pz=z peer=b.z accept=f\n"
				   "b: fill src byte=0x5a\n"
				   "b: dat_ep_post_rdma_write f local=src+0 remote=a.t+64 len=128 expect DAT_DTO_SUCCESS\n"
				   "a: check t\n"
				   "b: dat_ep_post_rdma_read f local=src+1K remote=a.t+0 len=64 expect DAT_DTO_SUCCESS\n"
				   "b: dat_ep_disconnect f expect ok\n"
				   "a: dat_ep_post_rdma_write e local=t+0 remote=b.src+0 len=8 expect DAT_DTO_ERR_FLUSHED\n"
				   "b: dat_ep_free f expect ok\n"
				   "b: dat_ep_free f expect DAT_INVALID_HANDLE\n";
	struct result r;

	ck_assert_msg(lint(text, &r) == V_PASS, "%s", r.reason);
	result_clear(&r);
	/* the accepted EP is the model's: its side's DTO moves bytes, a wrong expect is a disagreement */
	ck_assert_int_eq(lint(BASE "a: dat_ep_connect e pz=z peer=b.z accept=f\n"
			      "b: dat_ep_disconnect f\n"
			      "b: dat_ep_post_rdma_write f local=src+0 remote=a.t+0 len=8 expect DAT_DTO_SUCCESS\n", &r),
			 V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	result_clear(&r);
}
END_TEST

/* A connection from node 0's PZ to node 1's, the accepting EP named (named) or not; its two conn[] ends. */
static void named_pair(struct fx *f, int named, int *ca, int *cb)
{
	int za = dat_node(f, 0), zb = dat_node(f, 1);

	*ca = fx_do(f, (struct m_op){ .kind = M_OP_DAT_EP_CONNECT, .node = 0, .obj = -1, .dat.pz = (int16_t)za,
				      .dat.peer_node = 1, .dat.peer_pz = (int16_t)zb, .dat.named = (uint8_t)named },
		    ok_());
	*cb = f->m.node[0].conn[*ca].peer_conn;
}

START_TEST(test_DAT_EP_3_named_end_is_freed_alone)
{
	struct fx f;
	int ca, cb;

	/* both ends named: freeing the initiator's disconnects the accepted one, which stays */
	fx_init(&f, 2, "rxe");
	named_pair(&f, 1, &ca, &cb);
	fx_do(&f, op_obj(M_OP_DAT_EP_FREE, 0, ca), ok_());
	ck_assert(!f.m.node[0].conn[ca].live);
	ck_assert(f.m.node[1].conn[cb].live);
	ck_assert_int_eq(fx_qps(&f, 1, f.m.node[1].conn[cb].qp), M_QPS_ERR);
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_EP_FREE, 1, cb)), ok_()));
	fx_do(&f, op_obj(M_OP_DAT_EP_FREE, 1, cb), ok_());
	ck_assert(!f.m.node[1].conn[cb].live);
	ck_assert(!f.m.node[1].qp[f.m.node[1].conn[cb].qp].live);
	model_free(&f.m);
	/* the accepting EP unnamed: dat_ep_free frees both ends, as before */
	fx_init(&f, 2, "rxe");
	named_pair(&f, 0, &ca, &cb);
	fx_do(&f, op_obj(M_OP_DAT_EP_FREE, 0, ca), ok_());
	ck_assert(!f.m.node[1].conn[cb].live);
	ck_assert(!f.m.node[1].qp[f.m.node[1].conn[cb].qp].live);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_dat_accept(void)
{
	Suite *s = suite_create("test_dat_accept");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_accept_declares_the_peer_ep);
	tcase_add_test(tc, test_accept_refusals);
	tcase_add_test(tc, test_accepted_ep_posts_and_disconnects_on_the_model);
	tcase_add_test(tc, test_DAT_EP_3_named_end_is_freed_alone);
	suite_add_tcase(s, tc);
	return s;
}
