/*
 * runner_fx.h — the scripted fake engine of the runner's tests
 * (test_runner_*.c: harness/run/runner.c's run_scenario) and their helpers.
 * The fake (struct backend_ops fake_ops) can make "reality" do anything: return
 * any outcome or an engine error per step (fk.step[], by execution order; at()
 * finds a step's entry), report any peer QP state or receive completion,
 * answer query_qp, and corrupt any byte of a buffer. With run-ahead on
 * (test_runner_ahead*.c) it takes calls ahead, any or only a PD's, keeping
 * their order (fk.log) and checking that they run in it. Each test file has its
 * own copy of the fake's state (fk); setup/teardown reset it.
 */
#ifndef RDMACHECK_TEST_RUNNER_FX_H
#define RDMACHECK_TEST_RUNNER_FX_H

#include "harness/run/be_model.h"
#include "harness/run/runner.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- the fake -- */

#define FK_STEPS 64
#define FK_OBJS 128
#define FK_LEN_MAX (1ull << 30) /* calloc: pages only where the fake writes */
#define FK_QUEUE 128
#define FK_LOG 1024

/* What reality does at one executed step (by execution order). */
struct fk_step {
	int set;                 /* 1: use out (else the step's first expect, or the natural outcome) */
	int rc;                  /* engine failure (-EPIPE, -ETIMEDOUT), returned instead of an outcome */
	struct m_outcome out;
	int has_query;
	uint8_t qp_state;        /* query_qp results */
	uint32_t qp_access;
	int has_peer;            /* what peer() reports after this step */
	int peer_state, peer_recv;
	struct m_recv_wc peer_wc; /* that receive completion's fields (known 0: not reported) */
	int has_opcode;          /* the post's completion opcode to report, */
	uint8_t wc_opcode;       /* enum m_wc_opcode */
};

struct fake {
	struct fk_step step[FK_STEPS];
	unsigned nexec, npeer, nread;
	uint64_t read_bytes;     /* what read() was asked for, all of it */
	unsigned paused_ms;      /* what the runner let pass between looks at a peer (pause(): no real sleep) */
	struct hcall calls[FK_STEPS];
	int peer_state;          /* peer() default */
	uint8_t *mem[FK_OBJS];
	uint64_t len[FK_OBJS];
	uint8_t created[FK_OBJS], forget[FK_OBJS];
	int32_t flip_obj;        /* read() shows byte flip_off of this MR inverted */
	uint64_t flip_off;
	int32_t flip2_obj;       /* and a second one */
	uint64_t flip2_off;
	int read_rc;             /* read() fails with this */
	/* run-ahead (run_opts.ahead, backend_ops.ahead): */
	int ahead_pd_only;       /* take only alloc_pd and dealloc_pd ahead (else any call) */
	int ahead_any_node;      /* take calls of several nodes ahead together (else one node's at a time) */
	int32_t queue[FK_QUEUE]; /* the objects of the calls sent ahead and not run yet, oldest first */
	unsigned nq, max_q;      /* how many now, the most at once */
	unsigned node;           /* the node they are for */
	char log[FK_LOG][16];    /* "a3": a call for object 3 sent ahead; "x3": one run */
	unsigned nlog;
	int ahead_calls;         /* calls offered to ahead() */
	int32_t offered_max;     /* the highest object offered */
	unsigned posts_ahead;    /* WRITEs sent ahead */
};

static struct fake fk;

static inline void fk_reset(void)
{
	for (size_t i = 0; i < FK_OBJS; i++)
		free(fk.mem[i]);
	memset(&fk, 0, sizeof(fk));
	fk.peer_state = M_QPS_RTS;
	fk.flip_obj = fk.flip2_obj = -1;
}

static inline void fk_log(char what, int32_t obj)
{
	if (fk.nlog < FK_LOG)
		snprintf(fk.log[fk.nlog++], sizeof(fk.log[0]), "%c%d", what, obj);
}

/* Addresses carry the object: (obj + 1) << 32 | offset; keys 0x1000 + obj (lkey), 0x2000 + obj (rkey). */
#define FK_ADDR(obj, off) ((((uint64_t)(obj) + 1) << 32) | (uint64_t)(off))

static inline int fk_known(int32_t obj)
{
	return obj >= 0 && obj < FK_OBJS && fk.created[obj] && !fk.forget[obj];
}

