/*
 * Unit tests of the coordinator's core (harness/run/runner.c): the verdict of
 * run_scenario for every way reality can relate to the model's sets, driven
 * by parsed scenario text and a scripted fake engine (struct backend_ops of
 * this file) that can make "reality" do anything: return any outcome or an
 * engine error per step, report any peer QP state or receive completion, and
 * corrupt any byte of a buffer. Also lint mode with the model as the engine,
 * and the runner's small helpers (verdict names, run_format_set,
 * run_deviation, run_unsupported).
 */
#include "harness/run/be_model.h"
#include "harness/run/runner.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- the fake -- */

#define FK_STEPS 64
#define FK_OBJS 64
#define FK_LEN_MAX (1u << 20)

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
};

static struct fake fk;

static void fk_reset(void)
{
	for (size_t i = 0; i < FK_OBJS; i++)
		free(fk.mem[i]);
	memset(&fk, 0, sizeof(fk));
	fk.peer_state = M_QPS_RTS;
	fk.flip_obj = fk.flip2_obj = -1;
}

/* Addresses carry the object: (obj + 1) << 32 | offset; keys 0x1000 + obj (lkey), 0x2000 + obj (rkey). */
#define FK_ADDR(obj, off) ((((uint64_t)(obj) + 1) << 32) | (uint64_t)(off))

static int fk_known(int32_t obj)
{
	return obj >= 0 && obj < FK_OBJS && fk.created[obj] && !fk.forget[obj];
}

static int fk_ref(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	(void)be;
	if (!fk_known(obj))
		return -ENOENT;
	*addr = FK_ADDR(obj, off);
	*key = (uint32_t)((remote ? 0x2000 : 0x1000) + obj);
	return 0;
}

static int fk_attr(void *be, int32_t obj, enum scn_attr a, uint64_t *v)
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
static uint8_t *fk_buf(uint64_t addr, uint64_t len)
{
	int64_t obj = (int64_t)(addr >> 32) - 1;
	uint64_t off = addr & 0xffffffffu;

	if (obj < 0 || obj >= FK_OBJS || !fk.mem[obj] || off > fk.len[obj] || len > fk.len[obj] - off)
		return NULL;
	return fk.mem[obj] + off;
}

static int fk_exec(void *be, const struct hcall *c, struct hres *r)
{
	struct fk_step *st = &fk.step[fk.nexec < FK_STEPS ? fk.nexec : FK_STEPS - 1];

	(void)be;
	if (fk.nexec < FK_STEPS)
		fk.calls[fk.nexec] = *c;
	fk.nexec++;
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

static int fk_read(void *be, int32_t obj, uint64_t off, size_t len, uint8_t *buf)
{
	(void)be;
	fk.nread++;
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

static int fk_peer(void *be, int32_t qp, int wait_ms, struct hpeer *out)
{
	const struct fk_step *st = fk.nexec ? &fk.step[fk.nexec - 1 < FK_STEPS ? fk.nexec - 1 : FK_STEPS - 1] : NULL;

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

static const struct backend_ops fake_ops = {
	.name = "fake", .exec = fk_exec, .ref = fk_ref, .attr = fk_attr, .read = fk_read, .peer = fk_peer,
};

/* ---------------------------------------------------------- helpers -- */

static struct scn_file *parse(const char *text)
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
static uint32_t line_of(const char *text, const char *prefix)
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
static struct fk_step *at(const struct scn_file *f, const char *text, const char *prefix)
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

static struct run_opts opts(const char *profile)
{
	struct run_opts o = { .mode = RUN_REAL };

	ck_assert_int_eq(m_profile_get(profile, 0, &o.prof), 0);
	return o;
}

static int has(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

/* The line of detail that starts with prefix, without its newline ("" if none). */
static const char *detail_line(const char *detail, const char *prefix)
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
static struct scn_file *run_text(const char *text, const struct run_opts *o, struct result *r)
{
	struct scn_file *f = parse(text);

	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, o, r), 0);
	return f;
}

static void done(struct scn_file *f, struct result *r)
{
	result_clear(r);
	scn_free(f);
	fk_reset();
}

static void setup(void)
{
	memset(&fk, 0, sizeof(fk));
	fk_reset();
}

static void teardown(void)
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

/* ------------------------------------------------------------ tests -- */

START_TEST(test_pass_data_moves_and_memory_matches)
{
	static const char text[] = "title a write that lands\n" TWO
				   "b: write q local=src+0 remote=a.dst+64 len=128 expect SUCCESS\n"
				   "a: check dst\n"
				   "a: query_qp q expect state=RTS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = run_text(text, &o, &r);

	ck_assert_msg(r.v == V_PASS, "verdict %s: %s\n%s", verdict_str(r.v), r.reason, r.detail ? r.detail : "");
	ck_assert_str_eq(r.file, "dir/t.scn");
	ck_assert_str_eq(r.title, "a write that lands");
	ck_assert_uint_eq(r.steps, 12);
	ck_assert_uint_eq(r.steps_run, 11);  /* check runs no engine call */
	ck_assert_uint_eq(fk.nexec, 11);
	ck_assert_uint_eq(r.line, 0);
	ck_assert_ptr_null(r.detail);
	ck_assert(r.secs >= 0 && r.secs < 5);
	/* the engine moved the bytes; the model agrees (check and end comparison read them) */
	ck_assert_uint_eq(fk.mem[1][63], 0);
	ck_assert_uint_eq(fk.mem[1][64], 0x5a);
	ck_assert_uint_eq(fk.mem[1][191], 0x5a);
	ck_assert_uint_eq(fk.mem[1][192], 0);
	ck_assert_uint_ge(fk.nread, 3); /* check dst, then dst and src at the end */
	ck_assert_uint_ge(fk.npeer, 1); /* the write's peer a.q was looked at */
	/* the engine saw its own addresses and keys */
	ck_assert_uint_eq(fk.calls[9].op, M_OP_WRITE);
	ck_assert_uint_eq(fk.calls[9].verbs.laddr, FK_ADDR(3, 0));
	ck_assert_uint_eq(fk.calls[9].verbs.lkey, 0x1000 + 3);
	ck_assert_uint_eq(fk.calls[9].verbs.raddr, FK_ADDR(1, 64));
	ck_assert_uint_eq(fk.calls[9].verbs.rkey, 0x2000 + 1);
	done(f, &r);
}
END_TEST

START_TEST(test_fail_outside_model_set)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 rkey=a.dst.rkey+1 expect REM_ACCESS_ERR\n"
				       "a: check dst\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	/* reality: the corrupted rkey was accepted */
	*at(f, text, "b: write") = (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_SUCCESS } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, line_of(text, "b: write"));
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: write gave SUCCESS, outside the allowed set");
	ck_assert_has(r.detail, "  step:    b: write q local=src+0 remote=a.dst+0 len=64 rkey=a.dst.rkey+1 "
				"expect REM_ACCESS_ERR (line 11)\n");
	ck_assert_has(r.detail, "  allowed: REM_ACCESS_ERR [");
	ck_assert_has(r.detail, "RA-KEY-1");
	ck_assert_has(r.detail, "(what your expect names, of what the model allows)");
	ck_assert_has(r.detail, "  profile rxe allows: REM_ACCESS_ERR");
	ck_assert_has(r.detail, "  real:    SUCCESS\n");
	/* the scenario stops at the failing step */
	ck_assert_uint_eq(r.steps_run, 10);
	ck_assert_uint_eq(r.steps, 11);
	ck_assert_uint_eq(fk.nexec, 10);
	done(f, &r);
}
END_TEST

