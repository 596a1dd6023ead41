/*
 * scngen_api.c — librpma and uDAPL steps drawn from the prefix's objects, and
 * the families' dispatch (scngen_int.h; MRAPI: scngen_mrapi.c, librpmem:
 * scngen_rpmem.c).
 */
#include "harness/explore/scngen_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The length the creation of object o asked for (len=), or 4096. */
static uint64_t obj_len(const struct gctx *x, int32_t o)
{
	const struct scn_file *f = x->e->f;
	const struct scn_value *v = scn_step_arg(&f->steps[f->objs[o].step], "len");

	return v ? v->num : 4096;
}

/* A buffer length: mostly a page, now and then larger, tiny or one byte. */
static uint64_t buf_len(struct gctx *x)
{
	static const uint64_t lens[] = { 4096, 4096, 8192, 64, 1 };

	return lens[below(x, sizeof(lens) / sizeof(lens[0]))];
}

/* ------------------------------------------------------------ librpma -- */

enum rk { R_REG, R_DEREG, R_REMOTE, R_CONNECT, R_DISCONNECT, R_WRITE, R_READ, R_ATOMIC, R_FLUSH, R_FILL, R_DESC,
	  R_COUNT_ };

/* Bits of the usage table (scn_tables.c usage_t). */
#define USAGE_ALL 0x3fu

static void rpma_draw(struct gctx *x, unsigned *node, unsigned *kind)
{
	unsigned w[R_COUNT_] = { 0 };
	int32_t mr, rem, conn;

	*node = below(x, x->nnodes);
	mr = pick(x, *node, SCN_C_RPMA_MR, W_LIVE, NULL);
	rem = pick(x, *node, SCN_C_RPMA_REMOTE, W_ANY, NULL);
	conn = pick(x, *node, SCN_C_RPMA_CONN, W_LIVE, NULL);
	w[R_REG] = mr < 0 ? 12 : 2;
	w[R_DEREG] = mr < 0 ? 0 : 1;
	w[R_REMOTE] = rem < 0 ? 10 : 2;
	w[R_CONNECT] = conn < 0 ? 10 : 1;
	w[R_DISCONNECT] = conn < 0 ? 0 : 1;
	w[R_WRITE] = w[R_READ] = conn >= 0 && rem >= 0 ? 10 : 0;
	w[R_ATOMIC] = w[R_FLUSH] = conn >= 0 && rem >= 0 ? 4 : 0;
	w[R_FILL] = mr < 0 ? 0 : 1;
	w[R_DESC] = mr < 0 && rem < 0 ? 0 : 2;
	*kind = weighted(x, w, R_COUNT_);
}

/* A flush type: one of the two librpma knows, now and then a number it does not. */
static const char *flush_type(struct gctx *x)
{
	static const char *const types[] = { "PERSISTENT", "VISIBILITY", "PERSISTENT", "VISIBILITY", "2" };

	return types[below(x, sizeof(types) / sizeof(types[0]))];
}

/* A descriptor's tampering, now and then: a length past the buffer, a made-up rkey, another usage (0 too). */
static void tamper(struct gctx *x, char *buf, size_t len)
{
	char usage[128];

	buf[0] = '\0';
	switch (below(x, 12)) {
	case 0:
		snprintf(buf, len, " length=65536");
		break;
	case 1:
		snprintf(buf, len, " rkey=12345");
		break;
	case 2:
		flags_str(SCN_T_USAGE, below(x, 2) ? some_of(x, USAGE_ALL) : 0, usage, sizeof(usage));
		snprintf(buf, len, " usage=%s", usage);
		break;
	default:
		break;
	}
}

