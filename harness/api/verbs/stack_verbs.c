/*
 * stack_verbs.c — libibverbs calls on the real stack, through the node agents
 * (the requests: agent.h; family.h: stack_exec). A connection sets up both
 * QPs, each with the other's number and GID. What creations report
 * (addresses, keys, QP numbers) is kept for references (stack.h).
 */
#include "harness/api/verbs/api_verbs.h"
#include "harness/run/proto.h"
#include "harness/run/stack.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int verbs_connect(struct stack *st, const struct hcall *c, char *reply, struct hres *r)
{
	char opts[256] = "";
	size_t off = 0;
	const struct stack_obj *qa = &st->o[c->obj], *qb = &st->o[c->verbs.peer];
	int rc;

	if (!qa->made || !qb->made)
		return -ENOENT;
	for (int i = 0; i < HC_COUNT_; i++)
		if (c->verbs.conn_set & (1u << i))
			off += (size_t)snprintf(opts + off, sizeof(opts) - off, " %s=%u", hconn_key((enum hconn)i),
						c->verbs.conn[i]);
	rc = stack_call(st, c->node, reply, "connect id=%d rqpn=%u rgid=%s%s", c->obj, qb->v.qpn,
		  st->ag[c->verbs.peer_node].gid, opts);
	if (rc || (rc = stack_outcome(st, reply, &r->out)) || r->out.kind != M_OUT_OK)
		return rc;
	rc = stack_call(st, c->verbs.peer_node, reply, "connect id=%d rqpn=%u rgid=%s%s", c->verbs.peer, qa->v.qpn,
		  st->ag[c->node].gid, opts);
	if (rc || (rc = stack_outcome(st, reply, &r->out)) || r->out.kind == M_OUT_OK)
		return rc;
	/* The peer refused (its QP is not in RESET): the connect is one step that
	 * failed, so the first QP goes back to RESET, where it was (QP-CONN-1). */
	return stack_call(st, c->node, reply, "modify_qp id=%d state=RESET", c->obj);
}

/* Send WR c's fields for the agent's post (and post_chain, each key after pfx) into buf. */
static void wr_fields(const struct hcall *c, const char *pfx, char *buf, size_t len)
{
	static const char *const post_op[M_OP_COUNT_] = {
		[M_OP_WRITE] = "write", [M_OP_READ] = "read", [M_OP_CAS] = "cas", [M_OP_FADD] = "fadd",
		[M_OP_SEND] = "send", [M_OP_WRITE_IMM] = "write_imm", [M_OP_LOCAL_INV] = "local_inv",
	};
	size_t off = (size_t)snprintf(buf, len,
				      "%sop=%s %sladdr=0x%llx %slkey=%u %slen=%llu %sraddr=0x%llx %srkey=%u %scompare=%llu "
				      "%sswap=%llu %swr=%u %ssig=%u %snosge=%u %snowait=%u",
				      pfx, post_op[c->op] ? post_op[c->op] : "?", pfx, (unsigned long long)c->verbs.laddr, pfx,
				      c->verbs.lkey, pfx, (unsigned long long)c->verbs.len, pfx,
				      (unsigned long long)c->verbs.raddr, pfx, c->verbs.rkey, pfx,
				      (unsigned long long)c->verbs.compare, pfx, (unsigned long long)c->verbs.swap, pfx,
				      c->verbs.wr_id, pfx, !c->verbs.unsignaled, pfx, c->verbs.no_sge, pfx, c->verbs.nowait);

	if (off < len && (c->verbs.with_inv || c->op == M_OP_LOCAL_INV))
		off += (size_t)snprintf(buf + off, len - off, " %sinv=%u", pfx, c->verbs.inv_rkey);
	if (off < len && c->verbs.wr_api)
		off += (size_t)snprintf(buf + off, len - off, " %swrx=%u", pfx, c->verbs.wr_api);
	if (off < len && c->verbs.send_inline)
		off += (size_t)snprintf(buf + off, len - off, " %sinline=1", pfx);
	if (off < len && c->verbs.with_imm)
		off += (size_t)snprintf(buf + off, len - off, " %simm=1", pfx);
	if (off < len && c->verbs.solicited && (c->op == M_OP_SEND || c->op == M_OP_WRITE_IMM))
		off += (size_t)snprintf(buf + off, len - off, " %ssol=1", pfx);
	if (off < len && (c->verbs.with_imm || c->op == M_OP_WRITE_IMM))
		snprintf(buf + off, len - off, " %simm_data=%u", pfx, c->verbs.imm_data);
}

