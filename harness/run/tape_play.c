/*
 * tape_play.c — an engine that answers from a record (tape.h).
 *
 * The record is cut into segments at its execs: a segment holds the calls
 * the live run made after one step's exec and before the next's. The
 * player's execs take the record's execs in order, each checked to be the
 * same call (operation, node, object, place in a chain, refused errno) as
 * this run's: another one is a record of another file (TAPE_MISMATCH), none
 * left a step the live run did not reach (TAPE_SHORT). Any other call is
 * looked for in the current segment: references, attributes, reads and
 * blobs by their arguments (asking twice is asking the same engine view);
 * peer looks, aheads and whys taken in order, each once. A call the segment
 * has no answer for is reality the live run did not observe: TAPE_SHORT,
 * and an engine failure for the runner. A recorded peer look that saw a
 * receive completion this run did not ask for leaves that QP's later looks
 * unknowable (the live run had taken the completion): they are TAPE_SHORT.
 */
#include "harness/run/tape.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tape_status_str(enum tape_status s)
{
	static const char *const names[] = { "exact", "short", "mismatch" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

static json_t *ev(const struct tape_play *tp, size_t i)
{
	return json_array_get((json_t *)tp->events, i);
}

static const char *ev_kind(const struct tape_play *tp, size_t i)
{
	const char *k = json_string_value(json_array_get(ev(tp, i), 0));

	return k ? k : "";
}

/* A string element's text, "" for anything else. */
static const char *jstr_or(json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "";
}

static int64_t num(json_t *a, size_t i)
{
	return (int64_t)json_integer_value(json_array_get(a, i));
}

static int is_exec(const struct tape_play *tp, size_t i)
{
	return strcmp(ev_kind(tp, i), "x") == 0 || strcmp(ev_kind(tp, i), "c") == 0;
}

/* The first exec at or after seg (n: none): the current segment's end. */
static void find_next(struct tape_play *tp)
{
	tp->nx = tp->seg;
	while (tp->nx < tp->n && !is_exec(tp, tp->nx))
		tp->nx++;
}

static void say(struct tape_play *tp, enum tape_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The run left the record (st): the first reason is kept, and is the engine's why. */
static void say(struct tape_play *tp, enum tape_status st, const char *fmt, ...)
{
	va_list ap;
	char msg[sizeof(tp->note)];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (tp->status == TAPE_EXACT) {
		tp->status = st;
		snprintf(tp->note, sizeof(tp->note), "%s", msg);
	}
	snprintf(tp->why, sizeof(tp->why), "record: %.*s", (int)sizeof(tp->why) - 9, msg);
}

/* Close the current segment: its looks with a receive not taken taint their QP; the next begins after nx. */
static void next_segment(struct tape_play *tp)
{
	for (size_t i = tp->seg; i < tp->nx; i++) {
		json_t *e = ev(tp, i);
		int64_t qp = num(e, 1);

		if (!tp->used[i] && strcmp(ev_kind(tp, i), "p") == 0 && json_is_string(json_array_get(e, 4)) && qp >= 0 &&
		    qp < (int64_t)SCN_OBJS_MAX)
			tp->taint[qp] = 1;
	}
	tp->seg = tp->nx + (tp->nx < tp->n);
	find_next(tp);
}

/* Whether call identity id (OP, NODE, OBJ, CHAIN_POS, REFUSED from index at of array a) is c's. */
static int same_call(json_t *a, size_t at, const struct hcall *c)
{
	const char *op = json_string_value(json_array_get(a, at));

	return op && strcmp(op, m_op_kind_str((enum m_op_kind)c->op)) == 0 && num(a, at + 1) == c->node &&
	       num(a, at + 2) == c->obj && num(a, at + 3) == c->chain_pos && num(a, at + 4) == c->refused_errno;
}

/* RES into *r for call c. 0 or -EINVAL (a name the model does not know). */
static int res_read(json_t *res, const struct hcall *c, struct hres *r)
{
	const struct scn_call *call = scn_call_get(c->call);
	const char *out = json_string_value(json_array_get(res, 0));
	json_t *opc = json_array_get(res, 1), *q = json_array_get(res, 2), *v;
	const char *key;
	enum m_wc_opcode o;

	memset(r, 0, sizeof(*r));
	if (!out || m_outcome_parse(out, &r->out))
		return -EINVAL;
	if (json_is_string(opc)) {
		if (m_wc_opcode_parse(json_string_value(opc), &o))
			return -EINVAL;
		r->has_opcode = 1;
		r->wc_opcode = (uint8_t)o;
	}
	json_object_foreach(q, key, v) {
		int i = call && call->query ? scn_spec_index(call->query, key) : -1;

		if (i < 0 || i >= 32)
			return -EINVAL;
		r->qset |= 1u << i;
		r->q[i] = (uint64_t)json_integer_value(v);
	}
	return 0;
}

/* Take the next exec of the record, of kind kind ("x" or "c"): its index, or -1 (the status said). */
static long take_exec(struct tape_play *tp, const char *kind, const struct hcall *c)
{
	long i;

	if (tp->status != TAPE_EXACT)
		return -1;
	if (tp->nx >= tp->n) {
		say(tp, TAPE_SHORT, "the live run did not reach this %s on node %u (it stopped before)",
		    m_op_kind_str((enum m_op_kind)c->op), c->node);
		return -1;
	}
	i = (long)tp->nx;
	if (strcmp(ev_kind(tp, (size_t)i), kind) != 0) {
		say(tp, TAPE_MISMATCH, "this run %s where the live run %s", *kind == 'c' ? "posts a chain" : "runs one call",
		    *kind == 'c' ? "ran one call" : "posted a chain");
		return -1;
	}
	tp->used[i] = 1;
	return i;
}

static int play_exec(void *be, const struct hcall *c, struct hres *r)
{
	struct tape_play *tp = be;
	long i = take_exec(tp, "x", c);
	json_t *e;
	int rc;

	if (i < 0)
		return tp->status == TAPE_MISMATCH ? -EPROTO : -ENODATA;
	e = ev(tp, (size_t)i);
	if (!same_call(e, 1, c)) {
		say(tp, TAPE_MISMATCH, "this run's %s on node %u (object %d) is the live run's %s on node %lld (object %lld)",
		    m_op_kind_str((enum m_op_kind)c->op), c->node, c->obj, json_string_value(json_array_get(e, 1)),
		    (long long)num(e, 2), (long long)num(e, 3));
		return -EPROTO;
	}
	rc = (int)num(e, 6);
	if (!rc && res_read(json_array_get(e, 7), c, r)) {
		say(tp, TAPE_MISMATCH, "an answer the model cannot read (%s)", m_op_kind_str((enum m_op_kind)c->op));
		return -EPROTO;
	}
	next_segment(tp);
	return rc;
}

static int play_chain(void *be, const struct hcall *c, size_t n, struct hres *r)
{
	struct tape_play *tp = be;
	long i = take_exec(tp, "c", c);
	json_t *e, *ids, *res;
	int rc;

	if (i < 0)
		return tp->status == TAPE_MISMATCH ? -EPROTO : -ENODATA;
	e = ev(tp, (size_t)i);
	ids = json_array_get(e, 1);
	res = json_array_get(e, 3);
	rc = (int)num(e, 2);
	if (json_array_size(ids) != n) {
		say(tp, TAPE_MISMATCH, "a chain of %zu WRs where the live run posted %zu", n, json_array_size(ids));
		return -EPROTO;
	}
	for (size_t k = 0; k < n; k++) {
		if (!same_call(json_array_get(ids, k), 0, &c[k])) {
			say(tp, TAPE_MISMATCH, "WR %zu of a chain is not the live run's", k);
			return -EPROTO;
		}
		if (!rc && res_read(json_array_get(res, k), &c[k], &r[k])) {
			say(tp, TAPE_MISMATCH, "an answer the model cannot read (WR %zu of a chain)", k);
			return -EPROTO;
		}
	}
	next_segment(tp);
	return rc;
}

/*
 * The event of kind kind in the current segment whose elements 1..nkey
 * equal key[] (integers) — the first not used when take is set (then
 * marked used) — or NULL.
 */
static json_t *find(struct tape_play *tp, const char *kind, const int64_t *key, size_t nkey, int take)
{
	for (size_t i = tp->seg; i < tp->nx; i++) {
		json_t *e = ev(tp, i);
		size_t k = 0;

		if (strcmp(ev_kind(tp, i), kind) != 0 || (take && tp->used[i]))
			continue;
		while (k < nkey && num(e, k + 1) == key[k])
			k++;
		if (k < nkey)
			continue;
		if (take)
			tp->used[i] = 1;
		return e;
	}
	return NULL;
}

static int play_ref(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	struct tape_play *tp = be;
	int64_t k[] = { obj, (int64_t)off, remote };
	json_t *e = find(tp, "r", k, 3, 0);
	int rc;

	if (!e) {
		say(tp, TAPE_SHORT, "no reference to object %d at offset %llu was recorded here", obj, (unsigned long long)off);
		return -ENODATA;
	}
	rc = (int)num(e, 4);
	*addr = (uint64_t)num(e, 5);
	*key = (uint32_t)num(e, 6);
	return rc;
}

static int play_attr(void *be, int32_t obj, enum scn_attr a, uint64_t *v)
{
	struct tape_play *tp = be;

	for (size_t i = tp->seg; i < tp->nx; i++) {
		json_t *e = ev(tp, i);
		const char *an = json_string_value(json_array_get(e, 2));

		if (strcmp(ev_kind(tp, i), "a") == 0 && num(e, 1) == obj && an && strcmp(an, scn_attr_str(a)) == 0) {
			*v = (uint64_t)num(e, 4);
			return (int)num(e, 3);
		}
	}
	say(tp, TAPE_SHORT, "no %s of object %d was recorded here", scn_attr_str(a), obj);
	return -ENODATA;
}

/* A read of [off, off+len) of obj: served by one recorded read of obj here that holds it. */
static int play_read(void *be, int32_t obj, uint64_t off, size_t len, uint8_t *buf)
{
	struct tape_play *tp = be;

	for (size_t i = tp->seg; i < tp->nx; i++) {
		json_t *e = ev(tp, i);
		uint64_t roff = (uint64_t)num(e, 2), rlen = (uint64_t)num(e, 3);
		int rc = (int)num(e, 4);
		uint8_t *bytes;
		size_t nb;

		if (strcmp(ev_kind(tp, i), "m") != 0 || num(e, 1) != obj)
			continue;
		if (rc && roff == off)
			return rc;
		if (rc || off < roff || off - roff > rlen || len > rlen - (off - roff))
			continue;
		if (!tp->bytes || tp->bytes_ev != i) { /* a new recorded read: decoded once for all its chunks */
			free(tp->bytes);
			tp->bytes = NULL;
			if (tape_bytes_decode(jstr_or(json_array_get(e, 5)), &bytes, &nb) || nb != rlen) {
				free(bytes);
				say(tp, TAPE_MISMATCH, "the bytes of object %d are not readable", obj);
				return -EPROTO;
			}
			tp->bytes = bytes;
			tp->bytes_ev = i;
		}
		memcpy(buf, tp->bytes + (off - roff), len);
		return 0;
	}
	say(tp, TAPE_SHORT, "bytes %llu..%llu of object %d were not recorded here", (unsigned long long)off,
	    (unsigned long long)(off + len), obj);
	return -ENODATA;
}

static int play_peer(void *be, int32_t qp, int wait_ms, struct hpeer *out)
{
	struct tape_play *tp = be;
	int64_t k[] = { qp };
	json_t *e, *wc;
	const char *st, *rv;
	enum m_qp_state s;
	enum m_wc_status w;
	enum m_wc_opcode o;

	(void)wait_ms;
	if (qp >= 0 && qp < (int32_t)SCN_OBJS_MAX && tp->taint[qp]) {
		say(tp, TAPE_SHORT, "the live run took a receive completion of object %d this run did not look for", qp);
		return -ENODATA;
	}
	e = find(tp, "p", k, 1, 1);
	if (!e) {
		say(tp, TAPE_SHORT, "no further look at peer QP object %d was recorded here", qp);
		return -ENODATA;
	}
	memset(out, 0, sizeof(*out));
	out->state = out->recv = -1;
	st = json_string_value(json_array_get(e, 3));
	rv = json_string_value(json_array_get(e, 4));
	wc = json_array_get(e, 5);
	if ((st && m_qp_state_parse(st, &s)) || (rv && m_wc_status_parse(rv, &w)) ||
	    (json_is_array(wc) && m_wc_opcode_parse(jstr_or(json_array_get(wc, 0)), &o))) {
		say(tp, TAPE_MISMATCH, "a look at object %d the model cannot read", qp);
		return -EPROTO;
	}
	if (st)
		out->state = (int)s;
	if (rv)
		out->recv = (int)w;
	if (json_is_array(wc)) {
		out->wc.known = 1;
		out->wc.opcode = (uint8_t)o;
		out->wc.has_imm = (uint8_t)num(wc, 1);
		out->wc.imm = (uint32_t)num(wc, 2);
		out->wc.byte_len = (uint32_t)num(wc, 3);
		if (json_array_size(wc) >= 6) { /* a record made before wc_flags were reported has 4 */
			out->wc.flags_known = 1;
			out->wc.flags = (uint32_t)num(wc, 4);
			out->wc.inv = (uint32_t)num(wc, 5);
		}
	}
	return (int)num(e, 2);
}

static int play_blob(void *be, int32_t obj, uint8_t *buf, size_t cap, size_t *len)
{
	struct tape_play *tp = be;
	int64_t k[] = { obj };
	json_t *e = find(tp, "b", k, 1, 0);
	uint8_t *bytes;
	size_t nb;
	int rc;

	if (!e) {
		say(tp, TAPE_SHORT, "no blob of object %d was recorded here", obj);
		return -ENODATA;
	}
	rc = (int)num(e, 2);
	if (rc)
		return rc;
	if (tape_bytes_decode(jstr_or(json_array_get(e, 3)), &bytes, &nb) || nb > cap) {
		free(bytes);
		say(tp, TAPE_MISMATCH, "the blob of object %d does not fit", obj);
		return -EPROTO;
	}
	memcpy(buf, bytes, nb);
	*len = nb;
	free(bytes);
	return 0;
}

static const char *play_why(void *be)
{
	struct tape_play *tp = be;
	json_t *e = tp->status == TAPE_EXACT ? find(tp, "w", NULL, 0, 1) : NULL;

	if (e)
		return json_string_value(json_array_get(e, 1)); /* NULL: the live engine had none */
	return tp->why[0] ? tp->why : NULL;
}

/* An ahead the live run sent here for the same call: its answer; else not now (-EAGAIN: exec sends it). */
static int play_ahead(void *be, const struct hcall *c)
{
	struct tape_play *tp = be;

	for (size_t i = tp->seg; i < tp->nx; i++) {
		json_t *e = ev(tp, i);
		const char *op = json_string_value(json_array_get(e, 1));

		if (strcmp(ev_kind(tp, i), "h") || tp->used[i] || !op || strcmp(op, m_op_kind_str((enum m_op_kind)c->op)) ||
		    num(e, 2) != c->node || num(e, 3) != c->obj)
			continue;
		tp->used[i] = 1;
		return (int)num(e, 4);
	}
	return -EAGAIN;
}

static void play_pause(void *be, int ms)
{
	(void)be;
	(void)ms;
}

/* The head object h into *hd. 0 or -EINVAL. */
static int head_read(json_t *h, struct tape_head *hd, char *err, size_t errlen)
{
	const char *engine, *profile, *kernel = "";
	json_int_t ver = 0, kver = 0;
	int ahead = 0, crash = 0, chain = 0;

	if (!json_is_object(h) || json_unpack(h, "{s:I,s:s,s:s,s:I,s?s,s:b,s:b,s:b}", "tape", &ver, "engine", &engine,
					      "profile", &profile, "kver", &kver, "kernel", &kernel, "ahead", &ahead,
					      "crash", &crash, "chain", &chain)) {
		snprintf(err, errlen, "the record has no head");
		return -EINVAL;
	}
	if (ver != TAPE_VERSION) {
		snprintf(err, errlen, "the record is of version %lld, this rdmacheck reads %d", (long long)ver, TAPE_VERSION);
		return -EINVAL;
	}
	snprintf(hd->engine, sizeof(hd->engine), "%s", engine);
	snprintf(hd->profile, sizeof(hd->profile), "%s", profile);
	snprintf(hd->kernel, sizeof(hd->kernel), "%s", kernel);
	hd->kver = (uint32_t)kver;
	hd->ahead = ahead;
	hd->crash = crash;
	hd->chain = chain;
	return 0;
}

int tape_head_read(const char *lines, struct tape_head *hd)
{
	const char *nl = lines ? strchr(lines, '\n') : NULL;
	json_t *h = lines ? json_loadb(lines, nl ? (size_t)(nl - lines) : strlen(lines), 0, NULL) : NULL;
	char err[128];
	int rc = h ? head_read(h, hd, err, sizeof(err)) : -EINVAL;

	json_decref(h);
	return rc;
}

int tape_play_init_json(struct tape_play *tp, void *array, char *err, size_t errlen)
{
	json_t *a = array;
	int rc;

	memset(tp, 0, sizeof(*tp));
	if (!json_is_array(a) || json_array_size(a) == 0) {
		snprintf(err, errlen, "the record is empty");
		return -EINVAL;
	}
	rc = head_read(json_array_get(a, 0), &tp->head, err, errlen);
	if (rc)
		return rc;
	tp->head_json = json_incref(json_array_get(a, 0));
	tp->events = json_array();
	tp->n = json_array_size(a) - 1;
	tp->used = calloc(tp->n + 1, 1);
	if (!tp->events || !tp->used) {
		tape_play_free(tp);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 1; i <= tp->n; i++)
		if (json_array_append(tp->events, json_array_get(a, i))) {
			tape_play_free(tp);
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	tp->ops = (struct backend_ops){ .name = tp->head.engine, .exec = play_exec, .exec_chain = play_chain,
					.ref = play_ref, .attr = play_attr, .read = play_read, .peer = play_peer,
					.blob = play_blob, .why = play_why, .ahead = play_ahead, .pause = play_pause };
	if (!tp->head.chain)
		tp->ops.exec_chain = NULL; /* the runner runs a chain's WRs one by one, as it did live */
	find_next(tp);
	return 0;
}

int tape_play_init(struct tape_play *tp, const char *lines, char *err, size_t errlen)
{
	json_t *a = json_array();
	int rc;

	memset(tp, 0, sizeof(*tp));
	for (const char *p = lines; a && p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		json_error_t je;
		json_t *e = json_loadb(p, len, 0, &je);

		if (!e) {
			snprintf(err, errlen, "record line %zu: %s", json_array_size(a) + 1, je.text);
			json_decref(a);
			return -EINVAL;
		}
		json_array_append_new(a, e);
		p += len + (nl ? 1 : 0);
	}
	if (!a) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = tape_play_init_json(tp, a, err, errlen);
	json_decref(a);
	return rc;
}

void tape_play_free(struct tape_play *tp)
{
	json_decref(tp->events);
	json_decref(tp->head_json);
	free(tp->used);
	free(tp->bytes);
	tp->bytes = NULL;
	tp->head_json = NULL;
	tp->events = NULL;
	tp->used = NULL;
}