static int rpma_post(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len)
{
	static const char *const names[] = { [R_WRITE] = "rpma_write", [R_READ] = "rpma_read" };
	const char *nn = ex_node_name(node);
	int32_t c = pick(x, node, SCN_C_RPMA_CONN, W_ANY, NULL), r = pick(x, node, SCN_C_RPMA_REMOTE, W_ANY, NULL);
	int32_t m = pick(x, node, SCN_C_RPMA_MR, below(x, 6) ? W_LIVE : W_ANY, NULL);
	uint64_t rlen, roff, loff;

	if (c < 0 || r < 0)
		return -EAGAIN;
	rlen = obj_len(x, r);
	roff = edge_off(x, rlen, kind == R_ATOMIC);
	if (kind == R_ATOMIC)
		return snprintf(line, len, "%s: rpma_atomic_write %s remote=%s+%llu value=%u", nn, oname(x, c),
				oname(x, r), (unsigned long long)roff, (unsigned)below(x, 1u << 16)) < (int)len ? 0 : -EAGAIN;
	if (kind == R_FLUSH) {
		const char *type = flush_type(x);
		uint64_t flen = edge_len(x, rlen, roff);

		return snprintf(line, len, "%s: rpma_flush %s remote=%s+%llu len=%llu type=%s", nn, oname(x, c),
				oname(x, r), (unsigned long long)roff, (unsigned long long)flen, type) < (int)len ? 0
														  : -EAGAIN;
	}
	if (m < 0)
		return -EAGAIN;
	loff = edge_off(x, obj_len(x, m), 0);
	return snprintf(line, len, "%s: %s %s local=%s+%llu remote=%s+%llu len=%llu", nn, names[kind], oname(x, c),
			oname(x, m), (unsigned long long)loff, oname(x, r), (unsigned long long)roff,
			(unsigned long long)edge_len(x, rlen < obj_len(x, m) ? rlen : obj_len(x, m), roff)) < (int)len ?
		       0 : -EAGAIN;
}

/* A descriptor step: an MR's descriptor and its size, a remote MR's size and flush type (a NULL argument now and then). */
static int rpma_desc(struct gctx *x, unsigned node, char *line, size_t len)
{
	static const char *const mr_calls[] = { "rpma_mr_get_descriptor", "rpma_mr_get_descriptor_size" };
	static const char *const rem_calls[] = { "rpma_mr_remote_get_size", "rpma_mr_remote_get_flush_type" };
	unsigned k = below(x, 2), c = below(x, 2);
	const char *null = below(x, 5) ? "" : below(x, 2) ? " null=MR" : c ? " null=DESC_SIZE" : " null=DESC";

	if (k == 0)
		return act_on(x, node, SCN_C_RPMA_MR, below(x, 6) ? W_LIVE : W_ANY, mr_calls[c], null, line, len);
	return act_on(x, node, SCN_C_RPMA_REMOTE, W_ANY, rem_calls[c], below(x, 5) ? "" : " null=MR", line, len);
}

static int rpma_propose(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len)
{
	const char *nn = ex_node_name(node);
	char usage[128], tail[160];
	const char *prot, *offset, *bad_usage;
	uint64_t mlen;
	int32_t o;
	unsigned peer;
	int rare;

	switch ((enum rk)kind) {
	case R_REG: /* once the node has an MR, now and then one the library or the provider refuses */
		rare = live_n(x, node, SCN_C_RPMA_MR) && below(x, 4) == 0;
		flags_str(SCN_T_USAGE, rare && below(x, 4) == 0 ? 0 : some_of(x, USAGE_ALL), usage, sizeof(usage));
		prot = rare && below(x, 3) == 0 ? " prot=RO" : "";
		offset = below(x, 8) ? "" : " offset=100";
		bad_usage = rare && below(x, 3) == 0 ? "|0x100" : "";
		mlen = rare && below(x, 3) == 0 ? 0 : buf_len(x);
		snprintf(line, len, "%s: rpma_mr_reg m%u len=%llu usage=%s%s%s%s", nn, x->step, (unsigned long long)mlen,
			 usage, bad_usage, offset, prot);
		return 0;
	case R_DESC:
		return rpma_desc(x, node, line, len);
	case R_DEREG:
		return act_on(x, node, SCN_C_RPMA_MR, below(x, 5) ? W_LIVE : W_ANY, "rpma_mr_dereg", "", line, len);
	case R_REMOTE:
		peer = other(x, node);
		o = pick(x, peer, SCN_C_RPMA_MR, W_ANY, NULL);
		if (o < 0)
			return -EAGAIN;
		tamper(x, tail, sizeof(tail));
		if (!tail[0] && below(x, 5) == 0) /* a descriptor longer (or shorter) than the library's */
			snprintf(tail, sizeof(tail), " size=%u", below(x, 4) ? (below(x, 2) ? 22u : 196u) : 8u);
		snprintf(line, len, "%s: rpma_mr_remote_from_descriptor x%u from=%s.%s%s", nn, x->step,
			 ex_node_name(peer), oname(x, o), tail);
		return 0;
	case R_CONNECT:
		snprintf(line, len, "%s: rpma_connect c%u peer=%s", nn, x->step, ex_node_name(other(x, node)));
		return 0;
	case R_DISCONNECT:
		return act_on(x, node, SCN_C_RPMA_CONN, W_LIVE, "rpma_conn_disconnect", "", line, len);
	case R_FILL:
		return fill_one(x, node, SCN_C_RPMA_MR, line, len);
	default:
		return rpma_post(x, node, kind, line, len);
	}
}