START_TEST(test_fail_in_model_set_but_not_expected)
{
	/* Out of range local SGE: the model allows LOC_PROT_ERR and LOC_QP_OP_ERR; the scenario insists on one. */
	static const char text[] = TWO "b: write q local=src+4064 remote=a.dst+0 len=64 expect LOC_PROT_ERR\n";
	struct run_opts o = opts("generic");
	struct result r;
	struct scn_file *f = parse(text);

	*at(f, text, "b: write") = (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_LOC_QP_OP_ERR } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: write gave LOC_QP_OP_ERR, outside the allowed set");
	/* allowed: only what expect names (∩ model); the profile's whole set for comparison */
	ck_assert_has(r.detail, "  allowed: LOC_PROT_ERR [");
	ck_assert_str_eq(detail_line(r.detail, "  allowed:"), "  allowed: LOC_PROT_ERR [MR-ADDR-1 LP-1 RA-ERR-2] "
								 "(what your expect names, of what the model allows)");
	ck_assert_has(r.detail, "  profile generic allows: LOC_PROT_ERR [");
	ck_assert_has(r.detail, "LOC_QP_OP_ERR [");
	ck_assert_has(r.detail, "  real:    LOC_QP_OP_ERR\n");
	done(f, &r);

	/* the same reality passes when expect allows it */
	static const char text2[] = TWO "b: write q local=src+4064 remote=a.dst+0 len=64 expect LOC_PROT_ERR|LOC_QP_OP_ERR\n"
					"b: query_qp q expect state=ERR\n";
	f = parse(text2);
	*at(f, text2, "b: write") = (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_LOC_QP_OP_ERR } };
	*at(f, text2, "b: query_qp") = (struct fk_step){ .has_query = 1, .qp_state = M_QPS_ERR };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	done(f, &r);
}
END_TEST

START_TEST(test_no_expect_takes_the_whole_model_set)
{
	static const char text[] = TWO "b: write q local=src+4064 remote=a.dst+0 len=64\n";
	struct run_opts o = opts("generic");
	struct result r;
	struct scn_file *f = parse(text);

	*at(f, text, "b: write") = (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_LOC_PROT_ERR } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	done(f, &r);
	/* but not SUCCESS, and then the allowed set is the model's, without the expect note */
	f = parse(text);
	*at(f, text, "b: write") = (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_SUCCESS } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_has(r.detail, "  allowed: LOC_PROT_ERR [");
	ck_assert_has(r.detail, "LOC_QP_OP_ERR [");
	ck_assert(!has(r.detail, "your expect"));
	done(f, &r);
}
END_TEST

/* rereg_mr is EOPNOTSUPP on rxe 6.1: outside the generic set, inside the profile's. */
static const char rereg_text[] = "nodes a\n"
				 "a: alloc_pd pd\n"
				 "a: reg_mr m pd=pd len=4K access=LOCAL_WRITE\n"
				 "a: rereg_mr m flags=CHANGE_ACCESS access=LOCAL_WRITE|REMOTE_READ expect ok\n"
				 "a: fill m byte=7\n"
				 "a: check m\n";

