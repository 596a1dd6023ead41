/*
 * Unit tests of the model: QP stop states (modify_qp one transition at a
 * time, the attributes each needs, posts in INIT and RTR) and UD QPs
 * (address handles, SEND to a QP number with a Q_Key, the GRH, the MTU,
 * what UD drops, what it has no opcode for).
 */
#include "tests/unit/post_fx.h"

static struct m_op op_to(int node, int qp, enum m_qp_state st, uint32_t omit)
{
	return (struct m_op){ .kind = M_OP_MODIFY_QP, .node = (uint8_t)node, .obj = (int16_t)qp,
			      .verbs.qp_state = (uint32_t)st, .verbs.qp_omit = omit, .verbs.qkey = M_QKEY_DEFAULT,
			      .verbs.peer_node = -1, .verbs.peer_qp = -1 };
}

/* RTR of an RC/UC QP towards (pnode, pqp). */
static struct m_op op_rtr(int node, int qp, int pnode, int pqp, uint32_t omit)
{
	struct m_op op = op_to(node, qp, M_QPS_RTR, omit);

	op.verbs.peer_node = (int16_t)pnode;
	op.verbs.peer_qp = (int16_t)pqp;
	return op;
}

static int fx_qp_type(struct fx *f, int node, int pd, enum m_qp_type t)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = (uint8_t)node, .verbs.pd = (int16_t)pd,
				       .verbs.access = QP_ALL, .verbs.qp_type = (uint8_t)t }, ok_());
}

/* A UD QP on node brought to state st (INIT, RTR or RTS) with Q_Key qkey. */
static int fx_ud(struct fx *f, int node, int pd, enum m_qp_state st, uint32_t qkey)
{
	int q = fx_qp_type(f, node, pd, M_QPT_UD);
	struct m_op init = op_to(node, q, M_QPS_INIT, 0);

	init.verbs.qkey = qkey;
	fx_do(f, init, ok_());
	if (st >= M_QPS_RTR)
		fx_do(f, op_to(node, q, M_QPS_RTR, 0), ok_());
	if (st >= M_QPS_RTS)
		fx_do(f, op_to(node, q, M_QPS_RTS, 0), ok_());
	return q;
}

static int fx_ah(struct fx *f, int node, int pd, int to)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_CREATE_AH, .node = (uint8_t)node, .verbs.pd = (int16_t)pd,
				       .verbs.ah_node = (uint8_t)to }, ok_());
}

/* A UD SEND of len bytes of node 0's MR ma, through AH ah, to node 1's QP dq with qkey. */
static struct m_op op_ud(struct fx *f, int qa, int ma, int ah, int dq, uint64_t len, uint32_t qkey)
{
	struct m_op op = op_send(f, 0, qa, ma, len);

	op.verbs.ah = (int16_t)ah;
	op.verbs.peer_node = 1;
	op.verbs.peer_qp = (int16_t)dq;
	op.verbs.qkey = qkey;
	return op;
}

/* Two nodes: a PD and an 8 KiB RW MR each; node 0 a UD QP in RTS and an AH to node 1,
 * node 1 a UD QP in RTR (Q_Key 7). */
struct ud { int pa, pb, ma, mb, qa, qb, ah; };
static struct ud ud_pair(struct fx *f, const char *profile)
{
	struct ud u;

	fx_init(f, 2, profile);
	u.pa = fx_pd(f, 0);
	u.pb = fx_pd(f, 1);
	u.ma = fx_mr(f, 0, u.pa, 8192, RW);
	u.mb = fx_mr(f, 1, u.pb, 8192, RW);
	u.qa = fx_ud(f, 0, u.pa, M_QPS_RTS, 7);
	u.qb = fx_ud(f, 1, u.pb, M_QPS_RTR, 7);
	u.ah = fx_ah(f, 0, u.pa, 1);
	return u;
}

/* A receive of len bytes at MR mb + off on node 1's QP qb. */
static struct m_op op_recv_at(struct fx *f, int qb, int mb, uint64_t off, uint64_t len)
{
	struct m_op op = op_recv(f, 1, qb, mb, len);

	op.verbs.laddr += off;
	return op;
}