static inline int fk_ref(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	(void)be;
	if (!fk_known(obj))
		return -ENOENT;
	*addr = FK_ADDR(obj, off);
	*key = (uint32_t)((remote ? 0x2000 : 0x1000) + obj);
	return 0;
}

static inline int fk_attr(void *be, int32_t obj, enum scn_attr a, uint64_t *v)
{
	uint32_t key;

	if (!fk_known(obj))
		return -ENOENT;
	switch (a) {
	case SCN_ATTR_ADDR: return fk_ref(be, obj, 0, 1, v, &key);
	case SCN_ATTR_LEN: *v = fk.len[obj]; return 0;
	case SCN_ATTR_LKEY: *v = 0x1000u + (uint32_t)obj; return 0;
	case SCN_ATTR_RKEY: *v = 0x2000u + (uint32_t)obj; return 0;
	case SCN_ATTR_QPN: *v = 0x40u + (uint32_t)obj; return 0;
	default: return -EINVAL;
	}
}

/* The buffer an address points into (an MR the fake holds bytes for), or NULL. */
static inline uint8_t *fk_buf(uint64_t addr, uint64_t len)
{
	int64_t obj = (int64_t)(addr >> 32) - 1;
	uint64_t off = addr & 0xffffffffu;

	if (obj < 0 || obj >= FK_OBJS || !fk.mem[obj] || off > fk.len[obj] || len > fk.len[obj] - off)
		return NULL;
	return fk.mem[obj] + off;
}

static inline int fk_exec(void *be, const struct hcall *c, struct hres *r)
{
	struct fk_step *st = &fk.step[fk.nexec < FK_STEPS ? fk.nexec : FK_STEPS - 1];

	(void)be;
	if (fk.nexec < FK_STEPS)
		fk.calls[fk.nexec] = *c;
	fk.nexec++;
	if (fk.nq) { /* as the stack: the oldest request sent ahead must be this one */
		ck_assert_int_eq(fk.queue[0], c->obj);
		memmove(fk.queue, fk.queue + 1, --fk.nq * sizeof(fk.queue[0]));
	}
	fk_log('x', c->obj);
	if (st->rc)
		return st->rc;
	memset(r, 0, sizeof(*r));
	r->has_opcode = (uint8_t)st->has_opcode;
	r->wc_opcode = st->wc_opcode;
	if (st->set)
		r->out = st->out;
	else if (c->nprefer)
		r->out = c->prefer[0];
	else if (c->op == M_OP_WRITE || c->op == M_OP_READ || c->op == M_OP_CAS || c->op == M_OP_FADD ||
		 c->op == M_OP_SEND || c->op == M_OP_BIND_MW || c->op == M_OP_LOCAL_INV)
		r->out = (struct m_outcome){ M_OUT_WC, M_WC_SUCCESS };
	else
		r->out = (struct m_outcome){ M_OUT_OK, 0 };
	if (c->op == M_OP_QUERY_QP) { /* query_qp's results: state, access (if scripted) */
		r->q[0] = st->has_query ? st->qp_state : M_QPS_RTS;
		r->q[1] = st->has_query ? st->qp_access : M_ACC_REMOTE_ANY;
		r->qset = st->has_query && !st->qp_access ? 1 : 3;
	}

	int ok = r->out.kind == M_OUT_OK || (r->out.kind == M_OUT_WC && r->out.code == M_WC_SUCCESS);

	if (!ok || c->obj < 0 || c->obj >= FK_OBJS)
		return 0;
	switch (c->op) {
	case M_OP_REG_MR:
		fk.len[c->obj] = c->verbs.len;
		free(fk.mem[c->obj]);
		fk.mem[c->obj] = calloc(c->verbs.len && c->verbs.len <= FK_LEN_MAX ? c->verbs.len : 1, 1);
		ck_assert_ptr_nonnull(fk.mem[c->obj]);
		/* fall through */
	case M_OP_ALLOC_PD: case M_OP_ALLOC_MW: case M_OP_CREATE_QP:
		fk.created[c->obj] = 1;
		break;
	case M_OP_FILL:
		if (fk.mem[c->obj] && c->fill.off <= fk.len[c->obj] && c->fill.len <= fk.len[c->obj] - c->fill.off)
			memset(fk.mem[c->obj] + c->fill.off, c->fill.byte, c->fill.len);
		break;
	case M_OP_WRITE: case M_OP_READ: {
		uint8_t *l = fk_buf(c->verbs.laddr, c->verbs.len), *t = fk_buf(c->verbs.raddr, c->verbs.len);

		if (l && t)
			memmove(c->op == M_OP_WRITE ? t : l, c->op == M_OP_WRITE ? l : t, c->verbs.len);
		break;
	}
	default:
		break;
	}
	return 0;
}