START_TEST(test_xfail_declared_deviation)
{
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(rereg_text);

	*at(f, rereg_text, "a: rereg_mr") = (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EOPNOTSUPP } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_msg(r.v == V_XFAIL, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_eq(r.line, 4);
	ck_assert_str_eq(r.reason, "line 4: rereg_mr gave EOPNOTSUPP: declared deviation MR-REREG-9 of profile rxe");
	ck_assert_has(r.detail, "  line 4: rereg_mr: EOPNOTSUPP (specification: ok [");
	ck_assert_has(r.detail, "    deviation MR-REREG-9: F: ibv_rereg_mr (any flags) not supported on 6.1");
	/* an xfail does not stop the scenario */
	ck_assert_uint_eq(r.steps_run, 4);
	ck_assert_uint_eq(fk.nexec, 4);
	done(f, &r);

	/* the same reality under the generic profile is a plain failure */
	o = opts("generic");
	f = parse(rereg_text);
	*at(f, rereg_text, "a: rereg_mr") = (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EOPNOTSUPP } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 4: rereg_mr gave EOPNOTSUPP, outside the allowed set");
	done(f, &r);

	/* and under rxe of another kernel (the deviation is for 6.1 only) too */
	o = opts("rxe");
	o.prof.kernel = KVER(6, 8);
	f = parse(rereg_text);
	*at(f, rereg_text, "a: rereg_mr") = (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EOPNOTSUPP } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	done(f, &r);
}
END_TEST

START_TEST(test_fail_after_xfail_wins)
{
	static const char text[] = "nodes a\n"
				   "a: alloc_pd pd\n"
				   "a: reg_mr m pd=pd len=4K access=LOCAL_WRITE\n"
				   "a: rereg_mr m flags=CHANGE_ACCESS access=LOCAL_WRITE|REMOTE_READ\n"
				   "a: alloc_pd p2\n"
				   "a: dealloc_pd p2 expect ok\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	*at(f, text, "a: rereg_mr") = (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EOPNOTSUPP } };
	*at(f, text, "a: dealloc_pd") = (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EBUSY } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 6);
	ck_assert_str_eq(r.reason, "line 6: dealloc_pd gave EBUSY, outside the allowed set");
	/* the xfail's detail is kept before the failure's */
	ck_assert_has(r.detail, "deviation MR-REREG-9");
	ck_assert_has(r.detail, "  real:    EBUSY\n");
	ck_assert(strstr(r.detail, "MR-REREG-9") < strstr(r.detail, "real:    EBUSY"));
	done(f, &r);
}
END_TEST

/* LOCAL_INV of an unbound type-2 window: the rxe 6.1 profile says KERNEL_CRASH only. */
static const char crash_text[] = "require mw_type2\n"
				 "nodes a b\n"
				 "a: alloc_pd pd\n"
				 "a: create_qp q pd=pd\n"
				 "b: alloc_pd pd\n"
				 "b: create_qp q pd=pd\n"
				 "connect a.q b.q\n"
				 "a: alloc_mw w pd=pd type=2\n"
				 "a: local_inv q w expect LOC_QP_OP_ERR|MW_BIND_ERR\n"
				 "a: query_qp q expect state=ERR\n";

struct step_log {
	unsigned n, crashes;
	size_t last;
};

static void on_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		    const struct m_pred *prof, int crash)
{
	struct step_log *l = ctx;

	(void)f;
	ck_assert_ptr_nonnull(gen);
	ck_assert_ptr_nonnull(prof);
	ck_assert_uint_ge(gen->n, 1);
	l->n++;
	l->crashes += crash != 0;
	l->last = si;
}