START_TEST(test_QP_STATE_3_transition_table)
{
	struct fx f;
	int pa, pb, qa, qb;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	pb = fx_pd(&f, 1);
	qa = fx_qp(&f, 0, pa, QP_ALL);
	qb = fx_qp(&f, 1, pb, QP_ALL);
	/* RESET reaches INIT only (ERR: QP-STATE-2). */
	ck_assert(fx_rule(fx_predict(&f, op_rtr(0, qa, 1, qb, 0)), err_(EINVAL), M_RULE_QP_STATE_3));
	ck_assert(fx_only(fx_predict(&f, op_to(0, qa, M_QPS_RTS, 0)), err_(EINVAL)));
	fx_do(&f, op_to(0, qa, M_QPS_INIT, 0), ok_());
	ck_assert_int_eq(fx_qps(&f, 0, qa), M_QPS_INIT);
	/* INIT: INIT again or RTR, not RTS; a refused step leaves the QP as it was. */
	fx_do(&f, op_to(0, qa, M_QPS_RTS, 0), err_(EINVAL));
	ck_assert_int_eq(fx_qps(&f, 0, qa), M_QPS_INIT);
	ck_assert(fx_only(fx_predict(&f, op_to(0, qa, M_QPS_INIT, 0)), ok_()));
	fx_do(&f, op_rtr(0, qa, 1, qb, 0), ok_());
	ck_assert(fx_only(fx_predict(&f, op_to(0, qa, M_QPS_INIT, 0)), err_(EINVAL)));
	fx_do(&f, op_to(0, qa, M_QPS_RTS, 0), ok_());
	ck_assert_int_eq(fx_qps(&f, 0, qa), M_QPS_RTS);
	ck_assert(fx_rule(fx_predict(&f, op_rtr(0, qa, 1, qb, 0)), err_(EINVAL), M_RULE_QP_STATE_3));
	/* An RC RTR needs the remote QP: without one the step is malformed. */
	struct m_pred pr;

	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_MODIFY_QP, .node = 1, .obj = (int16_t)qb,
		.verbs.qp_state = M_QPS_RTR, .verbs.peer_node = -1, .verbs.peer_qp = -1 }, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_QP_STATE_4_required_attributes)
{
	struct fx f;
	int pa, pb, qa, qb, ca, cb, u;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	pb = fx_pd(&f, 1);
	qa = fx_qp(&f, 0, pa, QP_ALL);
	qb = fx_qp(&f, 1, pb, QP_ALL);
	ca = fx_qp_type(&f, 0, pa, M_QPT_UC);
	cb = fx_qp_type(&f, 1, pb, M_QPT_UC);
	u = fx_qp_type(&f, 0, pa, M_QPT_UD);
	/* RESET to INIT: RC needs the access flags, UD the Q_Key instead. */
	ck_assert(fx_rule(fx_predict(&f, op_to(0, qa, M_QPS_INIT, M_QPA_ACCESS_FLAGS)), err_(EINVAL),
			  M_RULE_QP_STATE_4));
	ck_assert(fx_only(fx_predict(&f, op_to(0, qa, M_QPS_INIT, M_QPA_PORT)), err_(EINVAL)));
	ck_assert(fx_only(fx_predict(&f, op_to(0, u, M_QPS_INIT, M_QPA_QKEY)), err_(EINVAL)));
	ck_assert(fx_only(fx_predict(&f, op_to(0, u, M_QPS_INIT, M_QPA_ACCESS_FLAGS)), ok_()));
	fx_do(&f, op_to(0, qa, M_QPS_INIT, 0), ok_());
	fx_do(&f, op_to(0, ca, M_QPS_INIT, 0), ok_());
	/* INIT to RTR: RC's responder resources and RNR timer; UC has neither. */
	fx_do(&f, op_rtr(0, qa, 1, qb, M_QPA_MIN_RNR_TIMER), err_(EINVAL));
	ck_assert_int_eq(fx_qps(&f, 0, qa), M_QPS_INIT);
	ck_assert(fx_only(fx_predict(&f, op_rtr(0, qa, 1, qb, M_QPA_AV)), err_(EINVAL)));
	ck_assert(fx_only(fx_predict(&f, op_rtr(0, ca, 1, cb, M_QPA_MIN_RNR_TIMER)), ok_()));
	fx_do(&f, op_rtr(0, qa, 1, qb, 0), ok_());
	/* RTR to RTS: RC's timeout; RTS to RTS takes none of RTR to RTS's attributes. */
	ck_assert(fx_only(fx_predict(&f, op_to(0, qa, M_QPS_RTS, M_QPA_TIMEOUT)), err_(EINVAL)));
	fx_do(&f, op_to(0, qa, M_QPS_RTS, 0), ok_());
	ck_assert(fx_rule(fx_predict(&f, op_to(0, qa, M_QPS_RTS, 0)), err_(EINVAL), M_RULE_QP_STATE_4));
	ck_assert(fx_only(fx_predict(&f, op_to(0, qa, M_QPS_RTS, M_QPA_SQ_PSN | M_QPA_TIMEOUT | M_QPA_RETRY_CNT |
					       M_QPA_RNR_RETRY | M_QPA_MAX_QP_RD_ATOMIC)), ok_()));
	model_free(&f.m);
}
END_TEST

