/*
 * The call tables of scenarios/README.md against the families' call lists
 * (harness/api/<family>/calls_<family>.c, through scn_call_get): every call the
 * code has is documented once, in its family's section, and every documented call
 * exists; its kind, whether it destroys its NAME and whether it takes one; every key
 * (required outside [ ], optional inside, bare without =VALUE, positional after
 * *pos*, a range A..B the code's) and every query result, in both directions; and
 * the outcomes each call can give, from the table "| calls | outcomes |" of
 * *Outcomes*. The notation the rows are written in is the README's ("Calls",
 * "Outcomes"); a row this test cannot read is a failure too.
 */
#include "harness/lang/scn.h"

#include <check.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOC "scenarios/README.md"
#define DOC_MAX (1u << 20)
#define KEYS_MAX 64
#define CALLS_MAX 256
#define ROWS_MAX 64
#define DASH " \xe2\x80\x94 " /* " — ": the row's keys end, prose follows */

struct dkey {
	char name[32];
	bool opt, bare, pos, range;
	unsigned long long lo, hi;
};

struct dcall {
	char name[48];
	int api, line;
	char kind[16];
	bool destroys, noname;
	struct dkey keys[KEYS_MAX], res[KEYS_MAX];
	int nkeys, nres;
};

struct drow { /* a row of the outcomes table */
	int api, line, used;
	bool kinds[SCN_KIND_COUNT_];
	char calls[16][48];
	int ncalls;
	unsigned outs;
};

static struct dcall calls[CALLS_MAX];
static struct drow rows[ROWS_MAX];
static int ncalls, nrows;
static char errs[16384];

static void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void err(const char *fmt, ...)
{
	size_t n = strlen(errs);
	va_list ap;

	if (n + 2 >= sizeof(errs))
		return;
	va_start(ap, fmt);
	vsnprintf(errs + n, sizeof(errs) - n - 1, fmt, ap);
	va_end(ap);
	strcat(errs, "\n");
}

/* The cells of a table row, split at | not escaped as \|; returns their count. */
static int cells(char *line, char **cell, int max)
{
	int n = 0;
	char *p = line;

	if (*p != '|')
		return 0;
	p++;
	while (*p && n < max) {
		cell[n++] = p;
		while (*p && !(*p == '|' && p[-1] != '\\'))
			p++;
		if (!*p)
			break;
		*p++ = '\0';
	}
	for (int i = 0; i < n; i++) { /* trim */
		while (*cell[i] == ' ')
			cell[i]++;
		for (size_t l = strlen(cell[i]); l && cell[i][l - 1] == ' '; l--)
			cell[i][l - 1] = '\0';
	}
	return n && !*cell[n - 1] ? n - 1 : n;
}

/* The backquoted spans of s, in order: each copied into span[i]. */
static int spans(const char *s, char span[][512], int max)
{
	int n = 0;

	for (const char *p = strchr(s, '`'); p && n < max; p = strchr(p + 1, '`')) {
		const char *q = strchr(p + 1, '`');

		if (!q)
			break;
		snprintf(span[n++], 512, "%.*s", (int)(q - p - 1), p + 1);
		p = q;
	}
	return n;
}

static struct dcall *doc_find(const char *name, int api)
{
	for (int i = 0; i < ncalls; i++)
		if (strcmp(calls[i].name, name) == 0 && (api < 0 || calls[i].api == api))
			return &calls[i];
	return NULL;
}

