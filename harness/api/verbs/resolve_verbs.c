/* resolve_verbs.c — libibverbs steps -> struct hcall's verbs arguments (family.h: resolve; backend.h: struct hc_verbs). */
#include "harness/api/verbs/api_verbs.h"
#include "harness/run/resolve_internal.h"

#include <string.h>

/* reg_mr and rereg_mr buf=MR+OFF: the buffer of that MR (the parser keeps it on the node) from byte OFF. */
static void buf_arg(const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v = scn_step_arg(s, "buf");

	if (!v)
		return;
	c->verbs.in_buf = 1;
	c->verbs.mr = rsv_obj(v);
	c->verbs.buf_off = v->neg ? 0 - v->num : v->num;
}

static void reg_mr(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v;

	c->verbs.len = rsv_num(r, scn_step_arg(s, "len"), 0);
	c->verbs.access = (uint32_t)rsv_num(r, scn_step_arg(s, "access"), 0);
	c->verbs.offset = rsv_num(r, scn_step_arg(s, "offset"), 0);
	c->verbs.prot = (uint8_t)rsv_num(r, scn_step_arg(s, "prot"), M_PROT_RW);
	if ((v = scn_step_arg(s, "iova"))) {
		c->verbs.has_iova = 1;
		c->verbs.iova = rsv_num(r, v, 0);
	}
	buf_arg(s, c); /* another registration of that MR's buffer */
}

static void rereg_mr(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *pd = scn_step_arg(s, "pd"), *acc = scn_step_arg(s, "access"), *v;

	c->verbs.access = (uint32_t)rsv_num(r, acc, 0);
	c->verbs.len = rsv_num(r, scn_step_arg(s, "len"), 0);
	buf_arg(s, c); /* CHANGE_TRANSLATION onto that buffer (none: the MR's own) */
	if ((v = scn_step_arg(s, "flags")))
		c->verbs.rereg_flags = (uint32_t)v->num;
	else
		c->verbs.rereg_flags = (pd ? M_REREG_CHANGE_PD : 0) | (acc ? M_REREG_CHANGE_ACCESS : 0);
}

static void bind_mw(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v = scn_step_arg(s, "mr");
	uint32_t key;

	c->verbs.start = 0;
	if (v) { /* none: a NULL bind_info.mr (MW-BIND-2) */
		c->verbs.mr = rsv_obj(v);
		rsv_ref(r, v, 1, &c->verbs.start, &key); /* the window start, in the MR's address space */
	}
	c->verbs.len = rsv_num(r, scn_step_arg(s, "len"), 0);
	c->verbs.access = (uint32_t)rsv_num(r, scn_step_arg(s, "access"), 0);
	c->verbs.zero_based = (uint8_t)rsv_bare(s, "zero_based");
	if (rsv_bare(s, "call"))
		c->verbs.bind_call = 1; /* through ibv_bind_mw() whatever the type */
}

static void qp_connect(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v = scn_step_arg(s, "peer");

	c->verbs.peer = rsv_obj(v);
	c->verbs.peer_node = v ? (uint8_t)v->node : 0;
	for (int i = 0; i < HC_COUNT_; i++)
		if ((v = scn_step_arg(s, hconn_key((enum hconn)i)))) {
			c->verbs.conn_set |= 1u << i;
			c->verbs.conn[i] = (uint32_t)rsv_num(r, v, 0);
		}
}

/* The local SGE of a post: local=, and for write, write_imm and send inline and lkey=. */
static void local_sge(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v, *l = scn_step_arg(s, "local");

	c->verbs.no_sge = !l; /* no local=: num_sge 0 */
	c->verbs.laddr = c->verbs.lkey = 0;
	if (l)
		rsv_ref(r, l, 0, &c->verbs.laddr, &c->verbs.lkey);
	if ((v = scn_step_arg(s, "lkey")))
		c->verbs.lkey = (uint32_t)rsv_num(r, v, 0);
	c->verbs.send_inline = (uint8_t)rsv_bare(s, "inline");
}

/* write, read, cas, fadd, write_imm: the local SGE, the remote address and key, the atomic operands. */
static void rdma(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v;

	local_sge(r, s, c);
	c->verbs.imm_data = (uint32_t)rsv_num(r, scn_step_arg(s, "imm_data"), 0);
	rsv_ref(r, scn_step_arg(s, "remote"), 1, &c->verbs.raddr, &c->verbs.rkey);
	if ((v = scn_step_arg(s, "rkey")))
		c->verbs.rkey = (uint32_t)rsv_num(r, v, 0);
	if (c->op == M_OP_CAS) {
		c->verbs.len = rsv_num(r, scn_step_arg(s, "len"), 8);
		c->verbs.compare = rsv_num(r, scn_step_arg(s, "compare"), 0);
		c->verbs.swap = rsv_num(r, scn_step_arg(s, "swap"), 0);
	} else if (c->op == M_OP_FADD) {
		c->verbs.len = rsv_num(r, scn_step_arg(s, "len"), 8);
		c->verbs.swap = c->verbs.compare = rsv_num(r, scn_step_arg(s, "add"), 0);
	} else {
		c->verbs.len = rsv_num(r, scn_step_arg(s, "len"), 0);
	}
	resolve_sge_more(r, s, c);
}