/* Posts in INIT and RTR: sends refused, receives taken and used once the QP receives (RTR). */
START_TEST(test_QP_STATE_1_posts_in_init_and_rtr)
{
	struct fx f;
	int pa, pb, ma, mb, qa, qb;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	pb = fx_pd(&f, 1);
	ma = fx_mr(&f, 0, pa, 4096, RW);
	mb = fx_mr(&f, 1, pb, 4096, RW);
	qa = fx_qp(&f, 0, pa, QP_ALL);
	qb = fx_qp(&f, 1, pb, QP_ALL);
	fx_do(&f, op_to(1, qb, M_QPS_INIT, 0), ok_());
	fx_do(&f, op_recv(&f, 1, qb, mb, 64), ok_());
	ck_assert(fx_rule(fx_predict(&f, op_send(&f, 1, qb, mb, 8)), err_(EINVAL), M_RULE_QP_STATE_1));
	fx_do(&f, op_rtr(1, qb, 0, qa, 0), ok_());
	ck_assert(fx_only(fx_predict(&f, op_send(&f, 1, qb, mb, 8)), err_(EINVAL)));
	fx_do(&f, op_to(0, qa, M_QPS_INIT, 0), ok_());
	fx_do(&f, op_rtr(0, qa, 1, qb, 0), ok_());
	fx_do(&f, op_to(0, qa, M_QPS_RTS, 0), ok_());
	/* An RTS QP sends to a peer in RTR: the receive posted in INIT takes it. */
	model_mr_set(&f.m, 0, ma, 0, 0x5a, 16);
	fx_do(&f, op_send(&f, 0, qa, ma, 16), wc_(M_WC_SUCCESS));
	ck_assert_int_eq(model_mr_byte(&f.m, 1, mb, 15), 0x5a);
	ck_assert_int_eq(f.m.node[1].qp[qb].nrecv, 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_UD_SEND_1_grh_then_payload)
{
	struct fx f;
	struct ud u = ud_pair(&f, "generic");
	struct m_pred pr;

	model_mr_set(&f.m, 0, u.ma, 0, 0x42, 64);
	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 100, 1024), ok_());
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 7));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)) && pr.alt[0].peer_recv == M_WC_SUCCESS);
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_UD_SEND_1));
	fx_do(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 7), wc_(M_WC_SUCCESS));
	for (int i = 100; i < 140; i++)
		ck_assert(model_mr_unknown(&f.m, 1, u.mb, i)); /* the GRH */
	ck_assert(!model_mr_unknown(&f.m, 1, u.mb, 99) && !model_mr_unknown(&f.m, 1, u.mb, 140) &&
		  model_mr_byte(&f.m, 1, u.mb, 140) == 0x42 && model_mr_byte(&f.m, 1, u.mb, 203) == 0x42);
	ck_assert(!model_mr_unknown(&f.m, 1, u.mb, 204) && model_mr_byte(&f.m, 1, u.mb, 204) == 0);
	ck_assert_int_eq(f.m.node[1].qp[u.qb].nrecv, 0);
	/* UD QPs are not connected, and an AH holds its PD (PD-3). */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_CONNECT, .node = 0, .obj = (int16_t)u.qa,
		.verbs.peer_node = 1, .verbs.peer_qp = (int16_t)u.qb }, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_PD_3_ah_holds_its_pd)
{
	struct fx f;
	int pd, ah;

	fx_init(&f, 2, "generic");
	pd = fx_pd(&f, 0);
	ah = fx_ah(&f, 0, pd, 1);
	ck_assert(fx_rule(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd)), err_(EBUSY), M_RULE_PD_3));
	fx_do(&f, op_obj(M_OP_DESTROY_AH, 0, ah), ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd)), ok_()));
	/* A destroyed AH is a freed pointer: malformed. */
	struct m_pred pr;

	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_DESTROY_AH, .node = 0, .obj = (int16_t)ah },
				       &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_UD_SEND_2_longer_than_the_mtu)
{
	struct fx f;
	struct ud u = ud_pair(&f, "generic");
	struct m_pred pr;

	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 0, 8192), ok_());
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 5000, 7));
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_LOC_LEN_ERR)) && pr.n == 2);
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_LEN_ERR), M_RULE_UD_SEND_2));
	/* Over 256 bytes, within 4096: the port's MTU decides. */
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 1100, 7));
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_UD_SEND_1));
	ck_assert(fx_only(fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 256, 7)), wc_(M_WC_SUCCESS)));
	fx_do(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 5000, 7), wc_(M_WC_LOC_LEN_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, u.qa), M_QPS_ERR);
	model_free(&f.m);
	/* rxe 6.1: sent, completed SUCCESS, and lost (the receive stays posted). */
	u = ud_pair(&f, "rxe");
	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 0, 8192), ok_());
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 5000, 7));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)) && pr.alt[0].peer_recv < 0);
	model_free(&f.m);
}
END_TEST