/* One token of a keys span ("[len=N]", "qkey=N]", "zero_based") into k; depth tracks [ ]. */
static int key_token(const char *tok, int *depth, bool pos, struct dkey *k, int line)
{
	const char *p = tok, *eq;
	size_t len;

	while (*p == '[')
		(*depth)++, p++;
	memset(k, 0, sizeof(*k));
	k->opt = *depth > 0;
	k->pos = pos;
	len = strlen(p);
	while (len && p[len - 1] == ']')
		len--;
	for (size_t i = len; i < strlen(p); i++)
		(*depth)--;
	eq = memchr(p, '=', len);
	snprintf(k->name, sizeof(k->name), "%.*s", (int)(eq ? (size_t)(eq - p) : len), p);
	for (const char *c = k->name; *c; c++)
		if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_' && !(*c == 'J' && !c[1])) {
			err("%s:%d: `%s` is not a key (KEY=VALUE, BAREKEY, [ ... ])", DOC, line, tok);
			return -EINVAL;
		}
	k->bare = !eq;
	if (eq) {
		char val[64];
		char *end;

		snprintf(val, sizeof(val), "%.*s", (int)(len - (size_t)(eq + 1 - p)), eq + 1);
		k->lo = strtoull(val, &end, 0);
		if (end != val && strncmp(end, "..", 2) == 0) {
			char *end2;

			k->hi = strtoull(end + 2, &end2, 0);
			k->range = end2 != end + 2 && !*end2;
		}
	}
	return 0;
}

/* A value's placeholder word after its table's name (F, W, N], [...]) : true, depth kept. */
static bool placeholder(const char *tok, int *depth)
{
	const char *p = tok;

	while (*p == '[')
		p++;
	if (!isupper((unsigned char)*p))
		return false;
	while (isupper((unsigned char)*p))
		p++;
	while (*p == ']')
		p++;
	if (*p)
		return false;
	for (p = tok; *p; p++)
		*depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
	return true;
}

/* The keys part of a row (before " — "): spans of keys, "*pos*" before positional
 * ones, "same as `CALL`" for another call's keys, "results:" before query results. */