START_TEST(test_crash_step_skipped_unless_allowed)
{
	struct run_opts o = opts("rxe");
	struct step_log log = { 0 };
	struct result r;
	struct scn_file *f;

	o.on_step = on_step;
	o.ctx = &log;
	f = run_text(crash_text, &o, &r);
	ck_assert_int_eq(r.v, V_SKIP);
	ck_assert_uint_eq(r.line, 9);
	ck_assert_has(r.reason, "line 9: the rxe profile says this step kills the kernel (MW-INV-3: F: LOCAL_INV");
	ck_assert_has(r.reason, "--stack=vm");
	ck_assert_uint_eq(fk.nexec, 6); /* the crashing step was not run */
	ck_assert_uint_eq(log.n, 6);
	ck_assert_uint_eq(log.crashes, 0);
	done(f, &r);

	/* in a disposable VM it runs; the crash is the declared deviation */
	log = (struct step_log){ 0 };
	o.allow_crash = 1;
	f = parse(crash_text);
	*at(f, crash_text, "a: local_inv") = (struct fk_step){ .set = 1, .out = { M_OUT_CRASH, 0 } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_msg(r.v == V_XFAIL, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_eq(r.line, 9);
	ck_assert_str_eq(r.reason, "line 9: local_inv gave KERNEL_CRASH: declared deviation MW-INV-3 of profile rxe");
	ck_assert_uint_eq(fk.nexec, 7); /* and nothing after the crash */
	ck_assert_uint_eq(r.steps_run, 7);
	ck_assert_uint_eq(log.n, 7);
	ck_assert_uint_eq(log.crashes, 1);
	ck_assert_uint_eq(log.last, 6);
	done(f, &r);

	/* the generic model never allows a crash */
	o = opts("generic");
	f = parse(crash_text);
	*at(f, crash_text, "a: local_inv") = (struct fk_step){ .set = 1, .out = { M_OUT_CRASH, 0 } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 9: local_inv gave KERNEL_CRASH, outside the allowed set");
	done(f, &r);
}
END_TEST

START_TEST(test_skip_requires)
{
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f;

	f = run_text("require rereg\nnodes a\na: alloc_pd pd\n", &o, &r);
	ck_assert_int_eq(r.v, V_SKIP);
	ck_assert_str_eq(r.reason, "requires rereg, which the profile of this stack does not offer");
	ck_assert_uint_eq(fk.nexec, 0);
	ck_assert_uint_eq(r.steps_run, 0);
	ck_assert_uint_eq(r.steps, 1);
	ck_assert_uint_eq(r.line, 0);
	done(f, &r);

	/* the engine may offer what the profile lacks */
	o.engine_caps = M_CAP_REREG;
	f = run_text("require rereg\nnodes a\na: alloc_pd pd\n", &o, &r);
	ck_assert_int_eq(r.v, V_PASS);
	ck_assert_uint_eq(fk.nexec, 1);
	done(f, &r);

	o = opts("generic");
	o.prof.caps &= ~(uint32_t)M_CAP_RPMA; /* a stack without librpma */
	f = run_text("require rpma\nnodes a\na: alloc_pd pd\n", &o, &r);
	ck_assert_int_eq(r.v, V_SKIP);
	ck_assert_str_eq(r.reason, "requires rpma, which the profile of this stack does not offer");
	done(f, &r);

	f = run_text("nodes a\na: alloc_pd pd\na: rpma_mr_reg m len=4K usage=READ_SRC\n", &o, &r);
	ck_assert_int_eq(r.v, V_SKIP);
	ck_assert_str_eq(r.reason, "line 3: rpma_mr_reg needs rpma, which the profile of this stack does not offer");
	ck_assert_uint_eq(fk.nexec, 0);
	done(f, &r);
}
END_TEST

START_TEST(test_engine_error_is_error)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 expect SUCCESS\n"
				       "a: check dst\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	at(f, text, "b: write")->rc = -EPIPE;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: write: the fake engine failed: Broken pipe");
	ck_assert_uint_eq(r.steps_run, 10);
	ck_assert_uint_eq(fk.nread, 0); /* no memory comparison after an error */
	done(f, &r);
}
END_TEST

START_TEST(test_timeout_is_fail)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	at(f, text, "b: write")->rc = -ETIMEDOUT;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: write: TIMEOUT (no answer within the step timeout)");
	ck_assert_has(r.detail, "  allowed: SUCCESS [");
	ck_assert_uint_eq(r.steps_run, 10);
	done(f, &r);
}
END_TEST

/* A corrupted rkey: REM_ACCESS_ERR, and the responder QP a.q must go to ERR. */
static const char nak_text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 rkey=a.dst.rkey+1 expect REM_ACCESS_ERR\n"
				   "b: query_qp q expect state=ERR\n";

START_TEST(test_peer_state_checked)
{
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(nak_text);

	/* reality: the requester sees the NAK, but the responder stays RTS */
	*at(f, nak_text, "b: write") =
		(struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = -1 };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason,
			 "line 11: peer QP a.q: model allows state ERR, receive none; real state RTS, receive none");
	ck_assert_uint_ge(fk.npeer, 2); /* it waited for the responder to get there */
	ck_assert_uint_eq(r.steps_run, 10);
	done(f, &r);

	/* the responder in ERR: pass (the requester's query_qp says ERR too) */
	f = parse(nak_text);
	*at(f, nak_text, "b: write") =
		(struct fk_step){ .has_peer = 1, .peer_state = M_QPS_ERR, .peer_recv = -1 };
	*at(f, nak_text, "b: query_qp") = (struct fk_step){ .has_query = 1, .qp_state = M_QPS_ERR };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_ge(fk.npeer, 1);
	done(f, &r);
}
END_TEST

/* A successful receive completion's opcode, byte_len and immediate against the model (recvwc.h). */
START_TEST(test_peer_receive_fields_checked)
{
	static const char text[] = TWO "a: recv q local=dst+0 len=256\n"
				       "b: send q local=src+0 len=32 imm_data=9 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct m_recv_wc good = { .known = 1, .opcode = M_WCO_RECV, .byte_len = 32, .has_imm = 1, .imm = 9 };
	struct scn_file *f = parse(text);

	*at(f, text, "b: send") = (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = M_WC_SUCCESS,
						    .peer_wc = good };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_str_eq(r.reason, "a.dst: memory differs from the model at offset 0"); /* past the send */
	done(f, &r);

	good.byte_len = 256; /* the receive's length, not the bytes sent */
	f = parse(text);
	*at(f, text, "b: send") = (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = M_WC_SUCCESS,
						    .peer_wc = good };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 12);
	ck_assert_str_eq(r.reason, "line 12: peer QP a.q: receive completion: model says byte_len 32, real 256");
	done(f, &r);

	good.byte_len = 32;
	good.imm = 8;
	f = parse(text);
	*at(f, text, "b: send") = (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = M_WC_SUCCESS,
						    .peer_wc = good };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_str_eq(r.reason, "line 12: peer QP a.q: receive completion: model says imm_data 9, real 8");
	done(f, &r);
}
END_TEST

