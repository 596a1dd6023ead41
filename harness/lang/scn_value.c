/*
 * scn_value.c — values of KEY=VALUE arguments and query results, parsed
 * against the key's spec: integers, flag sets, words, strings, hex bytes,
 * node names and object references ([NODE.]NAME, NAME+OFF, NAME.ATTR+N).
 */
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool scn_copy(char *buf, size_t n, const char *p, size_t len)
{
	bool fits = len < n;

	if (!fits)
		len = n - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return fits;
}

static bool is_alpha(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

bool scn_is_ident(const char *p, size_t len)
{
	if (len == 0 || len >= SCN_NAME_MAX || !is_alpha(p[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!is_alpha(p[i]) && !is_digit(p[i]))
			return false;
	return true;
}

bool scn_is_node_name(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len >= SCN_NAME_MAX || !(name[0] >= 'a' && name[0] <= 'z'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!(name[i] >= 'a' && name[i] <= 'z') && !is_digit(name[i]) && name[i] != '_')
			return false;
	return true;
}

int scn_node_find(const struct scn_file *f, const char *name)
{
	for (size_t i = 0; i < f->nnodes; i++)
		if (strcmp(f->nodes[i], name) == 0)
			return (int)i;
	return -1;
}

int32_t scn_obj_find(const struct scn_file *f, unsigned node, const char *name)
{
	for (size_t i = f->nobjs; i-- > 0;)
		if (f->objs[i].node == node && strcmp(f->objs[i].name, name) == 0)
			return (int32_t)i;
	return -1;
}

int scn_int_parse(const char *p, size_t len, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	unsigned base = 10;
	size_t i = 0;

	if (len > 0 && (p[len - 1] == 'K' || p[len - 1] == 'k'))
		mul = 1ull << 10;
	else if (len > 0 && (p[len - 1] == 'M' || p[len - 1] == 'm'))
		mul = 1ull << 20;
	else if (len > 0 && (p[len - 1] == 'G' || p[len - 1] == 'g'))
		mul = 1ull << 30;
	if (mul != 1)
		len--;
	if (len > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return SCN_E_BAD_INT;
	for (; i < len; i++) {
		unsigned d;

		if (is_digit(p[i]))
			d = (unsigned)(p[i] - '0');
		else if (base == 16 && p[i] >= 'a' && p[i] <= 'f')
			d = (unsigned)(p[i] - 'a' + 10);
		else if (base == 16 && p[i] >= 'A' && p[i] <= 'F')
			d = (unsigned)(p[i] - 'A' + 10);
		else
			return SCN_E_BAD_INT;
		if (v > (UINT64_MAX - d) / base)
			return SCN_E_OVERFLOW;
		v = v * base + d;
	}
	if (v > UINT64_MAX / mul)
		return SCN_E_OVERFLOW;
	*out = v * mul;
	return 0;
}

/* "an MR or an MW" for a class mask. */
static void class_names(unsigned cls, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned b = 0; b < SCN_C_COUNT_ && off < len; b++)
		if (cls & (1u << b))
			off += (size_t)snprintf(buf + off, len - off, "%s%s %s", off ? " or " : "",
						scn_class_a(1u << b), scn_class_str((enum scn_class)(1u << b)));
}

/* "an integer or an attribute NAME.ATTR" for a kind mask. */
static void kind_names(unsigned kinds, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned b = 0; b < 16 && off < len; b++)
		if (kinds & (1u << b))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " or " : "",
						scn_vkind_str((enum scn_vkind)(1u << b)));
}

static int wrong_kind(struct scn_ctx *c, const struct scn_word *w, const struct scn_arg_spec *spec)
{
	char kinds[160];

	kind_names(spec->kinds, kinds, sizeof(kinds));
	scn_diag_w(c, w, NULL, SCN_E_WRONG_KIND, spec->key, kinds);
	return -EINVAL;
}

static int int_value(struct scn_ctx *c, const struct scn_word *w, const char *s,
		     const struct scn_arg_spec *spec, uint64_t *out)
{
	int e = scn_int_parse(s, strlen(s), out);

	if (e) {
		scn_diag_w(c, w, e == SCN_E_BAD_INT ? "integers are decimal or 0x hex, with an optional K, M or G"
					  : NULL, (enum scn_err)e, s);
		return -EINVAL;
	}
	if (spec && spec->hi && (*out < spec->lo || *out > spec->hi)) {
		/* a create's size also takes the device's own limit (LIM-1, LIM-2) */
		scn_diag_w(c, w, spec->table == SCN_T_LIMIT ? "or max (the device's own limit) or max+1" : NULL,
			   SCN_E_RANGE, spec->key, (unsigned long long)*out,
			   (unsigned long long)spec->lo, (unsigned long long)spec->hi);
		return -EINVAL;
	}
	return 0;
}

static int table_word(struct scn_ctx *c, const struct scn_word *w, enum scn_table t,
		      const char *name, uint64_t *out)
{
	char hint[160];
	struct scn_table_ctx tc = { t };

	if (scn_table_lookup(t, name, out) == 0)
		return 0;
	if (!scn_hint_best(name, scn_cand_table, &tc, true, hint, sizeof(hint)))
		scn_cand_list(scn_cand_table, &tc, "one of: ", hint, sizeof(hint));
	scn_diag_w(c, w, hint, SCN_E_UNKNOWN_FLAG, scn_table_str(t), name);
	return -EINVAL;
}

static int flags_value(struct scn_ctx *c, const struct scn_word *w, char *s,
		       const struct scn_arg_spec *spec, uint64_t *out)
{
	uint64_t set = 0, v;

	for (char *part = s;;) {
		char *bar = strchr(part, '|');

		if (bar)
			*bar = '\0';
		if (is_digit(part[0]) ? int_value(c, w, part, NULL, &v) < 0
				      : table_word(c, w, spec->table, part, &v) < 0)
			return -EINVAL;
		set |= v;
		if (!bar)
			break;
		part = bar + 1;
	}
	*out = set;
	return 0;
}

static int string_value(struct scn_ctx *c, const struct scn_word *w, const char *s, char **out)
{
	char buf[SCN_TEXT_MAX];
	size_t n = 0;
	const char *p = s + 1;

	for (; *p != '"'; p++) {
		if (*p == '\\') {
			p++;
			if (*p != '"' && *p != '\\') {
				scn_diag_w(c, w, "only \\\" and \\\\ are escapes", SCN_E_BAD_ESCAPE, *p);
				return -EINVAL;
			}
		}
		if (n == sizeof(buf) - 1) {
			scn_diag_w(c, w, NULL, SCN_E_TEXT_TOO_LONG, SCN_TEXT_MAX - 1);
			return -EINVAL;
		}
		buf[n++] = *p;
	}
	if (p[1]) {
		scn_diag_w(c, w, "quote the whole value", SCN_E_UNEXPECTED, p + 1);
		return -EINVAL;
	}
	buf[n] = '\0';
	*out = strdup(buf);
	if (!*out) {
		c->oom = 1;
		return -ENOMEM;
	}
	return 0;
}

static int hex_value(struct scn_ctx *c, const struct scn_word *w, const char *s, char **out)
{
	const char *h = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? s + 2 : s;
	size_t n = strlen(h);

	if (n == 0 || n % 2 || n >= SCN_TEXT_MAX || strspn(h, "0123456789abcdefABCDEF") != n) {
		scn_diag_w(c, w, "an even number of hex digits, 0x optional", SCN_E_BAD_HEX, s);
		return -EINVAL;
	}
	*out = strdup(h);
	if (!*out) {
		c->oom = 1;
		return -ENOMEM;
	}
	for (char *p = *out; *p; p++)
		if (*p >= 'A' && *p <= 'F')
			*p = (char)(*p - 'A' + 'a');
	return 0;
}

static int node_value(struct scn_ctx *c, const struct scn_word *w, const char *s, int16_t *out)
{
	int n = scn_node_find(c->f, s);

	if (n < 0) {
		scn_unknown_node(c, w, s);
		return -EINVAL;
	}
	*out = (int16_t)n;
	return 0;
}

struct names_ctx { const struct scn_file *f; unsigned node; };

/* Object names on one node ("" for the others: never close enough). */
static const char *cand_name(const void *ctx, size_t i)
{
	const struct names_ctx *n = ctx;

	if (i >= n->f->nobjs)
		return NULL;
	return n->f->objs[i].node == n->node ? n->f->objs[i].name : "";
}

/* "create it first: alloc_pd" — the calls that create one of the classes cls. */
static void creators(unsigned cls, char *buf, size_t len)
{
	const struct scn_call *k;
	size_t off = (size_t)snprintf(buf, len, "create it first:");

	for (size_t i = 0; (k = scn_call_get(i)) != NULL && off < len; i++)
		if (k->kind == SCN_KIND_CREATE && (k->cls & cls))
			off += (size_t)snprintf(buf + off, len - off, " %s", k->name);
}

int scn_ref_resolve(struct scn_ctx *c, const struct scn_word *w, const char *name, unsigned node,
		    unsigned cls, const char *user, int32_t *out)
{
	char hint[224], want[96];
	int32_t o = scn_obj_find(c->f, node, name);

	if (o < 0) {
		struct names_ctx nc = { c->f, node };
		unsigned k;

		for (k = 0; k < c->f->nnodes && (k == node || scn_obj_find(c->f, k, name) < 0); k++)
			;
		if (k < c->f->nnodes) /* names are per node: it is another node's */
			snprintf(hint, sizeof(hint), "'%s' is on node %s: write %s.%s", name, c->f->nodes[k],
				 c->f->nodes[k], name);
		else if (!scn_hint_best(name, cand_name, &nc, false, hint, sizeof(hint)) && cls)
			creators(cls, hint, sizeof(hint));
		scn_diag_w(c, w, hint, SCN_E_UNKNOWN_NAME, name, c->f->nodes[node]);
		return -EINVAL;
	}
	if (cls && !(c->f->objs[o].cls & cls)) {
		const struct scn_obj *ob = &c->f->objs[o];

		class_names(cls, want, sizeof(want));
		snprintf(hint, sizeof(hint), "'%s' was created at line %u", name, ob->line);
		scn_diag_w(c, w, hint, SCN_E_WRONG_CLASS, name, scn_class_a(ob->cls),
			   scn_class_str((enum scn_class)ob->cls), user, want);
		return -EINVAL;
	}
	*out = o;
	return 0;
}

/* NAME, NODE.NAME, NAME.ATTR, NODE.NAME.ATTR, each with an optional +N / -N. */
/*
 * Split reference text (copied into s) at its sign and dots: the dotted parts
 * into part[] (*np of them), the offset after + or - into *off (v->neg for -),
 * *signed_ whether there was one. Returns 0, or -EINVAL after a diagnostic.
 */
static int ref_split(struct scn_ctx *c, const struct scn_word *w, const char *text, char *s, size_t cap,
		     char *part[3], size_t *np, uint64_t *off, int *signed_, struct scn_value *v)
{
	char *sign;

	snprintf(s, cap, "%s", text);
	part[0] = s;
	*np = 1;
	sign = strpbrk(s, "+-");
	*signed_ = sign != NULL;
	if (sign) {
		v->neg = *sign == '-';
		*sign = '\0';
		if (int_value(c, w, sign + 1, NULL, off) < 0)
			return -EINVAL;
	}
	for (char *p = s; (p = strchr(p, '.')) != NULL && *np < 4; p++) {
		*p = '\0';
		if (*np < 3)
			part[*np] = p + 1;
		(*np)++;
	}
	for (size_t i = 0; i < *np; i++)
		if (*np > 3 || !scn_is_ident(part[i], strlen(part[i]))) {
			scn_diag_w(c, w, "[NODE.]NAME, NAME+OFFSET or NAME.ATTR[+N]", SCN_E_BAD_REF, text);
			return -EINVAL;
		}
	return 0;
}

static int ref_value(struct scn_ctx *c, const struct scn_word *w, const char *text,
		     const struct scn_arg_spec *spec, unsigned node, struct scn_value *v)
{
	char hint[160], s[SCN_LINE_MAX + 1];
	char *part[3] = { NULL, NULL, NULL };
	size_t np;
	int sign;
	const char *name;
	uint64_t off = 0;
	int attr = -1;
	enum scn_attr a;
	const unsigned step_node = node;

	if (ref_split(c, w, text, s, sizeof(s), part, &np, &off, &sign, v))
		return -EINVAL;
	if (np == 3 || (np == 2 && scn_attr_parse(part[1], &a) == 0)) {
		const char *an = part[np - 1];

		if (scn_attr_parse(an, &a) < 0) {
			scn_hint_best(an, scn_cand_attr, NULL, false, hint, sizeof(hint));
			scn_diag_w(c, w, hint, SCN_E_UNKNOWN_ATTR, an);
			return -EINVAL;
		}
		attr = (int)a;
		np--;
	}
	if (np == 2) {
		int n = scn_node_find(c->f, part[0]);

		if (n < 0) {
			/* NAME.WORD where WORD looks like a misspelt attribute */
			if (scn_hint_best(part[1], scn_cand_attr, NULL, false, hint, sizeof(hint))) {
				scn_diag_w(c, w, hint, SCN_E_UNKNOWN_ATTR, part[1]);
				return -EINVAL;
			}
			scn_unknown_node(c, w, part[0]);
			return -EINVAL;
		}
		node = (unsigned)n;
		name = part[1];
	} else {
		name = part[0];
	}
	v->node = (int16_t)node;
	if (attr >= 0)
		v->kind = SCN_V_ATTR;
	else if (sign)
		v->kind = SCN_V_ADDR;
	else
		v->kind = (spec->kinds & SCN_V_OBJ) ? SCN_V_OBJ : SCN_V_ADDR;
	if (!(spec->kinds & v->kind))
		return wrong_kind(c, w, spec);
	if (scn_ref_resolve(c, w, name, node, v->kind == SCN_V_ATTR ? 0 : spec->cls, spec->key, &v->obj) < 0)
		return -EINVAL;
	if ((spec->flags & SCN_A_OWN) && v->node != (int16_t)step_node) {
		scn_diag_w(c, w, NULL, SCN_E_OTHER_NODE, spec->key, name, c->f->nodes[node]);
		return -EINVAL;
	}
	if (attr >= 0) {
		const struct scn_obj *ob = &c->f->objs[v->obj];

		if (!(scn_class_attrs((enum scn_class)ob->cls) & (1u << attr))) {
			scn_diag_w(c, w, NULL, SCN_E_ATTR_CLASS, scn_class_a(ob->cls),
				   scn_class_str((enum scn_class)ob->cls), scn_attr_str((enum scn_attr)attr));
			return -EINVAL;
		}
		v->attr = (uint8_t)attr;
	}
	v->num = off;
	return 0;
}

int scn_value_parse(struct scn_ctx *c, const struct scn_word *w, size_t off,
		    const struct scn_arg_spec *spec, unsigned node, struct scn_value *v)
{
	char s[SCN_LINE_MAX + 1];
	unsigned k = spec->kinds;
	struct scn_word vw = { w->p + off, w->len - off, w->col + (uint32_t)off };

	w = &vw; /* diagnostics point at the value */
	*v = (struct scn_value){ .line = c->ln->no, .col = vw.col, .obj = -1, .node = -1 };
	scn_copy(s, sizeof(s), vw.p, vw.len);
	if (s[0] == '"') {
		if (!(k & SCN_V_STR))
			return wrong_kind(c, w, spec);
		v->kind = SCN_V_STR;
		return string_value(c, w, s, &v->str);
	}
	if (k & SCN_V_HEX) {
		v->kind = SCN_V_HEX;
		return hex_value(c, w, s, &v->str);
	}
	if (k & SCN_V_FLAGS) {
		v->kind = SCN_V_FLAGS;
		return flags_value(c, w, s, spec, &v->num);
	}
	if ((k & SCN_V_WORD) && (k & SCN_V_OBJ)) {
		/* An object or a word for no object (fields: pd=pd1, srq=none): a word of the table is one. */
		if (scn_table_lookup((enum scn_table)spec->table, s, &v->num) == 0) {
			v->kind = SCN_V_WORD;
			return 0;
		}
	} else if ((k & SCN_V_WORD) && !(is_digit(s[0]) && (k & SCN_V_INT))) {
		/* A word; where the key also takes an integer, a number is one. */
		v->kind = SCN_V_WORD;
		return table_word(c, w, spec->table, s, &v->num);
	}
	if (k & SCN_V_NODE) {
		v->kind = SCN_V_NODE;
		return node_value(c, w, s, &v->node);
	}
	if (is_digit(s[0])) {
		if (!(k & SCN_V_INT))
			return wrong_kind(c, w, spec);
		v->kind = SCN_V_INT;
		return int_value(c, w, s, spec, &v->num);
	}
	if (!(k & (SCN_V_OBJ | SCN_V_ADDR | SCN_V_ATTR)))
		return wrong_kind(c, w, spec);
	return ref_value(c, w, s, spec, node, v);
}
