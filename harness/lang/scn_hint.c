/*
 * scn_hint.c — did-you-mean: bounded edit distance over candidate lists.
 */
#include "harness/base/distance.h"
#include "harness/lang/scn_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define CMP_MAX 64


const char *scn_hint_best(const char *word, scn_cand_fn get, const void *ctx, bool nocase,
			  char *hint, size_t len)
{
	size_t wl = strlen(word);
	size_t limit = wl <= 3 ? 1 : wl <= 6 ? 2 : 3;
	size_t best_d = limit + 1;
	const char *best = NULL, *s;

	for (size_t i = 0; (s = get(ctx, i)) != NULL; i++) {
		size_t d = edit_distance(word, s, nocase);

		if (d < best_d && d < wl) {
			best_d = d;
			best = s;
		}
	}
	if (len)
		hint[0] = '\0';
	if (best && len)
		snprintf(hint, len, "did you mean '%s'?", best);
	return best;
}

#define PARTS_MAX 8

/* Split word at '_' into sorted parts (pointers into buf); returns their number, 0 if too many. */
static size_t parts(const char *word, char *buf, size_t len, char **part)
{
	size_t n = 0;

	snprintf(buf, len, "%s", word);
	for (char *save = NULL, *p = strtok_r(buf, "_", &save); p; p = strtok_r(NULL, "_", &save)) {
		if (n == PARTS_MAX)
			return 0;
		part[n++] = p;
	}
	for (size_t i = 1; i < n; i++) /* insertion sort: a handful of parts */
		for (size_t j = i; j > 0 && strcmp(part[j - 1], part[j]) > 0; j--) {
			char *t = part[j];

			part[j] = part[j - 1];
			part[j - 1] = t;
		}
	return n;
}

const char *scn_hint_transposed(const char *word, scn_cand_fn get, const void *ctx, char *hint, size_t len)
{
	char wb[CMP_MAX + 1], cb[CMP_MAX + 1], *wp[PARTS_MAX], *cp[PARTS_MAX];
	size_t wn = strlen(word) <= CMP_MAX ? parts(word, wb, sizeof(wb), wp) : 0;
	const char *s;

	if (len)
		hint[0] = '\0';
	for (size_t i = 0; wn > 1 && (s = get(ctx, i)) != NULL; i++) {
		size_t k = 0;

		if (strcmp(s, word) == 0 || strlen(s) != strlen(word) || parts(s, cb, sizeof(cb), cp) != wn)
			continue;
		while (k < wn && strcmp(wp[k], cp[k]) == 0)
			k++;
		if (k == wn) {
			if (len)
				snprintf(hint, len, "did you mean '%s'?", s);
			return s;
		}
	}
	return NULL;
}

int scn_hint_expect(const char *word, char *hint, size_t len)
{
	char buf[CMP_MAX + 1];
	struct m_outcome o;

	if (!*word || strlen(word) > CMP_MAX)
		return 0;
	snprintf(buf, sizeof(buf), "%s", word);
	for (char *save = NULL, *p = strtok_r(buf, "|", &save); p; p = strtok_r(NULL, "|", &save))
		if (m_outcome_parse(p, &o) != 0)
			return 0;
	if (word[0] == '|' || word[strlen(word) - 1] == '|' || strstr(word, "||"))
		return 0;
	snprintf(hint, len, "did you forget 'expect'? ('... expect %s')", word);
	return 1;
}

void scn_cand_list(scn_cand_fn get, const void *ctx, const char *prefix, char *buf, size_t len)
{
	size_t off;
	const char *s;

	if (!len)
		return;
	off = (size_t)snprintf(buf, len, "%s", prefix);
	for (size_t i = 0; (s = get(ctx, i)) != NULL && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", s);
	if (off >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

void scn_unknown_node(struct scn_ctx *c, const struct scn_word *w, const char *name)
{
	char hint[224];

	if (c->nodes_refused) {
		c->stmt_errs++; /* the statement fails, silently: the nodes line's own error says why */
		return;
	}
	if (!scn_hint_best(name, scn_cand_node, c->f, false, hint, sizeof(hint)))
		scn_cand_list(scn_cand_node, c->f, "nodes: ", hint, sizeof(hint));
	scn_diag_w(c, w, hint, SCN_E_UNKNOWN_NODE, name);
}

const char *scn_cand_call(const void *ctx, size_t i)
{
	const struct scn_call *c = scn_call_get(i);

	(void)ctx;
	return c ? c->name : NULL;
}

const char *scn_cand_cap(const void *ctx, size_t i)
{
	(void)ctx;
	return scn_cap_name(i);
}

const char *scn_cand_outcome(const void *ctx, size_t i)
{
	(void)ctx;
	return m_outcome_nth(i, NULL);
}

const char *scn_cand_node(const void *ctx, size_t i)
{
	const struct scn_file *f = ctx;

	return i < f->nnodes ? f->nodes[i] : NULL;
}

const char *scn_cand_spec(const void *ctx, size_t i)
{
	const struct scn_arg_spec *s = ctx;

	for (size_t k = 0; s && s[k].key; k++)
		if (k == i)
			return s[k].key;
	return NULL;
}

const char *scn_cand_attr(const void *ctx, size_t i)
{
	(void)ctx;
	return i < SCN_ATTR_COUNT_ ? scn_attr_str((enum scn_attr)i) : NULL;
}

const char *scn_cand_statement(const void *ctx, size_t i)
{
	static const char *const st[] = { "title", "cite", "require", "nodes", "connect" };

	(void)ctx;
	return i < SCN_N(st) ? st[i] : NULL;
}

const char *scn_cand_table(const void *ctx, size_t i)
{
	const struct scn_table_ctx *t = ctx;

	return scn_table_name(t->t, i, NULL);
}