/* Apply the SUCCESS alternative of pr whose receive completes (recv) or not: as the runner follows the one seen. */
static void apply_success(struct fx *f, const struct m_pred *pr, int recv)
{
	int created;

	for (unsigned i = 0; i < pr->n; i++)
		if ((pr->alt[i].peer_recv == M_WC_SUCCESS) == recv) {
			ck_assert_int_eq(model_apply(&f->m, pr, i, &created), 0);
			return;
		}
	ck_abort_msg("no such alternative");
}

/* rxe 6.1 over 256 bytes and within 4096: the port's active MTU (unknown to the model) decides between
 * sent-and-lost and delivered; the peer's receive tells which (run_match_peer follows the one seen). */
START_TEST(test_UD_SEND_2_rxe_port_mtu_decides_lost_or_delivered)
{
	struct fx f;
	struct ud u = ud_pair(&f, "rxe");
	struct m_pred pr;
	int lost = 0, delivered = 0;

	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 0, 8192), ok_());
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 1000, 7));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	for (unsigned i = 0; i < pr.n; i++) {
		lost |= pr.alt[i].peer_recv < 0 && pr.alt[i].effect == M_EFF_NONE;
		delivered |= pr.alt[i].peer_recv == M_WC_SUCCESS;
	}
	ck_assert(lost && delivered);
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_UD_SEND_2));
	/* delivered (1000 bytes, port MTU 1024): the receive completes */
	apply_success(&f, &pr, 1);
	ck_assert_int_eq(f.m.node[1].qp[u.qb].nrecv, 0);
	/* lost (1100 bytes over the same MTU): the next receive stays posted */
	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 0, 8192), ok_());
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 1100, 7));
	apply_success(&f, &pr, 0);
	ck_assert_int_eq(f.m.node[1].qp[u.qb].nrecv, 1);
	model_free(&f.m);
}
END_TEST