/* A successful post's completion opcode against its WR's (recvwc.h: m_send_wc_opcode). */
START_TEST(test_send_opcode_checked)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=32 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	*at(f, text, "b: write") = (struct fk_step){ .has_opcode = 1, .wc_opcode = M_WCO_SEND };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: write: completion opcode RDMA_WRITE, real SEND");
	done(f, &r);

	f = parse(text);
	*at(f, text, "b: write") = (struct fk_step){ .has_opcode = 1, .wc_opcode = M_WCO_RDMA_WRITE };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_uint_ne(r.line, 11); /* the opcode agrees: the step passes (the fake moves no byte: the end fails) */
	done(f, &r);
}
END_TEST

START_TEST(test_peer_receive_checked)
{
	static const char text[] = TWO "a: recv q local=dst+0 len=256\n"
				       "b: send q local=src+0 len=32 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	*at(f, text, "b: send") =
		(struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = M_WC_SUCCESS };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	/* the fake does not move the sent bytes: the end comparison sees that */
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "a.dst: memory differs from the model at offset 0");
	ck_assert_uint_eq(r.line, 0);
	done(f, &r);

	/* no receive completion where the model predicts one */
	f = parse(text);
	*at(f, text, "b: send") = (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = -1 };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 12);
	ck_assert_str_eq(r.reason,
			 "line 12: peer QP a.q: model allows state RTS, receive SUCCESS; real state RTS, receive none");
	done(f, &r);

	/* the wrong receive completion */
	f = parse(text);
	*at(f, text, "b: send") =
		(struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = M_WC_LOC_LEN_ERR };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_has(r.reason, "receive SUCCESS; real state RTS, receive LOC_LEN_ERR");
	done(f, &r);
}
END_TEST

START_TEST(test_memory_mismatch_at_end)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+64 len=128 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	fk.flip_obj = 1; /* a.dst, two bytes: the first is named */
	fk.flip_off = 300;
	fk.flip2_obj = 1;
	fk.flip2_off = 100;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 0);
	ck_assert_str_eq(r.reason, "a.dst: memory differs from the model at offset 100");
	ck_assert_has(r.detail, "  a.dst, offset 100: model 5a 5a 5a 5a 5a 5a 5a 5a | real a5 5a 5a 5a 5a 5a 5a 5a \n");
	ck_assert_uint_eq(r.steps_run, 10); /* all of them */
	ck_assert_uint_eq(r.steps, 10);
	done(f, &r);

	/* past the first 4 KiB chunk of a bigger buffer; the first difference is named */
	static const char text2[] = "nodes a\n"
				    "a: alloc_pd pd\n"
				    "a: reg_mr m pd=pd len=16K access=LOCAL_WRITE\n"
				    "a: fill m byte=0x11 off=8K len=4K\n";
	f = parse(text2);
	fk.flip_obj = 1;
	fk.flip_off = 12287; /* the last byte of the filled range (another in the next chunk) */
	fk.flip2_obj = 1;
	fk.flip2_off = 12300;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "a.m: memory differs from the model at offset 12287");
	ck_assert_has(r.detail, "  a.m, offset 12287: model 11 | real ee \n");
	done(f, &r);
}
END_TEST

START_TEST(test_trace_and_rules)
{
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f;

	o.trace = 1;
	f = run_text("nodes a\na: alloc_pd pd\na: reg_mr m pd=pd len=4K access=REMOTE_WRITE expect EINVAL\n", &o, &r);
	ck_assert_int_eq(r.v, V_PASS);
	ck_assert_str_eq(r.detail, "  trace: line 2: a: alloc_pd pd -> ok; allowed: ok\n"
				   "  trace: line 3: a: reg_mr m pd=pd len=4096 access=REMOTE_WRITE expect EINVAL -> EINVAL; "
				   "allowed: EINVAL [MR-ACC-1]\n");
	/* the rules that decided the outcomes followed: MR-ACC-1 (and PD-2 never) */
	ck_assert(result_rule_has(&r, M_RULE_MR_ACC_1));
	ck_assert(!result_rule_has(&r, M_RULE_PD_2));
	done(f, &r);
}
END_TEST

START_TEST(test_check_step)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+64 len=128 expect SUCCESS\n"
				       "a: check dst off=64 len=64\n"
				       "a: fill dst byte=1\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	/* a difference inside the checked range fails at the check */
	fk.flip_obj = 1;
	fk.flip_off = 70;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 12);
	ck_assert_str_eq(r.reason, "a.dst: memory differs from the model at offset 70");
	ck_assert_uint_eq(fk.nexec, 10); /* stopped at the check */
	done(f, &r);

	/* outside it the check passes; the end comparison finds it */
	f = parse(text);
	fk.flip_obj = 3; /* b.src */
	fk.flip_off = 4000;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 0);
	ck_assert_str_eq(r.reason, "b.src: memory differs from the model at offset 4000");
	ck_assert_uint_eq(fk.nexec, 11);
	done(f, &r);

	/* reading fails: an error at the check */
	f = parse(text);
	fk.read_rc = -EIO;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_uint_eq(r.line, 12);
	ck_assert_str_eq(r.reason, "line 12: reading a.dst: Input/output error");
	done(f, &r);
}
END_TEST