/* ------------------------------------------------------------- uDAPL -- */


enum dk { D_PZ, D_PZ_FREE, D_LMR, D_LMR_FREE, D_CONNECT, D_DISCONNECT, D_EP_FREE, D_WRITE, D_READ, D_FILL, D_RMR,
	  D_QUERY, D_BIND, D_RMR_FREE, D_COUNT_ };

/* Bits of the dat_priv table (scn_tables.c dat_priv_t): LOCAL_READ REMOTE_READ LOCAL_WRITE REMOTE_WRITE. */
#define DAT_PRIV_BITS 0x33u

static void dat_draw(struct gctx *x, unsigned *node, unsigned *kind)
{
	unsigned w[D_COUNT_] = { 0 };
	int32_t pz, lmr, ep;

	*node = below(x, x->nnodes);
	pz = pick(x, *node, SCN_C_DAT_PZ, W_LIVE, NULL);
	lmr = pick(x, *node, SCN_C_DAT_LMR, W_LIVE, NULL);
	ep = pick(x, *node, SCN_C_DAT_EP, W_LIVE, NULL);
	w[D_PZ] = pz < 0 ? 12 : 1;
	w[D_PZ_FREE] = pz < 0 ? 0 : 1;
	w[D_LMR] = pz < 0 ? 0 : lmr < 0 ? 12 : 3;
	w[D_LMR_FREE] = lmr < 0 ? 0 : 1;
	w[D_CONNECT] = pz < 0 ? 0 : ep < 0 ? 10 : 1;
	w[D_DISCONNECT] = w[D_EP_FREE] = ep < 0 ? 0 : 1;
	w[D_WRITE] = w[D_READ] = ep >= 0 && lmr >= 0 ? 12 : 0;
	w[D_FILL] = lmr < 0 ? 0 : 1;
	w[D_RMR] = pz < 0 ? 0 : pick(x, *node, SCN_C_DAT_RMR, W_LIVE, NULL) < 0 ? 3 : 1;
	w[D_QUERY] = lmr < 0 ? 0 : 2;
	w[D_BIND] = lmr >= 0 && ep >= 0 ? 6 : 0;
	w[D_RMR_FREE] = pz < 0 ? 0 : 1;
	*kind = weighted(x, w, D_COUNT_);
}

static int dat_post(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len)
{
	int32_t e = pick(x, node, SCN_C_DAT_EP, W_ANY, NULL), l = pick(x, node, SCN_C_DAT_LMR, W_ANY, NULL), t;
	unsigned peer = other(x, node);
	uint64_t tlen, toff, tn, loff;

	t = pick(x, peer, SCN_C_DAT_LMR, W_ANY, NULL);
	if (e < 0 || l < 0 || t < 0)
		return -EAGAIN;
	tlen = obj_len(x, t);
	toff = edge_off(x, tlen, 0);
	tn = edge_len(x, tlen, toff);
	loff = edge_off(x, obj_len(x, l), 0);
	return snprintf(line, len, "%s: dat_ep_post_rdma_%s %s local=%s+%llu remote=%s.%s+%llu len=%llu",
			ex_node_name(node), kind == D_WRITE ? "write" : "read", oname(x, e), oname(x, l),
			(unsigned long long)loff, ex_node_name(peer), oname(x, t), (unsigned long long)toff,
			(unsigned long long)tn) < (int)len ? 0 : -EAGAIN;
}