static void row_keys(struct dcall *c, const char *cell)
{
	char part[4096], span[32][512];
	const char *dash = strstr(cell, DASH), *same, *res;
	int n, depth = 0;

	snprintf(part, sizeof(part), "%.*s", (int)(dash ? (size_t)(dash - cell) : strlen(cell)), cell);
	if (strncmp(part, "\xe2\x80\x94", 3) == 0) /* "—": no keys (prose may follow) */
		return;
	same = strstr(part, "same as `");
	if (same) {
		char other[48];
		const struct dcall *o;

		sscanf(same + 9, "%47[^`]", other);
		o = doc_find(other, c->api);
		if (!o)
			err("%s:%d: %s: same as `%s`, which no earlier row documents", DOC, c->line, c->name, other);
		else {
			memcpy(c->keys, o->keys, sizeof(c->keys));
			c->nkeys = o->nkeys;
		}
		memmove((char *)same, same + 9 + strlen(other) + 1, strlen(same + 9 + strlen(other) + 1) + 1);
	}
	res = strstr(part, "result");
	n = spans(part, span, 32);
	for (int i = 0, off = 0; i < n; i++) {
		const char *at = strstr(part + off, span[i]);
		bool pos = at && at >= part + 7 && strncmp(at - 7, "*pos* `", 7) == 0;
		bool isres = res && at && at > res;
		char *save = NULL;

		off = at ? (int)(at - part) + (int)strlen(span[i]) : off;
		for (char *t = strtok_r(span[i], " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			struct dkey k;

			if (strcmp(t, "\xe2\x80\xa6") == 0) /* … */
				continue;
			if (placeholder(t, &depth)) /* "priv=dat_priv F": the value's second word */
				continue;
			if (key_token(t, &depth, pos, &k, c->line))
				continue;
			if (isres && c->nres < KEYS_MAX)
				c->res[c->nres++] = k;
			else if (!isres && c->nkeys < KEYS_MAX)
				c->keys[c->nkeys++] = k;
		}
	}
	if (depth)
		err("%s:%d: %s: unbalanced [ ]", DOC, c->line, c->name);
}

/* A row of a call table: | `CALL NAME`[, `CALL NAME`…] | class or — | kind[, destroys] | keys | */
static void call_row(char **cell, int api, int line)
{
	char span[16][512], kind[64];
	int n = spans(cell[0], span, 16);

	snprintf(kind, sizeof(kind), "%s", cell[2]);
	kind[strcspn(kind, " (,")] = '\0';
	if (!n)
		err("%s:%d: a call row without a `CALL`", DOC, line);
	for (int i = 0; i < n && ncalls < CALLS_MAX; i++) {
		struct dcall *c = &calls[ncalls];

		memset(c, 0, sizeof(*c));
		span[i][strcspn(span[i], " ")] = '\0';
		if (doc_find(span[i], -1)) {
			err("%s:%d: %s is documented twice", DOC, line, span[i]);
			continue;
		}
		snprintf(c->name, sizeof(c->name), "%.47s", span[i]);
		c->api = api;
		c->line = line;
		snprintf(c->kind, sizeof(c->kind), "%.15s", kind);
		c->destroys = strstr(cell[2], ", destroys") != NULL;
		c->noname = strcmp(cell[1], "\xe2\x80\x94") == 0;
		ncalls++;
		row_keys(c, cell[3]);
	}
}

/* The outcome words before " — ", comma-separated, as M_OUT_* bits (and SCN_OUTS_QUERY). */
static unsigned outcome_words(const char *cell, int line)
{
	static const struct { const char *word; unsigned bit; } words[] = {
		{ "`ok`", 1u << M_OUT_OK }, { "errno", 1u << M_OUT_ERRNO },
		{ "completion status", 1u << M_OUT_WC }, { "`KERNEL_CRASH`", 1u << M_OUT_CRASH },
		{ "`RPMA_E_*`", 1u << M_OUT_RPMA }, { "`DAT_*`", 1u << M_OUT_DAT },
		{ "DTO status", 1u << M_OUT_DTO }, { "`MRAPI_*`", 1u << M_OUT_MRAPI },
		{ "`KEY=VALUE` results", SCN_OUTS_QUERY },
	};
	char part[1024], *save = NULL;
	const char *dash = strstr(cell, DASH);
	unsigned outs = 0;

	snprintf(part, sizeof(part), "%.*s", (int)(dash ? (size_t)(dash - cell) : strlen(cell)), cell);
	for (char *w = strtok_r(part, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i;

		while (*w == ' ')
			w++;
		for (i = 0; i < sizeof(words) / sizeof(words[0]) && strcmp(w, words[i].word); i++)
			;
		if (i == sizeof(words) / sizeof(words[0]))
			err("%s:%d: '%s' is not an outcome word of the table", DOC, line, w);
		else
			outs |= words[i].bit;
	}
	return outs;
}

/* A row of the outcomes table: | FAMILY: KIND[, KIND…] or FAMILY: `CALL`[, `CALL`…] | outcomes | */
static void outcome_row(char **cell, int line)
{
	struct drow *r = &rows[nrows];
	char fam[32], span[16][512], *colon = strchr(cell[0], ':');
	enum m_family api;

	if (nrows >= ROWS_MAX)
		return;
	memset(r, 0, sizeof(*r));
	r->line = line;
	snprintf(fam, sizeof(fam), "%.*s", colon ? (int)(colon - cell[0]) : 0, cell[0]);
	if (!colon || scn_api_parse(fam, &api)) {
		err("%s:%d: '%s' does not start with a family's name and a colon", DOC, line, cell[0]);
		return;
	}
	r->api = (int)api;
	r->ncalls = spans(colon, span, 16);
	for (int i = 0; i < r->ncalls; i++)
		snprintf(r->calls[i], sizeof(r->calls[i]), "%.47s", span[i]);
	if (!r->ncalls) {
		char kinds[256], *save = NULL;

		snprintf(kinds, sizeof(kinds), "%s", colon + 1);
		for (char *w = strtok_r(kinds, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
			enum scn_kind k;

			if (scn_kind_parse(w, &k))
				err("%s:%d: '%s' is not a kind", DOC, line, w);
			else
				r->kinds[k] = true;
		}
	}
	r->outs = outcome_words(cell[1], line);
	nrows++;
}

/* Reads the README's call tables and outcome table into calls[] and rows[]. */
static void read_doc(void)
{
	FILE *f = fopen(DOC, "r");
	char line[8192], *cell[8];
	int api = -1, lineno = 0;
	bool in_calls = false, call_table = false, out_table = false;

	ck_assert_msg(f != NULL, "cannot open %s (run from the checkout)", DOC);
	ncalls = nrows = 0;
	errs[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		int n;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "## ", 3) == 0)
			in_calls = strcmp(line, "## Calls") == 0, api = -1;
		if (in_calls && strncmp(line, "### ", 4) == 0) {
			char span[1][512];
			enum m_family a;

			api = -1;
			if (spans(line, span, 1) == 1 && scn_api_parse(span[0], &a) == 0)
				api = (int)a;
			else
				err("%s:%d: a family's heading without its name (`verbs`, `rpma`, ...)", DOC, lineno);
		}
		if (line[0] != '|') {
			call_table = out_table = false;
			continue;
		}
		if (strcmp(line, "| call | NAME | kind | keys |") == 0)
			call_table = in_calls && api >= 0;
		else if (strcmp(line, "| calls | outcomes |") == 0)
			out_table = true;
		else if (strncmp(line, "|---", 4) == 0)
			continue;
		else if (call_table && (n = cells(line, cell, 8)) == 4)
			call_row(cell, api, lineno);
		else if (call_table)
			err("%s:%d: a call row of %d cells, not 4", DOC, lineno, n);
		else if (out_table && (n = cells(line, cell, 8)) == 2)
			outcome_row(cell, lineno);
	}
	fclose(f);
}

static const struct dkey *dkey_find(const struct dkey *k, int n, const char *name)
{
	for (int i = 0; i < n; i++) {
		size_t l = strlen(k[i].name);

		if (strcmp(k[i].name, name) == 0)
			return &k[i];
		if (l && k[i].name[l - 1] == 'J' && strncmp(k[i].name, name, l - 1) == 0 &&
		    isdigit((unsigned char)name[l - 1]) && !name[l])
			return &k[i];
	}
	return NULL;
}

static bool code_has(const struct scn_arg_spec *list, const char *doc_name)
{
	size_t l = strlen(doc_name);

	for (int i = 0; list && list[i].key; i++)
		if (strcmp(list[i].key, doc_name) == 0 ||
		    (doc_name[l - 1] == 'J' && strncmp(list[i].key, doc_name, l - 1) == 0 &&
		     isdigit((unsigned char)list[i].key[l - 1]) && !list[i].key[l]))
			return true;
	return false;
}

/* A documented call's keys against the code's spec list (args), both ways. */
static void check_keys(const struct dcall *d, const struct scn_call *c)
{
	for (int i = 0; c->args && c->args[i].key; i++) {
		const struct scn_arg_spec *a = &c->args[i];
		const struct dkey *k = dkey_find(d->keys, d->nkeys, a->key);

		if (!k) {
			err("%s:%d: %s: key %s is not documented", DOC, d->line, d->name, a->key);
			continue;
		}
		if (k->opt == !!(a->flags & SCN_A_REQ))
			err("%s:%d: %s: %s is %s in the code", DOC, d->line, d->name, a->key,
			    a->flags & SCN_A_REQ ? "required" : "optional");
		if (k->bare != (a->kinds == SCN_V_BARE))
			err("%s:%d: %s: %s %s a value in the code", DOC, d->line, d->name, a->key,
			    a->kinds == SCN_V_BARE ? "takes no" : "takes");
		if (k->pos != !!(a->flags & SCN_A_POS))
			err("%s:%d: %s: %s is %spositional in the code", DOC, d->line, d->name, a->key,
			    a->flags & SCN_A_POS ? "" : "not ");
		if (k->range && (a->lo != k->lo || a->hi != k->hi))
			err("%s:%d: %s: %s=%llu..%llu, the code's range %llu..%llu", DOC, d->line, d->name, a->key,
			    k->lo, k->hi, (unsigned long long)a->lo, (unsigned long long)a->hi);
	}
	for (int i = 0; i < d->nkeys; i++)
		if (!code_has(c->args, d->keys[i].name))
			err("%s:%d: %s: key %s is not in the code", DOC, d->line, d->name, d->keys[i].name);
	for (int i = 0; c->query && c->query[i].key; i++)
		if (!dkey_find(d->res, d->nres, c->query[i].key))
			err("%s:%d: %s: result %s is not documented", DOC, d->line, d->name, c->query[i].key);
	for (int i = 0; i < d->nres; i++)
		if (!code_has(c->query, d->res[i].name))
			err("%s:%d: %s: result %s is not in the code", DOC, d->line, d->name, d->res[i].name);
}

/* The outcomes row that applies to call c (one naming it, else its family's kind), or NULL. */
static struct drow *row_of(const struct scn_call *c)
{
	struct drow *byk = NULL;

	for (int i = 0; i < nrows; i++) {
		if (rows[i].api != c->api)
			continue;
		for (int j = 0; j < rows[i].ncalls; j++)
			if (strcmp(rows[i].calls[j], c->name) == 0)
				return &rows[i];
		if (!rows[i].ncalls && rows[i].kinds[c->kind] && !byk)
			byk = &rows[i];
	}
	return byk;
}

START_TEST(test_readme_calls_match_the_code)
{
	read_doc();
	ck_assert_int_gt(ncalls, 0);
	ck_assert_int_gt(nrows, 0);
	for (size_t i = 0; i < scn_call_count(); i++) {
		const struct scn_call *c = scn_call_get(i);
		const struct dcall *d = doc_find(c->name, -1);
		struct drow *r = row_of(c);

		if (!d) {
			err("%s: the call %s (%s) is not documented in its family's table", DOC, c->name,
			    scn_api_str((enum m_family)c->api));
			continue;
		}
		if (d->api != c->api)
			err("%s:%d: %s is documented under %s; the code's family is %s", DOC, d->line, c->name,
			    scn_api_str((enum m_family)d->api), scn_api_str((enum m_family)c->api));
		if (strcmp(d->kind, scn_kind_str((enum scn_kind)c->kind)))
			err("%s:%d: %s: kind %s, the code's %s", DOC, d->line, c->name, d->kind,
			    scn_kind_str((enum scn_kind)c->kind));
		if (d->destroys != !!c->destroys)
			err("%s:%d: %s: the code says it %s its NAME", DOC, d->line, c->name,
			    c->destroys ? "destroys" : "does not destroy");
		if (d->noname != (c->cls == 0))
			err("%s:%d: %s: the code says it takes %s NAME", DOC, d->line, c->name, c->cls ? "a" : "no");
		check_keys(d, c);
		if (!r) {
			err("%s: %s: no row of the outcomes table applies", DOC, c->name);
			continue;
		}
		r->used = 1;
		if (r->outs != c->outs)
			err("%s:%d: %s: the outcomes row says 0x%x, the code 0x%x (bits of enum m_outcome_kind)", DOC,
			    r->line, c->name, r->outs, (unsigned)c->outs);
	}
	for (int i = 0; i < ncalls; i++)
		if (scn_call_find(calls[i].name) < 0)
			err("%s:%d: %s is documented but is no call of the code", DOC, calls[i].line, calls[i].name);
	for (int i = 0; i < nrows; i++)
		if (!rows[i].used)
			err("%s:%d: this outcomes row applies to no call", DOC, rows[i].line);
	if (errs[0])
		fputs(errs, stderr);
	ck_assert_msg(errs[0] == '\0', "scenarios/README.md and the call lists differ (each difference above, on stderr)");
}
END_TEST

Suite *suite_test_calls_doc(void)
{
	Suite *s = suite_create("calls_doc");
	TCase *tc = tcase_create("readme");

	tcase_add_test(tc, test_readme_calls_match_the_code);
	suite_add_tcase(s, tc);
	return s;
}
