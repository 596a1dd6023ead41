/* tape_rec.c — recording what an engine answers, and the record's byte text (tape.h). */
#include "harness/run/tape.h"
#include "harness/base/jline.h"
#include "harness/base/text.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#define RUN_MIN 4 /* bytes alike from which a run is written "HH*N" */

char *tape_bytes_encode(const uint8_t *b, size_t n)
{
	struct text t = { 0 };

	for (size_t i = 0; i < n;) {
		size_t r = 1;

		while (i + r < n && b[i + r] == b[i])
			r++;
		if (r >= RUN_MIN) {
			text_addf(&t, "%s%02x*%zu", t.len ? "," : "", b[i], r);
			i += r;
			continue;
		}
		text_addf(&t, "%s", t.len ? "," : "");
		for (size_t lit = i; i < n && i - lit < 4096; i++) { /* literals up to the next run */
			size_t k = 1;

			while (i + k < n && k < RUN_MIN && b[i + k] == b[i])
				k++;
			if (k >= RUN_MIN)
				break;
			text_addf(&t, "%02x", b[i]);
		}
	}
	if (t.oom) {
		text_free(&t);
		return NULL;
	}
	return t.s ? text_take(&t) : strdup("");
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return -1;
}

/* Append m bytes to *out (*n of *cap used). 0 or -ENOMEM. */
static int grow(uint8_t **out, size_t *n, size_t *cap, size_t m)
{
	if (*n + m <= *cap)
		return 0;
	size_t nc = *cap ? *cap : 64;

	while (nc < *n + m)
		nc *= 2;
	uint8_t *p = realloc(*out, nc);

	if (!p)
		return -ENOMEM;
	*out = p;
	*cap = nc;
	return 0;
}

int tape_bytes_decode(const char *s, uint8_t **out, size_t *n)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		const char *star = memchr(s, '*', len);

		if (star) {
			char *end;
			int hi = hexval(s[0]), lo = star - s == 2 ? hexval(s[1]) : -1;
			unsigned long long r = strtoull(star + 1, &end, 10);

			if (hi < 0 || lo < 0 || end != s + len || r == 0 || r > (1ull << 32) ||
			    grow(out, n, &cap, (size_t)r))
				goto bad;
			memset(*out + *n, hi << 4 | lo, (size_t)r);
			*n += (size_t)r;
		} else {
			if (len % 2 || grow(out, n, &cap, len / 2))
				goto bad;
			for (size_t i = 0; i < len; i += 2) {
				int hi = hexval(s[i]), lo = hexval(s[i + 1]);

				if (hi < 0 || lo < 0)
					goto bad;
				(*out)[(*n)++] = (uint8_t)(hi << 4 | lo);
			}
		}
		s += len + (e ? 1 : 0);
	}
	return 0;
bad:
	free(*out);
	*out = NULL;
	*n = 0;
	return -EINVAL;
}

/* One event (stolen) as a line. */
static void put(struct tape_rec *tr, json_t *ev)
{
	char *s = ev ? json_dumps(ev, JSON_COMPACT) : NULL;

	json_decref(ev);
	if (!s) {
		tr->oom = 1;
		return;
	}
	text_add(&tr->t, TAPE_MARK, strlen(TAPE_MARK));
	text_adds(&tr->t, s);
	text_add(&tr->t, "\n", 1);
	free(s);
}

/*
 * The events of every step (exec, ahead, ref, attr, peer) are written as
 * jansson's json_dumps(JSON_COMPACT) writes them, without building a
 * value to dump and free (on the guest's TCG CPUs the tree's allocations
 * and the dump were half of the runner's work per step): a line is
 * appended piece by piece (jline.h), and an event with a string jansson
 * would escape (or a NULL one: json_pack's error) or one too long for the
 * line is built with jansson instead (ok 0), so the record is the same
 * either way.
 */

/* The line l as put writes an event, when ok; returns ok (0: the caller builds the event with jansson). */
static int jl_put(struct tape_rec *tr, const struct jline *l)
{
	if (!l->ok)
		return 0;
	text_add(&tr->t, TAPE_MARK, strlen(TAPE_MARK));
	text_add(&tr->t, l->b, l->n);
	text_add(&tr->t, "\n", 1);
	return 1;
}