START_TEST(test_UD_SEND_3_what_ud_drops)
{
	struct fx f;
	struct ud u = ud_pair(&f, "generic");
	struct m_op bad;
	struct m_pred pr;

	/* No receive posted: dropped. */
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 7));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_UD_SEND_3) && pr.alt[0].peer_recv < 0);
	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 0, 1024), ok_());
	/* Another Q_Key, a QP number no QP has, a QP that is not UD or not yet RTR: dropped. */
	fx_do(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 8), wc_(M_WC_SUCCESS));
	bad = op_ud(&f, u.qa, u.ma, u.ah, -1, 64, 7);
	bad.verbs.peer_node = -1;
	bad.verbs.dest_qpn = 0xfff000;
	fx_do(&f, bad, wc_(M_WC_SUCCESS));
	int rc = fx_qp(&f, 1, u.pb, QP_ALL), init = fx_ud(&f, 1, u.pb, M_QPS_INIT, 7);

	fx_do(&f, op_ud(&f, u.qa, u.ma, u.ah, rc, 64, 7), wc_(M_WC_SUCCESS));
	fx_do(&f, op_ud(&f, u.qa, u.ma, u.ah, init, 64, 7), wc_(M_WC_SUCCESS));
	ck_assert_int_eq(f.m.node[1].qp[u.qb].nrecv, 1);
	ck_assert(!model_mr_unknown(&f.m, 1, u.mb, 0));
	/* A Q_Key with the high bit set: the sender's own (7) goes out, or the WR's as it is (rxe). */
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 0x80000000u));
	ck_assert(pr.n == 2 && pr.alt[0].peer_recv == M_WC_SUCCESS && pr.alt[1].peer_recv < 0);
	ck_assert(fx_only(fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 9)), wc_(M_WC_SUCCESS)));
	ck_assert(fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 9)).alt[0].peer_recv < 0);
	model_free(&f.m);
	/* A receive too short for GRH and payload: dropped (or the receive fails); rxe: it
	 * completes LOC_QP_OP_ERR and the responder goes to ERR. */
	u = ud_pair(&f, "generic");
	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 0, 100), ok_());
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 7));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)) && pr.n == 2);
	fx_do(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 7), wc_(M_WC_SUCCESS));
	ck_assert(model_mr_unknown(&f.m, 1, u.mb, 99) && !model_mr_unknown(&f.m, 1, u.mb, 100));
	model_free(&f.m);
	u = ud_pair(&f, "rxe");
	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 0, 100), ok_());
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 7));
	ck_assert(pr.n == 1 && pr.alt[0].peer_recv == M_WC_LOC_QP_OP_ERR && pr.alt[0].peer_state == M_QPS_ERR);
	fx_do(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 7), wc_(M_WC_SUCCESS));
	ck_assert_int_eq(fx_qps(&f, 1, u.qb), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

/* A receive reaching past its MR on a UD QP: class A, the responder to ERR, the requester never knows. */
START_TEST(test_LP_4_malformed_receive_on_ud)
{
	struct fx f;
	struct ud u = ud_pair(&f, "generic");
	struct m_pred pr;

	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 8100, 1024), ok_());
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 7));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)) && fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_LP_4));
	ck_assert_int_eq(pr.alt[0].peer_state, M_QPS_ERR);
	fx_do(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 7), wc_(M_WC_SUCCESS));
	ck_assert(model_mr_unknown(&f.m, 1, u.mb, 8191) && !model_mr_unknown(&f.m, 1, u.mb, 8099));
	ck_assert_int_eq(fx_qps(&f, 0, u.qa), M_QPS_RTS);
	model_free(&f.m);
}
END_TEST