/* An LMR's memory and address type, now and then not the default: over another LMR, shared, zero-based. */
static const char *mem_type(struct gctx *x, unsigned node, char *buf, size_t len)
{
	int32_t base = pick(x, node, SCN_C_DAT_LMR, W_ANY, NULL);

	buf[0] = '\0';
	switch (below(x, 10)) {
	case 0:
		if (base >= 0)
			snprintf(buf, len, " type=LMR from=%s", oname(x, base));
		break;
	case 1:
		snprintf(buf, len, " type=SHARED_VIRTUAL");
		break;
	case 2:
		snprintf(buf, len, " va_type=ZB");
		break;
	default:
		break;
	}
	return buf;
}

/* dat_rmr_bind: an RMR of the node over one of its LMRs (an edge offset and length, a privilege) through an EP. */
static int dat_bind(struct gctx *x, unsigned node, char *line, size_t len)
{
	char priv[128];
	int32_t r = pick(x, node, SCN_C_DAT_RMR, W_ANY, NULL);
	int32_t l = pick(x, node, SCN_C_DAT_LMR, below(x, 6) ? W_LIVE : W_ANY, NULL);
	int32_t e = pick(x, node, SCN_C_DAT_EP, W_ANY, NULL);
	uint64_t llen, off;

	if (r < 0 || l < 0 || e < 0)
		return -EAGAIN;
	llen = obj_len(x, l);
	off = edge_off(x, llen, 0);
	flags_str(SCN_T_DAT_PRIV, below(x, 8) ? some_of(x, 0x62u) : 0, priv, sizeof(priv)); /* REMOTE_* bits, or none */
	return snprintf(line, len, "%s: dat_rmr_bind %s lmr=%s+%llu len=%llu priv=%s ep=%s", ex_node_name(node),
			oname(x, r), oname(x, l), (unsigned long long)off, (unsigned long long)edge_len(x, llen, off),
			priv, oname(x, e)) < (int)len ? 0 : -EAGAIN;
}

