/*
 * scn_print.c — steps and values back to canonical scenario text (for
 * reports and round-trip tests).
 */
#include "harness/lang/scn_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Appends to a bounded buffer; off keeps counting past the end (snprintf-like). */
struct out { char *buf; size_t len, off; };

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->off < o->len ? o->buf + o->off : NULL, o->off < o->len ? o->len - o->off : 0,
		      fmt, ap);
	va_end(ap);
	if (n > 0)
		o->off += (size_t)n;
}

/* put(o, "%s", str) without a format's cost (a step is printed for every step's record): the same bytes,
 * NUL-terminated within the buffer, off counting past its end. */
static void put_s(struct out *o, const char *str)
{
	size_t n = strlen(str);

	if (o->off < o->len) {
		size_t room = o->len - o->off - 1, k = n < room ? n : room;

		memcpy(o->buf + o->off, str, k);
		o->buf[o->off + k] = '\0';
	}
	o->off += n;
}

/* put(o, "%llu", v) without a format's cost. */
static void put_u(struct out *o, unsigned long long v)
{
	char d[24], *e = d + sizeof(d) - 1;

	*e = '\0';
	do
		*--e = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	put_s(o, e);
}

static void put_ref(struct out *o, const struct scn_file *f, const struct scn_value *v, unsigned node)
{
	if ((unsigned)v->node != node) {
		put_s(o, f->nodes[v->node]);
		put_s(o, ".");
	}
	put_s(o, f->objs[v->obj].name);
}

static void put_flags(struct out *o, enum scn_table t, uint64_t bits)
{
	const char *name;
	uint64_t val;
	bool any = false;

	for (size_t i = 0; (name = scn_table_name(t, i, &val)) != NULL; i++)
		if (val && (bits & val) == val) {
			put_s(o, any ? "|" : "");
			put_s(o, name);
			bits &= ~val;
			any = true;
		}
	if (bits && any)
		put(o, "|0x%llx", (unsigned long long)bits);
	else if (!any)
		put_u(o, bits);
}

static void put_value(struct out *o, const struct scn_file *f, const struct scn_arg *a, unsigned node)
{
	const struct scn_value *v = &a->v;
	const char *name;
	uint64_t val;

	switch (v->kind) {
	case SCN_V_INT: /* a byte's value in hex, as memory is shown */
		if (strcmp(a->spec->key, "byte") == 0)
			put(o, "0x%02llx", (unsigned long long)v->num);
		else
			put_u(o, v->num);
		break;
	case SCN_V_FLAGS:
		put_flags(o, (enum scn_table)a->spec->table, v->num);
		break;
	case SCN_V_WORD:
		for (size_t i = 0; (name = scn_table_name((enum scn_table)a->spec->table, i, &val)); i++)
			if (val == v->num) {
				put_s(o, name);
				break;
			}
		break;
	case SCN_V_OBJ:
		put_ref(o, f, v, node);
		break;
	case SCN_V_ADDR:
		put_ref(o, f, v, node);
		put_s(o, v->neg ? "-" : "+");
		put_u(o, v->num);
		break;
	case SCN_V_ATTR:
		put_ref(o, f, v, node);
		put_s(o, ".");
		put_s(o, scn_attr_str((enum scn_attr)v->attr));
		if (v->num) {
			put_s(o, v->neg ? "-" : "+");
			put_u(o, v->num);
		}
		break;
	case SCN_V_STR:
		put_s(o, "\"");
		for (const char *p = v->str; *p; p++) {
			const char c[2] = { *p, '\0' };

			put_s(o, (*p == '"' || *p == '\\') ? "\\" : "");
			put_s(o, c);
		}
		put_s(o, "\"");
		break;
	case SCN_V_HEX:
		put_s(o, v->str);
		break;
	case SCN_V_NODE:
		put_s(o, f->nodes[v->node]);
		break;
	default: /* SCN_V_BARE: the key alone */
		break;
	}
}

size_t scn_value_format(const struct scn_file *f, const struct scn_arg *a, unsigned node,
			char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	put_value(&o, f, a, node);
	return o.off;
}

size_t scn_step_format(const struct scn_file *f, const struct scn_step *s, char *buf, size_t len)
{
	const struct scn_call *call = scn_step_call(s);
	struct out o = { buf, len, 0 };
	unsigned node = s->node;

	if (len)
		buf[0] = '\0';
	if (call->kind == SCN_KIND_CONNECT) {
		put_s(&o, "connect ");
		put_s(&o, f->nodes[s->node]);
		put_s(&o, ".");
		put_s(&o, f->objs[s->obj].name);
		node = SCN_NODES_MAX; /* every reference with its node */
	} else {
		put_s(&o, f->nodes[s->node]);
		put_s(&o, ": ");
		put_s(&o, call->name);
		if (s->obj >= 0) {
			put_s(&o, " ");
			put_s(&o, f->objs[s->obj].name);
		}
	}
	for (size_t i = 0; i < s->nargs; i++) {
		const struct scn_arg *a = &s->args[i];

		put_s(&o, " ");
		if (!(a->spec->flags & SCN_A_POS)) {
			put_s(&o, a->spec->key);
			put_s(&o, a->v.kind == SCN_V_BARE ? "" : "=");
		}
		put_value(&o, f, a, node);
	}
	if (s->nexpect || s->nconds)
		put_s(&o, " expect");
	for (size_t i = 0; i < s->nexpect; i++) {
		put_s(&o, i ? "|" : " ");
		put_s(&o, m_outcome_name(s->expect[i]));
	}
	for (size_t g = 0; s->nexpect && g < s->nseen; g++) { /* groups of the outcome list */
		put_s(&o, " seen");
		for (size_t i = 0, k = 0; i < s->nexpect; i++)
			if (s->seen[g] & (1u << i)) {
				put_s(&o, k++ ? "|" : " ");
				put_s(&o, m_outcome_name(s->expect[i]));
			}
	}
	for (size_t i = 0; i < s->nconds; i++) {
		put_s(&o, " ");
		put_s(&o, s->conds[i].spec->key);
		put_s(&o, "=");
		put_value(&o, f, &s->conds[i], s->node);
	}
	return o.off;
}
