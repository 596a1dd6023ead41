/*
 * agent_device.c — the agent's device queries (agent_device.h): the
 * attributes ibv_query_device(_ex) and ibv_query_port report, as the
 * KEY=VALUE results the coordinator judges against the model.
 */
#include "harness/api/verbs/agent_device.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PD object id's context, or NULL (the reply sent). */
static struct ibv_context *pd_context(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_PD, 1);

	if (!o || !o->pd) {
		agent_reply_err(a, EINVAL, "no such live PD");
		return NULL;
	}
	return o->pd->context;
}

int agent_do_query_device(struct agent *a)
{
	struct ibv_context *ctx = pd_context(a);
	struct ibv_device_attr_ex ex;
	const struct ibv_device_attr *d = &ex.orig_attr;
	int rc;

	if (!ctx)
		return 0;
	memset(&ex, 0, sizeof(ex));
	if (agent_num(a, "ex", 0))
		rc = ibv_query_device_ex(ctx, NULL, &ex);
	else
		rc = ibv_query_device(ctx, &ex.orig_attr);
	if (rc)
		return agent_reply_err(a, rc, "ibv_query_device%s: %s", agent_num(a, "ex", 0) ? "_ex" : "", strerror(rc));
	return proto_send(a->fd,
			  "ok node_guid=0x%llx sys_image_guid=0x%llx max_mr_size=0x%llx page_size_cap=0x%llx vendor_id=%u "
			  "max_qp=%d max_qp_wr=%d max_sge=%d max_sge_rd=%d max_cq=%d max_cqe=%d max_mr=%d max_pd=%d "
			  "max_mw=%d max_ah=%d max_srq=%d max_srq_wr=%d max_pkeys=%u phys_port_cnt=%u",
			  (unsigned long long)d->node_guid, (unsigned long long)d->sys_image_guid,
			  (unsigned long long)d->max_mr_size, (unsigned long long)d->page_size_cap, d->vendor_id, d->max_qp,
			  d->max_qp_wr, d->max_sge, d->max_sge_rd, d->max_cq, d->max_cqe, d->max_mr, d->max_pd, d->max_mw,
			  d->max_ah, d->max_srq, d->max_srq_wr, d->max_pkeys, d->phys_port_cnt);
}

int agent_do_query_port(struct agent *a)
{
	struct ibv_context *ctx = pd_context(a);
	struct ibv_device_attr d;
	struct ibv_port_attr pa;
	uint8_t port = 1;
	int rc;

	if (!ctx)
		return 0;
	switch (agent_num(a, "port", 0)) {
	case 0: port = 1; break;
	case 1: port = 0; break;
	default:
		if ((rc = ibv_query_device(ctx, &d)))
			return agent_reply_err(a, rc, "ibv_query_device: %s", strerror(rc));
		port = (uint8_t)(d.phys_port_cnt + 1);
		break;
	}
	memset(&pa, 0, sizeof(pa));
	if ((rc = ibv_query_port(ctx, port, &pa)))
		return agent_reply_err(a, rc, "ibv_query_port %u: %s", port, strerror(rc));
	return proto_send(a->fd,
			  "ok state=%u max_mtu=%u active_mtu=%u active_width=%u active_speed=%u link_layer=%u "
			  "max_msg_sz=%u gid_tbl_len=%d pkey_tbl_len=%u",
			  (unsigned)pa.state, (unsigned)pa.max_mtu, (unsigned)pa.active_mtu, pa.active_width,
			  pa.active_speed, pa.link_layer, pa.max_msg_sz, pa.gid_tbl_len, pa.pkey_tbl_len);
}

/* The GID table entries of every port (room for the sum of their gid_tbl_len), its length in *n; NULL
 * with the errno in *err. */
static struct ibv_gid_entry *gid_room(struct ibv_context *ctx, size_t *n, int *err)
{
	struct ibv_device_attr d;
	struct ibv_port_attr pa;
	struct ibv_gid_entry *e;

	*n = 0;
	if ((*err = ibv_query_device(ctx, &d)))
		return NULL;
	for (unsigned p = 1; p <= d.phys_port_cnt; p++) {
		if ((*err = ibv_query_port(ctx, (uint8_t)p, &pa)))
			return NULL;
		*n += (size_t)(pa.gid_tbl_len > 0 ? pa.gid_tbl_len : 0);
	}
	if (!(e = calloc(*n ? *n : 1, sizeof(*e))))
		*err = ENOMEM;
	return e;
}

/* The first index of port 1 below its gid_tbl_len that the GID table does not hold, or -errno. */
static int empty_gid_index(struct ibv_context *ctx)
{
	struct ibv_port_attr pa;
	struct ibv_gid_entry *e;
	size_t n;
	ssize_t got;
	int err, idx = -ENOSPC;

	if ((err = ibv_query_port(ctx, 1, &pa)))
		return -err;
	if (!(e = gid_room(ctx, &n, &err)))
		return -err;
	got = n ? ibv_query_gid_table(ctx, e, n, 0) : 0;
	if (got < 0) {
		free(e);
		return (int)got;
	}
	for (int i = 0; i < pa.gid_tbl_len && idx < 0; i++) {
		int held = 0;

		for (ssize_t k = 0; k < got && !held; k++)
			held = e[k].port_num == 1 && e[k].gid_index == (uint32_t)i;
		if (!held)
			idx = i;
	}
	free(e);
	return idx;
}