static inline int fk_read(void *be, int32_t obj, uint64_t off, size_t len, uint8_t *buf)
{
	(void)be;
	fk.nread++;
	fk.read_bytes += len;
	if (fk.read_rc)
		return fk.read_rc;
	if (obj < 0 || obj >= FK_OBJS || !fk.mem[obj])
		return -ENOENT;
	if (off > fk.len[obj] || len > fk.len[obj] - off)
		return -ERANGE;
	memcpy(buf, fk.mem[obj] + off, len);
	if (obj == fk.flip_obj && fk.flip_off >= off && fk.flip_off < off + len)
		buf[fk.flip_off - off] ^= 0xff;
	if (obj == fk.flip2_obj && fk.flip2_off >= off && fk.flip2_off < off + len)
		buf[fk.flip2_off - off] ^= 0xff;
	return 0;
}

static inline int fk_peer(void *be, int32_t qp, int wait_ms, struct hpeer *out)
{
	/* the steps sent ahead have run by the time the peer is asked (as on the stack: written before the wait) */
	unsigned sent = fk.nexec + fk.nq;
	const struct fk_step *st = sent ? &fk.step[sent - 1 < FK_STEPS ? sent - 1 : FK_STEPS - 1] : NULL;

	(void)be;
	(void)wait_ms;
	fk.npeer++;
	if (!fk_known(qp))
		return -ENOENT;
	out->state = st && st->has_peer ? st->peer_state : fk.peer_state;
	out->recv = st && st->has_peer ? st->peer_recv : -1;
	out->wc = st && st->has_peer ? st->peer_wc : (struct m_recv_wc){ 0 };
	return 0;
}

static inline int fk_ahead(void *be, const struct hcall *c)
{
	(void)be;
	fk.ahead_calls++;
	if (c->obj > fk.offered_max)
		fk.offered_max = c->obj;
	if ((fk.ahead_pd_only && c->op != M_OP_ALLOC_PD && c->op != M_OP_DEALLOC_PD) || (fk.nq && c->node != fk.node && !fk.ahead_any_node) ||
	    fk.nq == FK_QUEUE)
		return -EAGAIN;
	fk.node = c->node;
	fk.queue[fk.nq++] = c->obj;
	if (fk.nq > fk.max_q)
		fk.max_q = fk.nq;
	fk.posts_ahead += c->op == M_OP_WRITE;
	fk_log('a', c->obj);
	return 0;
}

/* The runner's wait between two looks at a peer QP, counted, not slept: the fake's peer does not change. */
static inline void fk_pause(void *be, int ms)
{
	(void)be;
	fk.paused_ms += (unsigned)ms;
}

static const struct backend_ops fake_ops = {
	.name = "fake", .exec = fk_exec, .ref = fk_ref, .attr = fk_attr, .read = fk_read, .peer = fk_peer,
	.ahead = fk_ahead, .pause = fk_pause,
};

/* ---------------------------------------------------------- helpers -- */

static inline struct scn_file *parse(const char *text)
{
	struct scn_diags d;
	struct scn_file *f = NULL;
	char buf[512] = "";
	int rc = scn_parse_text(text, strlen(text), "dir/t.scn", &f, &d);

	if (rc && d.n)
		scn_diag_format(&d.d[0], "t.scn", buf, sizeof(buf));
	ck_assert_msg(rc == 0, "parse: %d %s", rc, buf);
	return f;
}