START_TEST(test_query_results)
{
	static const char text[] = "nodes a b\n"
				   "a: alloc_pd pd\n"
				   "a: create_qp q pd=pd access=REMOTE_READ\n"
				   "b: alloc_pd pd\n"
				   "b: create_qp q pd=pd\n"
				   "connect a.q b.q\n"
				   "a: query_qp q expect access=REMOTE_READ\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	*at(f, text, "a: query_qp") =
		(struct fk_step){ .has_query = 1, .qp_state = M_QPS_RTS, .qp_access = M_ACC_REMOTE_READ };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	done(f, &r);

	f = parse(text);
	*at(f, text, "a: query_qp") = (struct fk_step){ .has_query = 1, .qp_state = M_QPS_RTS,
							.qp_access = M_ACC_REMOTE_READ | M_ACC_REMOTE_WRITE };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 7);
	ck_assert_str_eq(r.reason, "line 7: query_qp: model says access=REMOTE_READ, real access=REMOTE_WRITE|REMOTE_READ");
	done(f, &r);

	/* the real state differs from the model's */
	f = parse(text);
	*at(f, text, "a: query_qp") =
		(struct fk_step){ .has_query = 1, .qp_state = M_QPS_ERR, .qp_access = M_ACC_REMOTE_READ };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 7: query_qp: model says state=RTS, real state=ERR");
	done(f, &r);

	/* the model agrees with reality, the scenario's expectation does not */
	static const char text2[] = "nodes a b\n"
				    "a: alloc_pd pd\n"
				    "a: create_qp q pd=pd\n"
				    "b: alloc_pd pd\n"
				    "b: create_qp q pd=pd\n"
				    "connect a.q b.q\n"
				    "a: query_qp q expect state=ERR\n";
	f = parse(text2);
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 7: expect state=ERR, real state=RTS");
	done(f, &r);
}
END_TEST