int agent_do_query_gid(struct agent *a)
{
	struct ibv_context *ctx = pd_context(a);
	struct ibv_gid_entry entry;
	union ibv_gid gid;
	int idx = 0, rc;

	if (!ctx)
		return 0;
	if (agent_num(a, "empty", 0) && (idx = empty_gid_index(ctx)) < 0)
		return agent_reply_err(a, EIO, "no empty GID index to query: %s", strerror(-idx));
	if (agent_num(a, "ex", 0))
		rc = ibv_query_gid_ex(ctx, 1, (uint32_t)idx, &entry, 0);
	else
		rc = ibv_query_gid(ctx, 1, idx, &gid) ? (errno ? errno : EIO) : 0;
	if (rc)
		return agent_reply_err(a, rc, "ibv_query_gid%s index %d: %s", agent_num(a, "ex", 0) ? "_ex" : "", idx,
				       strerror(rc));
	return proto_send(a->fd, "ok");
}

int agent_do_query_gid_table(struct agent *a)
{
	struct ibv_context *ctx = pd_context(a);
	struct ibv_gid_entry *e;
	size_t n;
	ssize_t got;
	int err;

	if (!ctx)
		return 0;
	if (!(e = gid_room(ctx, &n, &err)))
		return agent_reply_err(a, err, "the GID table's size: %s", strerror(err));
	got = ibv_query_gid_table(ctx, e, agent_num(a, "none", 0) ? 0 : n, 0);
	free(e);
	if (got < 0)
		return agent_reply_err(a, (int)-got, "ibv_query_gid_table: %s", strerror((int)-got));
	return proto_send(a->fd, "ok n=%zd", got);
}

int agent_do_query_pkey(struct agent *a)
{
	struct ibv_context *ctx = pd_context(a);
	__be16 pkey = 0;
	int rc;

	if (!ctx)
		return 0;
	if (ibv_query_pkey(ctx, 1, 0, &pkey)) {
		rc = errno ? errno : EIO;
		return agent_reply_err(a, rc, "ibv_query_pkey: %s", strerror(rc));
	}
	return proto_send(a->fd, "ok pkey=%u", (unsigned)ntohs(pkey));
}

/* The P_Key the kernel lists for port 1 at index 0 (sysfs, as pyverbs' get_pkey_from_kernel): 0 or -errno. */
static int kernel_pkey(struct ibv_context *ctx, unsigned *pkey)
{
	char path[256], text[32];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/pkeys/0", ibv_get_device_name(ctx->device));
	if (!(f = fopen(path, "r")))
		return -errno;
	if (!fgets(text, sizeof(text), f) || sscanf(text, "%x", pkey) != 1 || *pkey > 0xffff)
		rc = -EPROTO;
	fclose(f);
	return rc;
}

int agent_do_get_pkey_index(struct agent *a)
{
	struct ibv_context *ctx = pd_context(a);
	unsigned pkey;
	int rc, idx;

	if (!ctx)
		return 0;
	if ((rc = kernel_pkey(ctx, &pkey)))
		return agent_reply_err(a, EIO, "sysfs ports/1/pkeys/0: %s", strerror(-rc));
	if ((idx = ibv_get_pkey_index(ctx, 1, htons((uint16_t)pkey))) < 0)
		return agent_reply_err(a, errno ? errno : EIO, "ibv_get_pkey_index 0x%x: %s", pkey, strerror(errno));
	return proto_send(a->fd, "ok index=%d", idx);
}

uint32_t agent_limit(struct agent *a, const char *key, uint32_t dflt, enum agent_lim lim)
{
	uint64_t v = agent_num(a, key, dflt);
	struct ibv_device_attr d;
	uint32_t max;

	if (v != M_LIM_MAX && v != M_LIM_PAST)
		return (uint32_t)v;
	memset(&d, 0, sizeof(d));
	if (ibv_query_device(a->ctx, &d))
		return (uint32_t)v; /* the create then asks for 2^32 - 1 or - 2, past any device's limit */
	switch (lim) {
	case AGENT_LIM_QP_WR: max = (uint32_t)d.max_qp_wr; break;
	case AGENT_LIM_SGE: max = (uint32_t)d.max_sge; break;
	case AGENT_LIM_CQE: max = (uint32_t)d.max_cqe; break;
	case AGENT_LIM_SRQ_WR: max = (uint32_t)d.max_srq_wr; break;
	default: max = (uint32_t)d.max_srq_sge; break;
	}
	return v == M_LIM_MAX ? max : max + 1;
}