/* A QP argument key as the peer of c (modify_qp RTR's peer=, a UD send's dest=), if given. */
static void peer_qp(const struct scn_step *s, const char *key, struct hcall *c)
{
	const struct scn_value *v = scn_step_arg(s, key);

	if (v) {
		c->verbs.peer = rsv_obj(v);
		c->verbs.peer_node = (uint8_t)v->node;
	}
}

/* modify_qp: the state, RTR's peer=, omit=, a UD QP's qkey= at INIT. */
static void modify_qp(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	c->verbs.qp_state = (uint32_t)rsv_num(r, scn_step_arg(s, "state"), M_QPS_ERR);
	c->verbs.qp_omit = (uint32_t)rsv_num(r, scn_step_arg(s, "omit"), 0);
	c->verbs.qkey = (uint32_t)rsv_num(r, scn_step_arg(s, "qkey"), M_QKEY_DEFAULT);
	peer_qp(s, "peer", c);
}

/* A UD send's ah=, dest= (or a raw qpn=) and qkey=. */
static void ud_dest(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v;

	c->verbs.ah = rsv_obj(scn_step_arg(s, "ah"));
	c->verbs.qkey = (uint32_t)rsv_num(r, scn_step_arg(s, "qkey"), M_QKEY_DEFAULT);
	peer_qp(s, "dest", c);
	if ((v = scn_step_arg(s, "qpn"))) {
		c->verbs.raw_qpn = 1;
		c->verbs.dest_qpn = (uint32_t)rsv_num(r, v, 0);
	}
}

/* recv, send: the local SGE; send's inv= the rkey it invalidates. */
static void sendrecv(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v;

	local_sge(r, s, c);
	c->verbs.len = rsv_num(r, scn_step_arg(s, "len"), 0);
	c->verbs.with_imm = (uint8_t)(rsv_bare(s, "imm") || scn_step_arg(s, "imm_data"));
	c->verbs.imm_data = (uint32_t)rsv_num(r, scn_step_arg(s, "imm_data"), 0);
	ud_dest(r, s, c);
	resolve_sge_more(r, s, c);
	if ((v = scn_step_arg(s, "inv"))) {
		uint64_t k;

		c->verbs.with_inv = 1;
		rsv_attr(r, v->obj, SCN_ATTR_RKEY, &k);
		c->verbs.inv_rkey = (uint32_t)k;
	}
}

static void local_inv(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v;
	uint64_t k = 0;

	if ((v = scn_step_arg(s, "rkey")))
		k = rsv_num(r, v, 0);
	else if ((v = scn_step_arg(s, "mw")))
		rsv_attr(r, v->obj, SCN_ATTR_RKEY, &k);
	c->verbs.inv_rkey = (uint32_t)k;
}

/* create_qp's CQs: cq= both, send_cq=/recv_cq= each (-1: the QP's own); sig_all. */
static void qp_cqs(const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *both = scn_step_arg(s, "cq"), *v;

	c->verbs.scq = c->verbs.rcq = both ? rsv_obj(both) : -1;
	if ((v = scn_step_arg(s, "send_cq")))
		c->verbs.scq = rsv_obj(v);
	if ((v = scn_step_arg(s, "recv_cq")))
		c->verbs.rcq = rsv_obj(v);
	c->verbs.sig_all = (uint8_t)rsv_bare(s, "sig_all");
}

/* The model's M_FLD_* of an object class the fields step reads. */
static uint8_t fields_of(uint32_t cls)
{
	static const struct { uint32_t cls; uint8_t of; } map[] = {
		{ SCN_C_PD, M_FLD_PD }, { SCN_C_MR, M_FLD_MR }, { SCN_C_MW, M_FLD_MW }, { SCN_C_QP, M_FLD_QP },
		{ SCN_C_CQ, M_FLD_CQ }, { SCN_C_AH, M_FLD_AH }, { SCN_C_SRQ, M_FLD_SRQ }, { SCN_C_CHAN, M_FLD_CHAN },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].cls == cls)
			return map[i].of;
	return M_FLD_PD;
}