START_TEST(test_object_missing_in_model_or_engine)
{
	/* the model refused the registration, so the MR never existed for it */
	static const char text[] = "nodes a\n"
				   "a: alloc_pd pd\n"
				   "a: reg_mr m pd=pd len=4K access=REMOTE_WRITE expect EINVAL\n"
				   "a: dereg_mr m\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = run_text(text, &o, &r);

	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_uint_eq(r.line, 4);
	ck_assert_str_eq(r.reason, "line 4: dereg_mr: the model cannot run this step "
				   "(it uses an object whose creation failed: a.m)");
	ck_assert_uint_eq(fk.nexec, 2);
	done(f, &r);

	/* the engine lost an object the model has */
	static const char text2[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 expect SUCCESS\n";
	f = parse(text2);
	fk.forget[1] = 1; /* a.dst */
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_uint_eq(r.line, 9); /* the first step that needs it: the fill */
	ck_assert_str_eq(r.reason, "line 9: fill: a.dst does not exist on the fake engine");
	ck_assert_uint_eq(r.steps_run, 7); /* the fill never reached the engine */
	ck_assert_uint_eq(fk.nexec, 7);
	done(f, &r);
}
END_TEST

/* ------------------------------------------------------------ lint -- */

static int lint(const char *text, struct result *r)
{
	struct scn_file *f = parse(text);
	struct m_profile gen;
	struct be_model eng;
	struct run_opts o = opts("rxe");
	int rc;

	o.mode = RUN_LINT;
	o.engine_caps = M_CAP_MW_TYPE1 | M_CAP_MW_TYPE2 | M_CAP_REREG | M_CAP_ATOMICS;
	ck_assert_int_eq(m_profile_get("generic", 0, &gen), 0);
	ck_assert_int_eq(bm_init(&eng, f, &gen), 0);
	rc = run_scenario(f, &be_model_ops, &eng, &o, r);
	bm_free(&eng);
	scn_free(f);
	return rc;
}

START_TEST(test_lint_rejects_expect_outside_generic)
{
	struct result r;

	ck_assert_int_eq(lint("nodes a\na: alloc_pd pd\na: alloc_pd p2 expect EINVAL\n", &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 3);
	ck_assert_str_eq(r.reason, "line 3: expect EINVAL, but the model allows only: ok");
	result_clear(&r);

	/* a bad rkey cannot succeed: SUCCESS in an expect list is a disagreement, even beside the right one */
	ck_assert_int_eq(lint(TWO "b: write q local=src+0 remote=a.dst+0 len=64 rkey=a.dst.rkey+1 "
				  "expect REM_ACCESS_ERR|SUCCESS\n", &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_has(r.reason, "line 11: expect SUCCESS, but the model allows only: REM_ACCESS_ERR [");
	result_clear(&r);

	/* a deviation of the rxe profile is not the specification */
	ck_assert_int_eq(lint(rereg_text, &r), 0);
	ck_assert_int_eq(r.v, V_PASS);
	result_clear(&r);
	ck_assert_int_eq(lint("nodes a\na: alloc_pd pd\na: reg_mr m pd=pd len=4K access=LOCAL_WRITE\n"
			      "a: rereg_mr m flags=CHANGE_ACCESS access=LOCAL_WRITE expect EOPNOTSUPP\n", &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 4: expect EOPNOTSUPP, but the model allows only: "
				   "ok [MR-REREG-8 MR-REREG-9]");
	result_clear(&r);
}
END_TEST

START_TEST(test_lint_accepts_expect_inside_generic)
{
	struct result r;

	ck_assert_int_eq(lint(nak_text, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
	/* one of two allowed outcomes; the model takes the one expect names */
	ck_assert_int_eq(lint(TWO "b: write q local=src+4064 remote=a.dst+0 len=64 expect LOC_QP_OP_ERR\n"
				  "b: query_qp q expect state=ERR\n"
				  "a: query_qp q expect state=RTS\n"
				  "a: check dst\n", &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_eq(r.steps_run, 12);
	result_clear(&r);
	ck_assert_int_eq(lint(rereg_text, &r), 0);
	ck_assert_int_eq(r.v, V_PASS);
	result_clear(&r);
}
END_TEST

/* expect KEY=NAME.ATTR compares with the attribute's value on the engine, not the offset. */
START_TEST(test_lint_query_expect_attribute)
{
	static const char base[] = "require dapl\nnodes a\na: dat_ia_open\na: dat_pz_create z\n"
				   "a: dat_lmr_create l pz=z len=4K priv=LOCAL_WRITE\n"
				   "a: dat_lmr_create r pz=z len=4K priv=ALL\n";
	char text[512];
	struct result r;

	snprintf(text, sizeof(text), "%sa: dat_lmr_query r expect rmr_context=r.rkey registered_size=r.len\n", base);
	ck_assert_int_eq(lint(text, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
	/* no remote privileges: rmr_context is 0, and l.len is 4096 */
	snprintf(text, sizeof(text), "%sa: dat_lmr_query l expect rmr_context=l.len\n", base);
	ck_assert_int_eq(lint(text, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 7: expect rmr_context=4096, but the model says rmr_context zero");
	result_clear(&r);
}
END_TEST

/* The model as an engine reports the receive completion it predicted for the peer. */
START_TEST(test_lint_send_with_receive)
{
	struct result r;

	ck_assert_int_eq(lint(TWO "a: recv q local=dst+0 len=256\n"
				  "b: send q local=src+0 len=32 expect SUCCESS\n"
				  "a: check dst\n", &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
}
END_TEST

/* --------------------------------------------------------- helpers -- */

START_TEST(test_verdict_names)
{
	static const char *const names[] = { "pass", "fail", "xfail", "skip", "error" };
	enum verdict v;

	for (int i = 0; i < V_COUNT_; i++) {
		ck_assert_str_eq(verdict_str((enum verdict)i), names[i]);
		ck_assert_int_eq(verdict_parse(names[i], &v), 0);
		ck_assert_int_eq(v, i);
	}
	ck_assert_str_eq(verdict_str(V_COUNT_), "?");
	ck_assert_str_eq(verdict_str((enum verdict)-1), "?");
	ck_assert_int_eq(verdict_parse("PASS", &v), -EINVAL);
	ck_assert_int_eq(verdict_parse("", &v), -EINVAL);
	ck_assert_int_eq(verdict_parse("passed", &v), -EINVAL);
}
END_TEST

START_TEST(test_format_set_and_deviation)
{
	struct m_pred p = { .n = 4 };
	struct m_profile rxe, gen;
	struct scn_file *f = parse("nodes a b\na: alloc_pd pd\na: dealloc_pd pd expect EBUSY|ok\n");
	char buf[256];

	p.alt[0] = (struct m_alt){ .out = { M_OUT_ERRNO, EINVAL }, .nrules = 1, .rules = { M_RULE_MR_DEREG_2 } };
	p.alt[1] = (struct m_alt){ .out = { M_OUT_ERRNO, EBUSY }, .nrules = 2,
				   .rules = { M_RULE_MR_DEREG_2, M_RULE_PD_1 } };
	p.alt[2] = (struct m_alt){ .out = { M_OUT_ERRNO, EINVAL }, .nrules = 0 }; /* duplicate outcome */
	p.alt[3] = (struct m_alt){ .out = { M_OUT_OK, 0 }, .nrules = 0 };
	run_format_set(&p, NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "EINVAL [MR-DEREG-2], EBUSY [MR-DEREG-2 PD-1], ok");
	run_format_set(&p, &f->steps[1], buf, sizeof(buf));
	ck_assert_str_eq(buf, "EBUSY [MR-DEREG-2 PD-1], ok");
	p.n = 1;
	run_format_set(&p, &f->steps[1], buf, sizeof(buf));
	ck_assert_str_eq(buf, "nothing");
	/* a short buffer is cut, never overrun */
	p.n = 4;
	memset(buf, 'x', sizeof(buf));
	run_format_set(&p, NULL, buf, 10);
	ck_assert_uint_eq(strlen(buf), 9);
	ck_assert_int_eq(buf[10], 'x');

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &rxe), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &gen), 0);
	const struct m_deviation *d = run_deviation(&rxe, &p, (struct m_outcome){ M_OUT_ERRNO, EINVAL });

	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->rule, M_RULE_MR_DEREG_2);
	ck_assert_has(d->citation, "rxe_dereg_mr");
	/* EBUSY is no deviation's outcome; the generic profile has none; ok names no rule */
	ck_assert_ptr_null(run_deviation(&rxe, &p, (struct m_outcome){ M_OUT_ERRNO, EBUSY }));
	ck_assert_ptr_null(run_deviation(&gen, &p, (struct m_outcome){ M_OUT_ERRNO, EINVAL }));
	ck_assert_ptr_null(run_deviation(&rxe, &p, (struct m_outcome){ M_OUT_OK, 0 }));
	/* kernel-ranged deviations: MR-REREG-9 is for 6.1 only */
	p.n = 1;
	p.alt[0] = (struct m_alt){ .out = { M_OUT_ERRNO, EOPNOTSUPP }, .nrules = 1, .rules = { M_RULE_MR_REREG_9 } };
	ck_assert_ptr_nonnull(run_deviation(&rxe, &p, p.alt[0].out));
	rxe.kernel = KVER(6, 2);
	ck_assert_ptr_null(run_deviation(&rxe, &p, p.alt[0].out));
	rxe.kernel = 0; /* any kernel */
	ck_assert_ptr_nonnull(run_deviation(&rxe, &p, p.alt[0].out));
	scn_free(f);
}
END_TEST

START_TEST(test_unsupported)
{
	char why[128];
	struct scn_file *f = parse("require mw_type1 atomics\nnodes a\na: alloc_pd pd\n");

	ck_assert_int_eq(run_unsupported(f, M_CAP_MW_TYPE1 | M_CAP_ATOMICS, why, sizeof(why)), 0);
	ck_assert_int_eq(run_unsupported(f, M_CAP_MW_TYPE1 | M_CAP_REREG, why, sizeof(why)), 1);
	ck_assert_str_eq(why, "requires atomics, which the profile of this stack does not offer");
	/* a short buffer is cut */
	ck_assert_int_eq(run_unsupported(f, 0, why, 9), 1);
	ck_assert_str_eq(why, "requires");
	scn_free(f);
	f = parse("nodes a b\na: alloc_pd pd\na: rpmem_create p target=b set=\"none.set\" size=1M\n");
	ck_assert_int_eq(run_unsupported(f, ~0u & ~(uint32_t)M_CAP_RPMEM, why, sizeof(why)), 1);
	ck_assert_str_eq(why, "line 3: rpmem_create needs rpmem, which the profile of this stack does not offer");
	scn_free(f);
	/* a library's calls need its capability even without a require line */
	f = parse("nodes a\na: alloc_pd pd\na: dat_ia_open\n");
	ck_assert_int_eq(run_unsupported(f, ~0u, why, sizeof(why)), 0);
	ck_assert_int_eq(run_unsupported(f, ~0u & ~(uint32_t)M_CAP_DAPL, why, sizeof(why)), 1);
	ck_assert_str_eq(why, "line 3: dat_ia_open needs dapl, which the profile of this stack does not offer");
	scn_free(f);
	/* fill and check are the harness's own */
	f = parse("nodes a\na: alloc_pd pd\na: reg_mr m pd=pd len=4K\na: fill m byte=1\na: check m\n");
	ck_assert_int_eq(run_unsupported(f, 0, why, sizeof(why)), 0);
	scn_free(f);
}
END_TEST

Suite *suite_test_runner(void)
{
	Suite *s = suite_create("test_runner");
	TCase *tc = tcase_create("verdicts");
	TCase *tl = tcase_create("lint");
	TCase *th = tcase_create("helpers");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pass_data_moves_and_memory_matches);
	tcase_add_test(tc, test_fail_outside_model_set);
	tcase_add_test(tc, test_fail_in_model_set_but_not_expected);
	tcase_add_test(tc, test_no_expect_takes_the_whole_model_set);
	tcase_add_test(tc, test_xfail_declared_deviation);
	tcase_add_test(tc, test_fail_after_xfail_wins);
	tcase_add_test(tc, test_crash_step_skipped_unless_allowed);
	tcase_add_test(tc, test_skip_requires);
	tcase_add_test(tc, test_engine_error_is_error);
	tcase_add_test(tc, test_timeout_is_fail);
	tcase_add_test(tc, test_peer_state_checked);
	tcase_add_test(tc, test_peer_receive_checked);
	tcase_add_test(tc, test_peer_receive_fields_checked);
	tcase_add_test(tc, test_send_opcode_checked);
	tcase_add_test(tc, test_memory_mismatch_at_end);
	tcase_add_test(tc, test_check_step);
	tcase_add_test(tc, test_trace_and_rules);
	tcase_add_test(tc, test_query_results);
	tcase_add_test(tc, test_object_missing_in_model_or_engine);
	suite_add_tcase(s, tc);
	tcase_add_test(tl, test_lint_rejects_expect_outside_generic);
	tcase_add_test(tl, test_lint_accepts_expect_inside_generic);
	tcase_add_test(tl, test_lint_send_with_receive);
	tcase_add_test(tl, test_lint_query_expect_attribute);
	suite_add_tcase(s, tl);
	tcase_add_test(th, test_verdict_names);
	tcase_add_test(th, test_format_set_and_deviation);
	tcase_add_test(th, test_unsupported);
	suite_add_tcase(s, th);
	return s;
}