static int dat_propose(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len)
{
	const char *nn = ex_node_name(node);
	char priv[128], tail[96];
	const char *prot, *type;
	uint64_t llen;
	uint32_t bits;
	int32_t o, p;
	unsigned peer;
	int rare;

	switch ((enum dk)kind) {
	case D_PZ:
		snprintf(line, len, "%s: dat_pz_create z%u", nn, x->step);
		return 0;
	case D_PZ_FREE:
		return act_on(x, node, SCN_C_DAT_PZ, below(x, 4) ? W_LIVE : W_ANY, "dat_pz_free", "", line, len);
	case D_LMR:
		o = pick(x, node, SCN_C_DAT_PZ, below(x, 8) ? W_LIVE : W_ANY, NULL);
		if (o < 0)
			return -EAGAIN;
		bits = below(x, 4) ? 0x10u : 0;
		bits |= some_of(x, DAT_PRIV_BITS);
		flags_str(SCN_T_DAT_PRIV, bits, priv, sizeof(priv));
		/* once the node has an LMR, now and then an empty one or one over read-only or unmapped pages */
		rare = pick(x, node, SCN_C_DAT_LMR, W_LIVE, NULL) >= 0 && below(x, 5) == 0;
		prot = rare ? (below(x, 2) ? " prot=RO" : " prot=UNMAPPED") : below(x, 10) ? "" : " offset=12";
		type = mem_type(x, node, tail, sizeof(tail));
		llen = rare && below(x, 3) == 0 ? 0 : buf_len(x);
		snprintf(line, len, "%s: dat_lmr_create l%u pz=%s len=%llu priv=%s%s%s", nn, x->step, oname(x, o),
			 (unsigned long long)llen, priv, type, prot);
		return 0;
	case D_QUERY:
		return act_on(x, node, SCN_C_DAT_LMR, below(x, 6) ? W_LIVE : W_ANY, "dat_lmr_query", "", line, len);
	case D_BIND:
		return dat_bind(x, node, line, len);
	case D_RMR_FREE:
		o = pick(x, node, SCN_C_DAT_RMR, W_ANY, NULL);
		return o < 0 ? -EAGAIN : (snprintf(line, len, "%s: dat_rmr_free %s", nn, oname(x, o)), 0);
	case D_RMR:
		snprintf(tail, sizeof(tail), "r%u pz=", x->step);
		o = pick(x, node, SCN_C_DAT_PZ, below(x, 6) ? W_LIVE : W_ANY, NULL);
		return o < 0 ? -EAGAIN :
			       (snprintf(line, len, "%s: dat_rmr_create %s%s", nn, tail, oname(x, o)), 0);
	case D_LMR_FREE:
		return act_on(x, node, SCN_C_DAT_LMR, below(x, 5) ? W_LIVE : W_ANY, "dat_lmr_free", "", line, len);
	case D_CONNECT:
		peer = other(x, node);
		o = pick(x, node, SCN_C_DAT_PZ, W_LIVE, NULL);
		p = pick(x, peer, SCN_C_DAT_PZ, W_ANY, NULL);
		if (o < 0 || p < 0)
			return -EAGAIN;
		snprintf(line, len, "%s: dat_ep_connect e%u pz=%s peer=%s.%s%s", nn, x->step, oname(x, o), ex_node_name(peer),
			 oname(x, p), below(x, 6) ? "" : below(x, 2) ? " private_data=56" : " private_data=1024");
		return 0;
	case D_DISCONNECT:
	case D_EP_FREE:
		return act_on(x, node, SCN_C_DAT_EP, W_LIVE, kind == D_EP_FREE ? "dat_ep_free" : "dat_ep_disconnect", "",
			      line, len);
	case D_FILL:
		return fill_one(x, node, SCN_C_DAT_LMR, line, len);
	default:
		return dat_post(x, node, kind, line, len);
	}
}

/* ------------------------------------------------------------ families -- */

void api_draw(struct gctx *x, unsigned *node, unsigned *kind)
{
	switch (x->fam) {
	case M_FAM_RPMA:
		rpma_draw(x, node, kind);
		break;
	case M_FAM_MRAPI:
		mrapi_draw(x, node, kind);
		break;
	case M_FAM_RPMEM:
		rpmem_draw(x, node, kind);
		break;
	default:
		dat_draw(x, node, kind);
		break;
	}
}

int api_propose(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len)
{
	switch (x->fam) {
	case M_FAM_RPMA:
		return rpma_propose(x, node, kind, line, len);
	case M_FAM_MRAPI:
		return mrapi_propose(x, node, kind, line, len);
	case M_FAM_RPMEM:
		return rpmem_propose(x, node, kind, line, len);
	default:
		return dat_propose(x, node, kind, line, len);
	}
}

int api_opening(enum m_family fam, struct ex_case *c)
{
	int rc = 0;

	switch (fam) {
	case M_FAM_RPMA:
		return ex_case_push(c, "a: rpma_mr_reg m0 len=4096 usage=READ_SRC|WRITE_DST");
	case M_FAM_DAT:
		for (unsigned i = 0; i < c->nnodes && !rc; i++) {
			char line[32];

			snprintf(line, sizeof(line), "%s: dat_ia_open", ex_node_name(i));
			rc = ex_case_push(c, line);
		}
		return rc;
	case M_FAM_MRAPI:
		return mrapi_opening(c);
	case M_FAM_RPMEM:
		return rpmem_opening(c);
	default:
		return ex_case_push(c, "a: alloc_pd p0");
	}
}