int resolve_verbs(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *sig = scn_step_arg(s, "signaled"), *wait = scn_step_arg(s, "wait");

	c->verbs.pd = rsv_obj(scn_step_arg(s, "pd"));
	c->verbs.qp = rsv_obj(scn_step_arg(s, "qp"));
	c->verbs.mr = c->verbs.peer = c->verbs.scq = c->verbs.rcq = c->verbs.ah = -1;
	c->verbs.srq = rsv_obj(scn_step_arg(s, "srq"));
	c->verbs.wr_id = (uint32_t)rsv_num(r, scn_step_arg(s, "id"), s->line);
	c->verbs.unsignaled = sig && sig->num == 0;
	c->verbs.nowait = wait && wait->num == 0;
	c->verbs.wr_api = (uint8_t)rsv_num(r, scn_step_arg(s, "wr"), 0);
	c->verbs.cq_depth = (uint32_t)rsv_num(r, scn_step_arg(s, "depth"), M_CQ_DEPTH_DEFAULT);
	c->verbs.max_wc = (uint32_t)rsv_num(r, scn_step_arg(s, "max"), M_POLL_MAX);
	c->verbs.no_sge = c->verbs.nsge_more = 0;
	c->verbs.garble = (uint8_t)rsv_num(r, scn_step_arg(s, "garble"), M_GARBLE_NONE);
	c->verbs.chan = rsv_obj(scn_step_arg(s, "channel"));
	c->verbs.comp_vec = (uint8_t)rsv_num(r, scn_step_arg(s, "vector"), M_VEC_ZERO);
	c->verbs.cq_ex = (uint8_t)rsv_num(r, scn_step_arg(s, "ex"), 0);
	c->verbs.wc_flags = (uint16_t)rsv_num(r, scn_step_arg(s, "wc_flags"), 0);
	c->verbs.cq_flags = (uint8_t)rsv_num(r, scn_step_arg(s, "flags"), 0);
	c->verbs.port = (uint8_t)rsv_num(r, scn_step_arg(s, "port"), M_PORT_ONE);
	c->verbs.dev_ex = (uint8_t)rsv_bare(s, "ex");
	c->verbs.gid_empty = (uint8_t)rsv_bare(s, "empty");
	c->verbs.gid_none = scn_step_arg(s, "max") && c->op == M_OP_QUERY_GID_TABLE;
	c->verbs.solicited = (uint8_t)rsv_num(r, scn_step_arg(s, "solicited"), 0);
	c->verbs.nack = (uint8_t)rsv_num(r, scn_step_arg(s, "n"), 1);
	switch ((enum m_op_kind)c->op) {
	case M_OP_REG_MR: reg_mr(r, s, c); break;
	case M_OP_REREG_MR: rereg_mr(r, s, c); break;
	case M_OP_ALLOC_MW: c->verbs.mw_type = (uint32_t)rsv_num(r, scn_step_arg(s, "type"), 2); break;
	case M_OP_BIND_MW: bind_mw(r, s, c); break;
	case M_OP_CREATE_QP:
		c->verbs.access = (uint32_t)rsv_num(r, scn_step_arg(s, "access"), M_ACC_REMOTE_ANY);
		c->verbs.max_recv_wr = rsv_num(r, scn_step_arg(s, "max_recv_wr"), M_RECV_DEPTH_DEFAULT);
		c->verbs.max_send_wr = (uint32_t)rsv_num(r, scn_step_arg(s, "max_send_wr"), M_SEND_DEPTH_DEFAULT);
		c->verbs.max_send_sge = (uint32_t)rsv_num(r, scn_step_arg(s, "max_send_sge"), 1);
		c->verbs.max_recv_sge = (uint32_t)rsv_num(r, scn_step_arg(s, "max_recv_sge"), 1);
		c->verbs.max_inline = (uint32_t)rsv_num(r, scn_step_arg(s, "max_inline"), 0);
		c->verbs.qp_ex = (uint8_t)rsv_num(r, scn_step_arg(s, "ex"), 0);
		c->verbs.send_ops = (uint16_t)rsv_num(r, scn_step_arg(s, "send_ops"), 0);
		c->verbs.qp_type = (uint8_t)rsv_num(r, scn_step_arg(s, "type"), M_QPT_RC);
		qp_cqs(s, c);
		break;
	case M_OP_CONNECT: qp_connect(r, s, c); break;
	case M_OP_MODIFY_QP: modify_qp(r, s, c); break;
	case M_OP_CREATE_AH: c->verbs.ah_node = (uint8_t)scn_step_arg(s, "to")->node; break;
	case M_OP_WRITE: case M_OP_READ: case M_OP_CAS: case M_OP_FADD: case M_OP_WRITE_IMM: rdma(r, s, c); break;
	case M_OP_RECV: case M_OP_SEND: case M_OP_POST_SRQ_RECV: sendrecv(r, s, c); break;
	case M_OP_CREATE_SRQ:
		c->verbs.max_recv_wr = rsv_num(r, scn_step_arg(s, "max_wr"), M_RECV_DEPTH_DEFAULT);
		c->verbs.srq_max_sge = (uint32_t)rsv_num(r, scn_step_arg(s, "max_sge"), 1);
		break;
	case M_OP_MODIFY_SRQ:
		c->verbs.srq_mask = (uint8_t)((scn_step_arg(s, "max_wr") ? M_SRQ_MAX_WR : 0) |
					      (scn_step_arg(s, "srq_limit") ? M_SRQ_LIMIT : 0));
		c->verbs.max_recv_wr = rsv_num(r, scn_step_arg(s, "max_wr"), 0);
		c->verbs.srq_limit = (uint32_t)rsv_num(r, scn_step_arg(s, "srq_limit"), 0);
		break;
	case M_OP_LOCAL_INV: local_inv(r, s, c); break;
	case M_OP_FIELDS: c->verbs.fields_of = fields_of(r->f->objs[s->obj].cls); break;
	default: break; /* alloc_pd, dealloc_*, dereg_mr, destroy_qp, query_qp, query_srq: the object alone */
	}
	return r->rc;
}