/* Send c's request to its agent and take the answer into reply. */
static int request(struct stack *st, const struct hcall *c, char *reply)
{
	static const char *const id_only[M_OP_COUNT_] = { /* the requests that name the object alone */
		[M_OP_ALLOC_PD] = "alloc_pd", [M_OP_DEALLOC_PD] = "dealloc_pd", [M_OP_DEREG_MR] = "dereg_mr",
		[M_OP_DEALLOC_MW] = "dealloc_mw", [M_OP_DESTROY_QP] = "destroy_qp", [M_OP_QUERY_QP] = "query_qp",
		[M_OP_QUERY_SRQ] = "query_srq", [M_OP_FIELDS] = "fields",
	};
	int rc;

	switch ((enum m_op_kind)c->op) {
	case M_OP_ALLOC_PD: case M_OP_DEALLOC_PD: case M_OP_DEREG_MR: case M_OP_DEALLOC_MW: case M_OP_DESTROY_QP:
	case M_OP_QUERY_QP: case M_OP_QUERY_SRQ: case M_OP_FIELDS:
		rc = stack_call(st, c->node, reply, "%s id=%d", id_only[c->op], c->obj);
		break;
	case M_OP_REG_MR: {
		char iova[40] = "", buf[64] = "";

		if (c->verbs.has_iova)
			snprintf(iova, sizeof(iova), " iova=0x%llx", (unsigned long long)c->verbs.iova);
		if (c->verbs.in_buf)
			snprintf(buf, sizeof(buf), " buf=%d boff=%llu", c->verbs.mr, (unsigned long long)c->verbs.buf_off);
		rc = stack_call(st, c->node, reply, "reg_mr id=%d pd=%d len=%llu access=%u offset=%llu prot=%u%s%s", c->obj,
			  c->verbs.pd, (unsigned long long)c->verbs.len, c->verbs.access, (unsigned long long)c->verbs.offset,
			  c->verbs.prot, iova, buf);
		break;
	}
	case M_OP_REREG_MR: {
		char buf[64] = "";

		if (c->verbs.in_buf)
			snprintf(buf, sizeof(buf), " buf=%d boff=%llu", c->verbs.mr, (unsigned long long)c->verbs.buf_off);
		rc = stack_call(st, c->node, reply, "rereg_mr id=%d flags=%u access=%u pd=%d len=%llu%s", c->obj,
			  c->verbs.rereg_flags, c->verbs.access, c->verbs.pd, (unsigned long long)c->verbs.len, buf);
		break;
	}
	case M_OP_ALLOC_MW:
		rc = stack_call(st, c->node, reply, "alloc_mw id=%d pd=%d type=%u", c->obj, c->verbs.pd, c->verbs.mw_type);
		break;
	case M_OP_BIND_MW:
		rc = stack_call(st, c->node, reply,
			     "bind_mw id=%d qp=%d mr=%d addr=0x%llx len=%llu access=%u zero_based=%u call=%u wr=%u sig=%u wrx=%u",
			     c->obj, c->verbs.qp, c->verbs.mr, (unsigned long long)c->verbs.start,
			     (unsigned long long)c->verbs.len, c->verbs.access, c->verbs.zero_based, c->verbs.bind_call,
			     c->verbs.wr_id, !c->verbs.unsignaled, c->verbs.wr_api);
		break;
	case M_OP_CREATE_QP:
		rc = stack_call(st, c->node, reply,
			     "create_qp id=%d pd=%d access=%u max_recv_wr=%llu max_inline=%u type=%u scq=%d rcq=%d sig_all=%u "
			     "max_send_wr=%u srq=%d max_send_sge=%u max_recv_sge=%u ex=%u sops=%u",
			     c->obj, c->verbs.pd, c->verbs.access, (unsigned long long)c->verbs.max_recv_wr,
			     c->verbs.max_inline, c->verbs.qp_type, c->verbs.scq, c->verbs.rcq, c->verbs.sig_all,
			     c->verbs.max_send_wr, c->verbs.srq, c->verbs.max_send_sge, c->verbs.max_recv_sge,
			     c->verbs.qp_ex, c->verbs.send_ops);
		break;
	case M_OP_CREATE_CQ:
		rc = stack_call(st, c->node, reply, "create_cq id=%d depth=%u chan=%d vec=%u ex=%u wc=%u cqf=%u", c->obj,
				c->verbs.cq_depth, c->verbs.chan, c->verbs.comp_vec, c->verbs.cq_ex, c->verbs.wc_flags,
				c->verbs.cq_flags);
		break;
	case M_OP_CREATE_COMP_CHANNEL:
		rc = stack_call(st, c->node, reply, "create_comp_channel id=%d", c->obj);
		break;
	case M_OP_DESTROY_COMP_CHANNEL:
		rc = stack_call(st, c->node, reply, "destroy_comp_channel id=%d", c->obj);
		break;
	case M_OP_REQ_NOTIFY_CQ:
		rc = stack_call(st, c->node, reply, "req_notify_cq id=%d sol=%u", c->obj, c->verbs.solicited);
		break;
	case M_OP_GET_CQ_EVENT:
		rc = stack_call(st, c->node, reply, "get_cq_event id=%d", c->obj);
		break;
	case M_OP_QUERY_DEVICE:
		rc = stack_call(st, c->node, reply, "query_device id=%d ex=%u", c->obj, c->verbs.dev_ex);
		break;
	case M_OP_QUERY_PORT:
		rc = stack_call(st, c->node, reply, "query_port id=%d port=%u", c->obj, c->verbs.port);
		break;
	case M_OP_QUERY_GID:
		rc = stack_call(st, c->node, reply, "query_gid id=%d ex=%u empty=%u", c->obj, c->verbs.dev_ex, c->verbs.gid_empty);
		break;
	case M_OP_QUERY_GID_TABLE:
		rc = stack_call(st, c->node, reply, "query_gid_table id=%d none=%u", c->obj, c->verbs.gid_none);
		break;
	case M_OP_QUERY_PKEY:
		rc = stack_call(st, c->node, reply, "query_pkey id=%d", c->obj);
		break;
	case M_OP_GET_PKEY_INDEX:
		rc = stack_call(st, c->node, reply, "get_pkey_index id=%d", c->obj);
		break;
	case M_OP_RESIZE_CQ:
		rc = stack_call(st, c->node, reply, "resize_cq id=%d depth=%u", c->obj, c->verbs.cq_depth);
		break;
	case M_OP_ACK_CQ_EVENTS:
		rc = stack_call(st, c->node, reply, "ack_cq_events id=%d n=%u", c->obj, c->verbs.nack);
		break;
	case M_OP_DESTROY_CQ:
		rc = stack_call(st, c->node, reply, "destroy_cq id=%d", c->obj);
		break;
	case M_OP_POLL_CQ:
		rc = stack_call(st, c->node, reply, "poll_cq id=%d max=%u", c->obj, c->verbs.max_wc);
		break;
	case M_OP_WAIT:
		rc = stack_call(st, c->node, reply, "wait id=%d wr=%u", c->obj, c->verbs.wr_id);
		break;
	case M_OP_CREATE_SRQ:
		rc = stack_call(st, c->node, reply, "create_srq id=%d pd=%d max_wr=%llu max_sge=%u", c->obj, c->verbs.pd,
			  (unsigned long long)c->verbs.max_recv_wr, c->verbs.srq_max_sge);
		break;
	case M_OP_DESTROY_SRQ:
		rc = stack_call(st, c->node, reply, "destroy_srq id=%d", c->obj);
		break;
	case M_OP_MODIFY_SRQ:
		rc = stack_call(st, c->node, reply, "modify_srq id=%d mask=%u max_wr=%llu limit=%u", c->obj, c->verbs.srq_mask,
				(unsigned long long)c->verbs.max_recv_wr, c->verbs.srq_limit);
		break;
	case M_OP_POST_SRQ_RECV:
		rc = stack_call(st, c->node, reply, "srq_recv id=%d laddr=0x%llx lkey=%u len=%llu wr=%u", c->obj,
			  (unsigned long long)c->verbs.laddr, c->verbs.lkey, (unsigned long long)c->verbs.len,
			  c->verbs.wr_id);
		break;
	case M_OP_MODIFY_QP:
		if (c->verbs.qp_state == M_QPS_ERR || c->verbs.qp_state == M_QPS_RESET)
			rc = stack_call(st, c->node, reply, "modify_qp id=%d state=%s", c->obj,
				  m_qp_state_str((enum m_qp_state)c->verbs.qp_state));
		else
			rc = stack_qp_to(st, c, reply);
		break;
	case M_OP_CREATE_AH:
		rc = stack_call(st, c->node, reply, "create_ah id=%d pd=%d gid=%s", c->obj, c->verbs.pd,
			  st->ag[c->verbs.ah_node].gid);
		break;
	case M_OP_DESTROY_AH:
		rc = stack_call(st, c->node, reply, "destroy_ah id=%d", c->obj);
		break;
	case M_OP_WRITE: case M_OP_READ: case M_OP_CAS: case M_OP_FADD: case M_OP_SEND: case M_OP_WRITE_IMM:
	case M_OP_LOCAL_INV: {
		char wr[1024], ud[96] = ""; /* ud: a UD send's destination */

		if (c->verbs.ah >= 0 && stack_ud_dest(st, c, ud, sizeof(ud)))
			return -ENOENT;
		wr_fields(c, "", wr, sizeof(wr));
		stack_sge_fields(c, wr + strlen(wr), sizeof(wr) - strlen(wr));
		rc = stack_call(st, c->node, reply, "post id=%d %s%s", c->obj, wr, ud);
		break;
	}
	case M_OP_RECV: {
		char sges[512] = "";

		stack_sge_fields(c, sges, sizeof(sges));
		rc = stack_call(st, c->node, reply, "recv id=%d laddr=0x%llx lkey=%u len=%llu wr=%u nosge=%u%s", c->obj,
			  (unsigned long long)c->verbs.laddr, c->verbs.lkey, (unsigned long long)c->verbs.len,
			  c->verbs.wr_id, c->verbs.no_sge, sges);
		break;
	}
	default:
		return -EINVAL;
	}
	return rc;
}