START_TEST(test_UD_AH_1_ah_of_another_pd)
{
	struct fx f;
	struct ud u = ud_pair(&f, "generic");
	int other = fx_pd(&f, 0), ah2 = fx_ah(&f, 0, other, 1);
	struct m_pred pr;

	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 0, 1024), ok_());
	pr = fx_predict(&f, op_ud(&f, u.qa, u.ma, ah2, u.qb, 64, 7));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_UD_AH_1) && fx_has(pr, wc_(M_WC_SUCCESS)));
	model_free(&f.m);
	u = ud_pair(&f, "rxe");
	other = fx_pd(&f, 0);
	ah2 = fx_ah(&f, 0, other, 1);
	fx_do(&f, op_ud(&f, u.qa, u.ma, ah2, u.qb, 64, 7), wc_(M_WC_LOC_QP_OP_ERR));
	ck_assert(fx_only(fx_predict(&f, op_ud(&f, u.qa, u.ma, u.ah, u.qb, 64, 7)), wc_(M_WC_WR_FLUSH_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_4_no_bind_on_ud)
{
	struct fx f;
	struct ud u = ud_pair(&f, "generic");
	int mw = fx_do(&f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)u.pa,
					  .verbs.mw_type = M_MW_TYPE_2 }, ok_());
	struct m_op b = { .kind = M_OP_BIND_MW, .node = 0, .obj = (int16_t)mw, .verbs.qp = (int16_t)u.qa,
			  .verbs.mr = (int16_t)u.ma, .verbs.len = 64, .verbs.access = M_ACC_REMOTE_READ,
			  .verbs.offset = f.m.node[0].mr[u.ma].iova };
	struct m_pred pr = fx_predict(&f, b);

	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MW_BIND_4) && fx_has(pr, wc_(M_WC_MW_BIND_ERR)));
	model_free(&f.m);
	u = ud_pair(&f, "rxe");
	mw = fx_do(&f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)u.pa,
				      .verbs.mw_type = M_MW_TYPE_2 }, ok_());
	b.obj = (int16_t)mw;
	ck_assert(fx_only(fx_predict(&f, b), err_(EINVAL)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ATOM_4_no_rdma_on_ud)
{
	struct fx f;
	struct ud u = ud_pair(&f, "generic");

	for (int k = 0; k < 4; k++) {
		static const enum m_op_kind kinds[] = { M_OP_READ, M_OP_WRITE, M_OP_WRITE_IMM, M_OP_FADD };
		struct m_pred pr = fx_predict(&f, op_rdma(&f, kinds[k], 0, u.qa, u.ma, 0, 1, u.mb, 0, 8));

		ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_RA_ATOM_4) && fx_has(pr, err_(EINVAL)));
	}
	fx_do(&f, op_rdma(&f, M_OP_READ, 0, u.qa, u.ma, 0, 1, u.mb, 0, 8), wc_(M_WC_LOC_QP_OP_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, u.qa), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

/* A UD send through an AH whose handle the program garbled (rdma-unit-test SendInvalidAh). */
START_TEST(test_HANDLE_1_ud_send_garbled_ah)
{
	struct fx f;
	struct ud u = ud_pair(&f, "generic");
	struct m_op snd = op_ud(&f, u.qa, u.ma, u.ah, u.qb, 100, 7);
	struct m_pred pr;

	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 0, 1024), ok_());
	ck_assert(fx_only(fx_predict(&f, snd), wc_(M_WC_SUCCESS)));
	snd.verbs.garble = M_GARBLE_AH;
	pr = fx_predict(&f, snd);
	/* Sent from the AH's address vector as it would be, or refused with the QP to ERR. */
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)) && fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_HANDLE_1));
	fx_do(&f, snd, wc_(M_WC_LOC_QP_OP_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, u.qa), M_QPS_ERR);
	ck_assert_int_eq(f.m.node[1].qp[u.qb].nrecv, 1); /* nothing arrived */
	model_free(&f.m);
	/* Sent as it would be: the payload lands after the GRH. */
	u = ud_pair(&f, "generic");
	snd = op_ud(&f, u.qa, u.ma, u.ah, u.qb, 1000, 7); /* longer than the smallest path MTU (UD-SEND-2) */
	snd.verbs.garble = M_GARBLE_AH;
	model_mr_set(&f.m, 0, u.ma, 0, 0x42, 1000);
	fx_do(&f, op_recv_at(&f, u.qb, u.mb, 0, 2048), ok_());
	fx_do(&f, snd, wc_(M_WC_SUCCESS));
	ck_assert_int_eq(model_mr_byte(&f.m, 1, u.mb, 40), 0x42);
	ck_assert_int_eq(f.m.node[1].qp[u.qb].nrecv, 0);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_ud(void)
{
	Suite *s = suite_create("model_ud");
	TCase *tc = tcase_create("ud");

	RTEST(tc, QP_STATE_3, test_QP_STATE_3_transition_table);
	RTEST(tc, QP_STATE_4, test_QP_STATE_4_required_attributes);
	RTEST(tc, QP_STATE_1, test_QP_STATE_1_posts_in_init_and_rtr);
	RTEST(tc, UD_SEND_1, test_UD_SEND_1_grh_then_payload);
	RTEST(tc, PD_3, test_PD_3_ah_holds_its_pd);
	RTEST(tc, UD_SEND_2, test_UD_SEND_2_longer_than_the_mtu);
	RTEST(tc, UD_SEND_2, test_UD_SEND_2_rxe_port_mtu_decides_lost_or_delivered);
	RTEST(tc, UD_SEND_3, test_UD_SEND_3_what_ud_drops);
	RTEST(tc, LP_4, test_LP_4_malformed_receive_on_ud);
	RTEST(tc, UD_AH_1, test_UD_AH_1_ah_of_another_pd);
	RTEST(tc, MW_BIND_4, test_MW_BIND_4_no_bind_on_ud);
	RTEST(tc, RA_ATOM_4, test_RA_ATOM_4_no_rdma_on_ud);
	RTEST(tc, HANDLE_1, test_HANDLE_1_ud_send_garbled_ah);
	suite_add_tcase(s, tc);
	return s;
}