void *tape_json_ascii(const char *s, int lines)
{
	char *c = strdup(s ? s : "");
	json_t *j;

	if (!c)
		return NULL;
	for (char *p = c; *p; p++)
		if ((unsigned char)*p >= 0x7f || ((unsigned char)*p < 0x20 && !(lines && (*p == '\n' || *p == '\t'))))
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

static json_t *jnum(uint64_t v)
{
	return json_integer((json_int_t)(int64_t)v);
}

/* The read being joined, written out. */
static void flush_read(struct tape_rec *tr)
{
	char *bytes;

	if (tr->robj < 0)
		return;
	bytes = tape_bytes_encode(tr->rbuf, tr->rlen);
	put(tr, bytes ? json_pack("[s,i,o,o,i,s]", "m", (int)tr->robj, jnum(tr->roff), jnum(tr->rlen), 0, bytes)
		      : NULL);
	free(bytes);
	tr->robj = -1;
	tr->rlen = 0;
}

/* A call's identity: [OP, NODE, OBJ, CHAIN_POS, REFUSED]. */
static json_t *call_id(const struct hcall *c)
{
	return json_pack("[s,i,i,i,i]", m_op_kind_str((enum m_op_kind)c->op), (int)c->node, (int)c->obj,
			 (int)c->chain_pos, (int)c->refused_errno);
}

/* RES of call c: [OUTCOME, WC_OPCODE|null, {QUERY_KEY: VALUE}]. */
static json_t *res_json(const struct hcall *c, const struct hres *r)
{
	const struct scn_call *call = scn_call_get(c->call);
	json_t *q = json_object();
	char out[48];

	for (unsigned i = 0; q && call && call->query && i < 32; i++) {
		if (!call->query[i].key)
			break;
		if (r->qset & (1u << i))
			json_object_set_new(q, call->query[i].key, jnum(r->q[i]));
	}
	return json_pack("[s,o,o]", m_outcome_str(r->out, out, sizeof(out)),
			 r->has_opcode ? json_string(m_wc_opcode_str((enum m_wc_opcode)r->wc_opcode)) : json_null(),
			 q ? q : json_object());
}

#define KEYS_KNOWN 1  /* query_keys' answer: found */
#define KEYS_REPEAT 2 /* two entries of the list have one key */
#define KEYS_PLAIN 4  /* every key is a string jansson writes as it is (jline_plain) */

/*
 * What exec_line needs to know of call ci's query list (its first 32 entries), the
 * KEYS_* bits; fixed for the process, kept once found (as scn_call_get keeps its answers):
 * a query's every key was compared with the others' and looked at a byte at a time for
 * every step.
 */
static int query_keys(int ci, const struct scn_call *call)
{
	static unsigned char memo[512];
	int bits = KEYS_KNOWN | KEYS_PLAIN;

	if (ci >= 0 && ci < (int)sizeof(memo) && memo[ci])
		return memo[ci];
	for (unsigned i = 0; call && call->query && i < 32 && call->query[i].key; i++) {
		for (unsigned k = 0; k < i; k++)
			if (strcmp(call->query[k].key, call->query[i].key) == 0)
				bits |= KEYS_REPEAT;
		if (!jline_plain(call->query[i].key, NULL))
			bits &= ~KEYS_PLAIN;
	}
	if (ci >= 0 && ci < (int)sizeof(memo))
		memo[ci] = (unsigned char)bits;
	return bits;
}

/* An exec's event as res_json and rec_exec's json_pack write it (struct jline), into *l. */
static const struct jline *exec_line(struct jline *l, const struct hcall *c, int rc, const struct hres *r)
{
	const struct scn_call *call = scn_call_get(c->call);
	char out[48];
	int first = 1, keys;

	jline_init(l);
	jline_raw(l, "[\"x\",");
	jline_str(l, m_op_kind_str((enum m_op_kind)c->op));
	for (int i = 0; i < 5; i++) {
		const int v[5] = { (int)c->node, (int)c->obj, (int)c->chain_pos, (int)c->refused_errno, rc };

		jline_raw(l, ",");
		jline_int(l, v[i]);
	}
	if (rc) {
		jline_raw(l, ",null]");
		return l;
	}
	jline_raw(l, ",[");
	jline_str(l, m_outcome_str(r->out, out, sizeof(out)));
	jline_raw(l, ",");
	if (r->has_opcode)
		jline_str(l, m_wc_opcode_str((enum m_wc_opcode)r->wc_opcode));
	else
		jline_raw(l, "null");
	jline_raw(l, ",{");
	keys = r->qset ? query_keys(c->call, call) : 0;
	for (unsigned i = 0; call && call->query && i < 32 && call->query[i].key; i++) {
		if (!(r->qset & (1u << i)))
			continue;
		for (unsigned k = 0; (keys & KEYS_REPEAT) && k < i; k++) /* json_object_set_new of a key set before */
			if ((r->qset & (1u << k)) && strcmp(call->query[k].key, call->query[i].key) == 0)
				l->ok = 0; /* its value replaced: jansson's object, not this line */
		if (!(keys & KEYS_PLAIN))
			l->ok = 0; /* a key jansson escapes (none is): its object */
		jline_raw(l, first ? "\"" : ",\"");
		jline_raw(l, call->query[i].key); /* jline_str's, its look at every byte taken once */
		jline_raw(l, "\":");
		jline_int(l, (int64_t)r->q[i]);
		first = 0;
	}
	jline_raw(l, "}]]");
	return l;
}

static int rec_exec(void *be, const struct hcall *c, struct hres *r)
{
	struct tape_rec *tr = be;
	struct jline l;
	int rc;

	flush_read(tr);
	rc = tr->in->exec(tr->be, c, r);
	if (!jl_put(tr, exec_line(&l, c, rc, r)))
		put(tr, json_pack("[s,s,i,i,i,i,i,o]", "x", m_op_kind_str((enum m_op_kind)c->op), (int)c->node,
				  (int)c->obj, (int)c->chain_pos, (int)c->refused_errno, (int)rc,
				  rc ? json_null() : res_json(c, r)));
	return rc;
}

static int rec_chain(void *be, const struct hcall *c, size_t n, struct hres *r)
{
	struct tape_rec *tr = be;
	json_t *ids = json_array(), *res = json_array();
	int rc;

	flush_read(tr);
	rc = tr->in->exec_chain(tr->be, c, n, r);
	for (size_t i = 0; ids && res && i < n; i++) {
		json_array_append_new(ids, call_id(&c[i]));
		if (!rc)
			json_array_append_new(res, res_json(&c[i], &r[i]));
	}
	put(tr, ids && res ? json_pack("[s,o,i,o]", "c", ids, (int)rc, res) : NULL);
	return rc;
}

static int rec_ref(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	struct tape_rec *tr = be;
	int rc = tr->in->ref(tr->be, obj, off, remote, addr, key);

	struct jline l;

	flush_read(tr);
	jline_init(&l);
	jline_raw(&l, "[\"r\",");
	jline_int(&l, obj);
	jline_raw(&l, ",");
	jline_int(&l, (int64_t)off);
	jline_raw(&l, ",");
	jline_int(&l, remote);
	jline_raw(&l, ",");
	jline_int(&l, rc);
	jline_raw(&l, ",");
	jline_int(&l, (int64_t)(rc ? 0 : *addr));
	jline_raw(&l, ",");
	jline_int(&l, rc ? 0 : *key);
	jline_raw(&l, "]");
	if (!jl_put(tr, &l))
		put(tr, json_pack("[s,i,o,i,i,o,I]", "r", (int)obj, jnum(off), remote, rc, jnum(rc ? 0 : *addr),
				  (json_int_t)(rc ? 0 : *key)));
	return rc;
}

static int rec_attr(void *be, int32_t obj, enum scn_attr a, uint64_t *v)
{
	struct tape_rec *tr = be;
	int rc = tr->in->attr(tr->be, obj, a, v);

	struct jline l;

	flush_read(tr);
	jline_init(&l);
	jline_raw(&l, "[\"a\",");
	jline_int(&l, obj);
	jline_raw(&l, ",");
	jline_str(&l, scn_attr_str(a));
	jline_raw(&l, ",");
	jline_int(&l, rc);
	jline_raw(&l, ",");
	jline_int(&l, (int64_t)(rc ? 0 : *v));
	jline_raw(&l, "]");
	if (!jl_put(tr, &l))
		put(tr, json_pack("[s,i,s,i,o]", "a", (int)obj, scn_attr_str(a), rc, jnum(rc ? 0 : *v)));
	return rc;
}

/* Reads join while each goes on where the last ended (compare_mem's chunks of one buffer). */
static int rec_read(void *be, int32_t obj, uint64_t off, size_t len, uint8_t *buf)
{
	struct tape_rec *tr = be;
	int rc = tr->in->read(tr->be, obj, off, len, buf);

	if (tr->robj >= 0 && (rc || tr->robj != obj || tr->roff + tr->rlen != off))
		flush_read(tr);
	if (rc) {
		put(tr, json_pack("[s,i,o,o,i,s]", "m", (int)obj, jnum(off), jnum(len), rc, ""));
		return rc;
	}
	if (grow(&tr->rbuf, &tr->rlen, &tr->rcap, len)) {
		tr->oom = 1;
		return rc;
	}
	if (tr->robj < 0) {
		tr->robj = obj;
		tr->roff = off;
	}
	memcpy(tr->rbuf + tr->rlen, buf, len);
	tr->rlen += len;
	return rc;
}

/* A receive completion's fields: [opcode, has_imm, imm, byte_len] and, when reported, [.., flags, inv]. */
static json_t *wc_json(const struct m_recv_wc *wc)
{
	const char *op = m_wc_opcode_str((enum m_wc_opcode)wc->opcode);

	if (!wc->flags_known)
		return json_pack("[s,i,I,I]", op, (int)wc->has_imm, (json_int_t)wc->imm, (json_int_t)wc->byte_len);
	return json_pack("[s,i,I,I,I,I]", op, (int)wc->has_imm, (json_int_t)wc->imm, (json_int_t)wc->byte_len,
			 (json_int_t)wc->flags, (json_int_t)wc->inv);
}

static int rec_peer(void *be, int32_t qp, int wait_ms, struct hpeer *out)
{
	struct tape_rec *tr = be;
	int rc = tr->in->peer(tr->be, qp, wait_ms, out);
	int ok = rc == 0;

	flush_read(tr);
	put(tr, json_pack("[s,i,i,o,o,o]", "p", (int)qp, rc,
			  ok && out->state >= 0 ? json_string(m_qp_state_str((enum m_qp_state)out->state)) : json_null(),
			  ok && out->recv >= 0 ? json_string(m_wc_status_str((enum m_wc_status)out->recv)) : json_null(),
			  ok && out->wc.known ? wc_json(&out->wc) : json_null()));
	return rc;
}

static int rec_blob(void *be, int32_t obj, uint8_t *buf, size_t cap, size_t *len)
{
	struct tape_rec *tr = be;
	int rc = tr->in->blob(tr->be, obj, buf, cap, len);
	char *hex = rc ? strdup("") : tape_bytes_encode(buf, *len);

	flush_read(tr);
	put(tr, hex ? json_pack("[s,i,i,s]", "b", (int)obj, rc, hex) : NULL);
	free(hex);
	return rc;
}

static const char *rec_why(void *be)
{
	struct tape_rec *tr = be;
	const char *w = tr->in->why(tr->be);

	flush_read(tr);
	put(tr, json_pack("[s,o]", "w", w ? tape_json_ascii(w, 0) : json_null()));
	return w;
}

static int rec_ahead(void *be, const struct hcall *c)
{
	struct tape_rec *tr = be;
	int rc = tr->in->ahead(tr->be, c);

	struct jline l;

	flush_read(tr);
	jline_init(&l);
	jline_raw(&l, "[\"h\",");
	jline_str(&l, m_op_kind_str((enum m_op_kind)c->op));
	jline_raw(&l, ",");
	jline_int(&l, (int)c->node);
	jline_raw(&l, ",");
	jline_int(&l, (int)c->obj);
	jline_raw(&l, ",");
	jline_int(&l, rc);
	jline_raw(&l, "]");
	if (!jl_put(tr, &l))
		put(tr, json_pack("[s,s,i,i,i]", "h", m_op_kind_str((enum m_op_kind)c->op), (int)c->node,
				  (int)c->obj, rc));
	return rc;
}

const char *tape_step_text(const struct scn_file *f, const struct scn_step *s, char *buf, size_t len)
{
	struct scn_step bare = *s;

	bare.nexpect = 0;
	bare.nconds = 0;
	bare.nseen = 0;
	scn_step_format(f, &bare, buf, len);
	return buf;
}

int tape_steps_check(const void *h, const struct scn_file *f, char *err, size_t errlen)
{
	json_t *steps = json_object_get(h, "steps");
	char mine[512];

	if (json_array_size(steps) != f->nsteps) {
		snprintf(err, errlen, "the live run's file had %zu steps, this one has %zu", json_array_size(steps),
			 f->nsteps);
		return -EINVAL;
	}
	for (size_t i = 0; i < f->nsteps; i++) {
		const char *live = json_string_value(json_array_get(steps, i));

		tape_step_text(f, &f->steps[i], mine, sizeof(mine));
		if (!live || strcmp(live, mine) != 0) {
			snprintf(err, errlen, "line %u is '%.200s', the live run's step was '%.200s'", f->steps[i].line, mine,
				 live ? live : "?");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The head's line as put writes json_pack's object of it (tape_rec_init), appended to
 * tr->t without a tree when every string in it is one jansson writes as it is (a
 * scenario's steps are in it); 0, nothing appended, when one is not or memory ran out.
 */
static int head_line(struct tape_rec *tr, const char *engine, const struct run_opts *o, const char *kernel, int chain,
		     const struct scn_file *f)
{
	struct text h = { 0 };
	char text[512];
	int ok = jline_plain(engine, NULL) && jline_plain(o->prof.name, NULL) && jline_plain(kernel, NULL);

	if (!ok)
		return 0;
	text_addf(&h, "%s{\"tape\":%d,\"engine\":\"%s\",\"profile\":\"%s\",\"kver\":%lld,\"kernel\":\"%s\",\"ahead\":%s,"
		  "\"crash\":%s,\"chain\":%s,\"steps\":[", TAPE_MARK, TAPE_VERSION, engine, o->prof.name,
		  (long long)o->prof.kernel, kernel, o->ahead ? "true" : "false", o->allow_crash ? "true" : "false",
		  chain ? "true" : "false");
	for (size_t i = 0; ok && f && i < f->nsteps; i++) {
		const char *st = tape_step_text(f, &f->steps[i], text, sizeof(text));

		ok = jline_plain(st, NULL);
		text_addl(&h, i ? ",\"" : "\"", st, "\"", NULL);
	}
	text_adds(&h, "]}\n");
	ok = ok && !h.oom;
	if (ok)
		text_add(&tr->t, h.s, h.len);
	text_free(&h);
	return ok;
}

void tape_rec_init(struct tape_rec *tr, const struct backend_ops *in, void *be, const struct run_opts *o,
		   const struct scn_file *f)
{
	struct utsname u;
	json_t *steps;
	char text[512];

	memset(tr, 0, sizeof(*tr));
	tr->in = in;
	tr->be = be;
	tr->robj = -1;
	tr->ops = (struct backend_ops){ .name = in->name, .exec = rec_exec, .ref = rec_ref, .attr = rec_attr,
					.read = rec_read, .peer = rec_peer, .blob = in->blob ? rec_blob : NULL,
					.exec_chain = in->exec_chain ? rec_chain : NULL, .why = in->why ? rec_why : NULL,
					.ahead = in->ahead ? rec_ahead : NULL, .pause = in->pause };
	if (uname(&u))
		u.release[0] = '\0';
	if (head_line(tr, in->name, o, u.release, in->exec_chain != NULL, f))
		return;
	steps = json_array();
	for (size_t i = 0; steps && f && i < f->nsteps; i++)
		json_array_append_new(steps, json_string(tape_step_text(f, &f->steps[i], text, sizeof(text))));
	put(tr, json_pack("{s:i,s:s,s:s,s:I,s:s,s:b,s:b,s:b,s:o}", "tape", TAPE_VERSION, "engine", in->name, "profile",
			  o->prof.name, "kver", (json_int_t)o->prof.kernel, "kernel", u.release, "ahead", o->ahead,
			  "crash", o->allow_crash, "chain", in->exec_chain != NULL, "steps", steps));
}

void tape_rec_drop(struct tape_rec *tr)
{
	text_free(&tr->t);
	free(tr->rbuf);
	tr->rbuf = NULL;
	tr->robj = -1;
}

int tape_rec_finish(struct tape_rec *tr, struct result *r)
{
	struct text d = { 0 };

	flush_read(tr);
	if (tr->oom || tr->t.oom) {
		tape_rec_drop(tr);
		return -ENOMEM;
	}
	text_adds(&d, r->detail ? r->detail : ""); /* copies: a format of this size is ten times slower */
	text_add(&d, text_str(&tr->t), tr->t.len);
	tape_rec_drop(tr);
	return result_take_detail(r, &d);
}

char *tape_take(struct result *r)
{
	return text_split_marked(&r->detail, TAPE_MARK, 0);
}