/* Keep what a successful creation (or re-registration, bind) reported in c's object. */
static void keep(struct stack *st, const struct hcall *c, const char *reply, const struct hres *r)
{
	struct stack_obj *o = c->obj >= 0 ? &st->o[c->obj] : NULL;

	switch ((enum m_op_kind)c->op) {
	case M_OP_ALLOC_PD:
	case M_OP_CREATE_AH:
	case M_OP_CREATE_SRQ:
	case M_OP_CREATE_CQ:
	case M_OP_CREATE_COMP_CHANNEL:
		o->made = 1;
		break;
	case M_OP_REG_MR:
		*o = (struct stack_obj){ .made = 1, .v = { .addr = stack_field(reply, "addr"),
						       .iova = stack_field(reply, "iova"), .len = c->verbs.len,
						       .lkey = (uint32_t)stack_field(reply, "lkey"),
						       .rkey = (uint32_t)stack_field(reply, "rkey") } };
		break;
	case M_OP_REREG_MR:
		o->v.lkey = (uint32_t)stack_field(reply, "lkey");
		o->v.rkey = (uint32_t)stack_field(reply, "rkey");
		if (c->verbs.in_buf) { /* CHANGE_TRANSLATION onto another buffer: its address */
			o->v.addr = o->v.iova = stack_field(reply, "addr");
			o->v.len = c->verbs.len;
		}
		break;
	case M_OP_ALLOC_MW:
		*o = (struct stack_obj){ .made = 1, .v = { .rkey = (uint32_t)stack_field(reply, "rkey") } };
		break;
	case M_OP_BIND_MW:
		o->v.rkey = (uint32_t)stack_field(reply, "rkey");
		/* SUCCESS, or ok: an unsignaled bind that gave no completion */
		if (r->out.kind == M_OUT_OK || (r->out.kind == M_OUT_WC && r->out.code == M_WC_SUCCESS)) {
			o->v.start = c->verbs.start;
			o->v.len = c->verbs.len;
			o->v.zero_based = c->verbs.zero_based;
		}
		break;
	case M_OP_CREATE_QP:
		*o = (struct stack_obj){ .made = 1, .v = { .qpn = (uint32_t)stack_field(reply, "qpn") } };
		break;
	default:
		break;
	}
}