/* The line of the first step whose text starts with prefix. */
static inline uint32_t line_of(const char *text, const char *prefix)
{
	uint32_t line = 1;

	for (const char *p = text; *p; line++) {
		if (strncmp(p, prefix, strlen(prefix)) == 0)
			return line;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	ck_abort_msg("no line starting with '%s'", prefix);
	return 0;
}

/* The fake's script entry for the step that starts with prefix (check steps run no exec). */
static inline struct fk_step *at(const struct scn_file *f, const char *text, const char *prefix)
{
	uint32_t line = line_of(text, prefix);
	unsigned k = 0;

	for (size_t i = 0; i < f->nsteps; i++) {
		if (f->steps[i].line == line)
			return &fk.step[k];
		if (strcmp(scn_step_call(&f->steps[i])->name, "check") != 0)
			k++;
	}
	ck_abort_msg("no step at line %u", line);
	return NULL;
}

static inline struct run_opts opts(const char *profile)
{
	struct run_opts o = { .mode = RUN_REAL };

	ck_assert_int_eq(m_profile_get(profile, 0, &o.prof), 0);
	return o;
}

static inline int has(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

/* The line of detail that starts with prefix, without its newline ("" if none). */
static inline const char *detail_line(const char *detail, const char *prefix)
{
	static char buf[512];
	const char *p = detail;

	buf[0] = '\0';
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (strncmp(p, prefix, strlen(prefix)) == 0) {
			snprintf(buf, sizeof(buf), "%.*s", (int)len, p);
			break;
		}
		p += len + (nl ? 1 : 0);
	}
	return buf;
}

#define ck_assert_has(hay, needle) \
	ck_assert_msg(has(hay, needle), "'%s' not in '%s'", needle, (hay) ? (hay) : "(null)")

/* Run text on the fake under profile; the caller frees with done(). */
static inline struct scn_file *run_text(const char *text, const struct run_opts *o, struct result *r)
{
	struct scn_file *f = parse(text);

	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, o, r), 0);
	return f;
}

/* Run text on the fake with the step that starts with prefix scripted as st; the caller frees with done(). */
static inline struct scn_file *run_as(const char *text, const char *prefix, struct fk_step st, const struct run_opts *o,
				      struct result *r)
{
	struct scn_file *f = parse(text);

	*at(f, text, prefix) = st;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, o, r), 0);
	return f;
}

static inline void done(struct scn_file *f, struct result *r)
{
	result_clear(r);
	scn_free(f);
	fk_reset();
}

static inline void setup(void)
{
	memset(&fk, 0, sizeof(fk));
	fk_reset();
}

static inline void teardown(void)
{
	fk_reset();
}

/* Two connected nodes, each with a PD, an MR and a QP (lines 2-10). */
#define TWO                                                            \
	"nodes a b\n"                                                  \
	"a: alloc_pd pd\n"                                             \
	"a: reg_mr dst pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE\n" \
	"b: alloc_pd pd\n"                                             \
	"b: reg_mr src pd=pd len=4K access=LOCAL_WRITE\n"              \
	"a: create_qp q pd=pd\n"                                       \
	"b: create_qp q pd=pd\n"                                       \
	"connect a.q b.q\n"                                            \
	"a: fill dst byte=0\n"                                         \
	"b: fill src byte=0x5a\n"

/* rereg_mr is EOPNOTSUPP on rxe 6.1: outside the generic set, inside the profile's. */
static const char rereg_text[] = "nodes a\n"
				 "a: alloc_pd pd\n"
				 "a: reg_mr m pd=pd len=4K access=LOCAL_WRITE\n"
				 "a: rereg_mr m flags=CHANGE_ACCESS access=LOCAL_WRITE|REMOTE_READ expect ok\n"
				 "a: fill m byte=7\n"
				 "a: check m\n";

/* A corrupted rkey: REM_ACCESS_ERR, and the responder QP a.q must go to ERR. */
static const char nak_text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 rkey=a.dst.rkey+1 expect REM_ACCESS_ERR\n"
				   "b: query_qp q expect state=ERR\n";

/* A run on the model engine simulating the rxe stack (run --stack=model); ops NULL: be_model_ops. */
static inline enum verdict fx_on_model(const char *text, const struct backend_ops *ops, struct result *r)
{
	struct scn_file *f = parse(text);
	struct run_opts o = opts("rxe");
	struct be_model eng;

	ck_assert_int_eq(bm_init(&eng, f, &o.prof), 0);
	ck_assert_int_eq(run_scenario(f, ops ? ops : &be_model_ops, &eng, &o, r), 0);
	bm_free(&eng);
	scn_free(f);
	return r->v;
}

#endif