/* The completion opcode a post's answer gives (opcode=), into r. */
static void post_opcode(const char *reply, struct hres *r)
{
	char word[32];
	enum m_wc_opcode o;

	if (proto_get(reply, "opcode", word, sizeof(word)) == 0 && m_wc_opcode_parse(word, &o) == 0) {
		r->has_opcode = 1;
		r->wc_opcode = (uint8_t)o;
	}
}

static int exec_call(struct stack *st, const struct hcall *c, struct hres *r)
{
	char reply[PROTO_LINE_MAX];
	int rc;

	memset(r, 0, sizeof(*r));
	if (c->op == M_OP_CONNECT)
		return verbs_connect(st, c, reply, r);
	rc = request(st, c, reply);
	if (rc || (rc = stack_outcome(st, reply, &r->out)))
		return rc;
	if (!proto_is(reply, "ok"))
		return 0;
	if (r->out.kind == M_OUT_WC)
		post_opcode(reply, r); /* only a completion has an opcode to judge (run_send_wc_judged) */
	keep(st, c, reply, r);
	if (scn_call_get(c->call)->kind == SCN_KIND_QUERY)
		return stack_query_reply(st, scn_call_get(c->call), reply, r);
	return 0;
}

int stack_exec_verbs(struct stack *st, const struct hcall *c, struct hres *r)
{
	int rc, back;

	if (!c->verbs.garble)
		return exec_call(st, c, r);
	if ((rc = stack_garble_verbs(st, c)))
		return rc;
	rc = exec_call(st, c, r);
	back = stack_garble_verbs(st, c); /* the true handle again */
	return rc ? rc : back;
}

_Static_assert(AGENT_CHAIN_MAX >= SCN_CHAIN_MAX, "the agent posts every chain the language allows");

int stack_exec_chain_verbs(struct stack *st, const struct hcall *c, size_t n, struct hres *r)
{
	char reply[PROTO_LINE_MAX], req[PROTO_LINE_MAX], key[16];
	size_t off;
	uint64_t posted = 0, err = 0;
	int rc;

	if (n < 1 || n > AGENT_CHAIN_MAX)
		return -EINVAL;
	off = (size_t)snprintf(req, sizeof(req), "post_chain id=%d n=%zu", c[0].obj, n);
	for (size_t i = 0; i < n && off < sizeof(req); i++) {
		char pfx[24];

		if (c[i].verbs.nsge_more) { /* the agent's post_chain posts one SGE per WR (scn_sge.c) */
			snprintf(st->err, sizeof(st->err), "a chain of WRs with several SGEs is not supported");
			return -EOPNOTSUPP;
		}
		if (c[i].verbs.ah >= 0) { /* the agent's post_chain carries no UD destination */
			snprintf(st->err, sizeof(st->err), "a chain of UD sends (ah=) is not supported");
			return -EOPNOTSUPP;
		}
		snprintf(pfx, sizeof(pfx), "w%zu.", i);
		req[off++] = ' ';
		wr_fields(&c[i], pfx, req + off, sizeof(req) - off);
		off += strlen(req + off);
	}
	if (off >= sizeof(req) - 1)
		return -E2BIG;
	rc = stack_call(st, c[0].node, reply, "%s", req);
	if (rc || (rc = stack_outcome(st, reply, &r[0].out)) || r[0].out.kind != M_OUT_OK)
		return rc; /* the request itself failed: an errno for the first WR, none posted */
	if (proto_get_u64(reply, "posted", &posted) || posted > n || (posted < n && proto_get_u64(reply, "errno", &err)))
		return -EPROTO;
	for (size_t i = 0; i < n; i++) {
		char st_name[32];
		enum m_wc_status s;

		snprintf(key, sizeof(key), "s%zu", i);
		if (i >= posted)
			r[i].out = (struct m_outcome){ M_OUT_ERRNO, (int32_t)err }; /* refused, or after the refused one */
		else if (proto_get(reply, key, st_name, sizeof(st_name)) == 0 && strcmp(st_name, "none") == 0)
			r[i].out = (struct m_outcome){ M_OUT_OK, 0 }; /* unsignaled, no completion */
		else if (proto_get(reply, key, st_name, sizeof(st_name)) == 0 && m_wc_status_parse(st_name, &s) == 0)
			r[i].out = (struct m_outcome){ M_OUT_WC, (int32_t)s };
		else
			return -EPROTO;
	}
	return 0;
}

int stack_ahead_verbs(const struct hcall *c)
{
	if (c->verbs.garble)
		return 0; /* three requests */
	switch ((enum m_op_kind)c->op) {
	case M_OP_ALLOC_PD: case M_OP_DEALLOC_PD: case M_OP_REG_MR: case M_OP_DEREG_MR: case M_OP_ALLOC_MW:
	case M_OP_DEALLOC_MW: case M_OP_CREATE_QP: case M_OP_QUERY_QP: case M_OP_DESTROY_QP:
	case M_OP_CREATE_CQ: case M_OP_DESTROY_CQ: case M_OP_CREATE_SRQ: case M_OP_DESTROY_SRQ: case M_OP_QUERY_SRQ:
	case M_OP_FIELDS:
	case M_OP_CREATE_COMP_CHANNEL: case M_OP_DESTROY_COMP_CHANNEL: case M_OP_QUERY_DEVICE: case M_OP_QUERY_PORT:
	case M_OP_QUERY_GID: case M_OP_QUERY_GID_TABLE: case M_OP_QUERY_PKEY: case M_OP_GET_PKEY_INDEX:
		return 1; /* one request of the node's own objects, one answer (request) */
	case M_OP_WRITE: case M_OP_READ: case M_OP_CAS: case M_OP_FADD: /* no receive at the peer */
		return c->verbs.ah < 0;
	default:
		return 0;
	}
}
