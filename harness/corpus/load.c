/*
 * load.c — what every rdmacheck subcommand shares (load.h): loading and
 * parsing the scenario files, looking up --profile, the model's capabilities.
 */
#include "harness/run/be_model.h"
#include "harness/base/exits.h"
#include "harness/corpus/load.h"
#include "harness/base/opts.h"
#include "harness/base/text.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void cli_unload(struct filelist *fl, struct scn_file **files)
{
	for (size_t i = 0; files && i < fl->n; i++)
		scn_free(files[i]);
	free(files);
	files_free(fl);
}

void cli_unload_diags(size_t n, char **diags)
{
	for (size_t i = 0; diags && i < n; i++)
		free(diags[i]);
	free(diags);
}

int cli_source_line(const char *path, uint32_t no, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	uint32_t at = 1;
	int c, rc = -ENOENT;
	size_t n = 0;

	if (!f || no == 0) {
		if (f)
			fclose(f);
		return -ENOENT;
	}
	while (at < no && (c = getc(f)) != EOF)
		at += c == '\n';
	while (at == no && (c = getc(f)) != EOF && c != '\n') {
		rc = 0;
		if (n + 1 < len)
			buf[n++] = (char)c;
	}
	if (at == no)
		rc = 0;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	fclose(f);
	return rc;
}

/* d with its source line and a caret under its column (scn_diag_format_src), into buf. */
static void diag_format(const char *path, const struct scn_diag *d, char *buf, size_t len)
{
	char src[SCN_LINE_MAX + 1];

	scn_diag_format_src(d, path, cli_source_line(path, d->line, src, sizeof(src)) == 0 ? src : NULL, buf, len);
}

/* The column (characters) of word in src at or after character col, as a whole word; col if absent. */
static uint32_t word_col(const char *src, uint32_t col, const char *word)
{
	size_t wl = strlen(word);
	uint32_t c = 1;

	for (const char *p = src; *p; p++) {
		if ((*p & 0xc0) == 0x80)
			continue;
		if (c >= col && strncasecmp(p, word, wl) == 0 && (p == src || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[wl]) && p[wl] != '_')
			return c;
		c++;
	}
	return col;
}

void cli_disagree_diag(const char *path, uint32_t line, uint32_t col, const char *msg, const char *word,
		       struct scn_diag *d)
{
	char src[SCN_LINE_MAX + 1];

	memset(d, 0, sizeof(*d));
	d->line = line;
	d->col = col;
	if (word && cli_source_line(path, line, src, sizeof(src)) == 0)
		d->col = word_col(src, col, word);
	snprintf(d->msg, sizeof(d->msg), "%.399s", msg);
}

/*
 * Diagnostics text (lines "FILE:LINE:COL: MESSAGE", then its source line,
 * caret, hints, further diagnostics) into r: the first line the reason,
 * every further line the detail, indented, before what the detail held
 * (keep) or in its place. 0 or -ENOMEM (r as it was, but for the reason).
 */
static int diag_result(struct result *r, const char *text, int keep)
{
	const char *nl = strchr(text, '\n');
	struct text t = { 0 };

	snprintf(r->reason, sizeof(r->reason), "%.*s", nl ? (int)(nl - text) : (int)strlen(text), text);
	for (const char *p = nl ? nl + 1 : ""; *p;) { /* every further line, indented */
		const char *e = strchr(p, '\n');
		int l = e ? (int)(e - p) : (int)strlen(p);

		text_addf(&t, "  %.*s\n", l, p);
		p += l + (e ? 1 : 0);
	}
	if (keep && r->detail)
		text_addf(&t, "%s", r->detail);
	return result_take_detail(r, &t);
}

int cli_disagree_result(struct result *r, const char *path, const struct scn_diag *d)
{
	char buf[SCN_LINE_MAX * 3 + 1024];

	diag_format(path, d, buf, sizeof(buf));
	r->line = d->line;
	return diag_result(r, buf, 1);
}

void cli_first_disagree(void *ctx, const struct scn_file *f, size_t step, uint32_t line, uint32_t col,
			const char *msg, const char *word)
{
	struct cli_first_disagree *fd = ctx;

	(void)f;
	(void)step;
	if (!fd->said++)
		cli_disagree_diag(fd->path, line, col, msg, word, &fd->d);
}

int cli_first_disagree_result(const struct cli_first_disagree *fd, struct result *r)
{
	if (!fd->said || r->v != V_FAIL || r->line != fd->d.line)
		return 0;
	return cli_disagree_result(r, fd->path, &fd->d);
}

void cli_diag_print(FILE *out, const char *path, const struct scn_diag *d)
{
	char buf[SCN_LINE_MAX * 3 + 1024];

	diag_format(path, d, buf, sizeof(buf));
	fputs(buf, out);
}

/* The diagnostics of path as text, each with its source line and a caret (malloc'd, NULL on no memory). */
static char *diags_text(const char *path, const struct scn_diags *d)
{
	struct text t = { 0 };

	for (size_t k = 0; k < d->n; k++) {
		char buf[SCN_LINE_MAX * 3 + 1024];

		diag_format(path, &d->d[k], buf, sizeof(buf));
		text_addf(&t, "%s", buf);
	}
	if (d->dropped)
		text_addf(&t, "%s: %zu more errors not shown\n", path, d->dropped);
	if (t.oom) {
		text_free(&t);
		return NULL;
	}
	return t.s ? text_take(&t) : strdup("");
}

/* The diagnostic of a path the walk could not read: "PATH: WHY (scenarios there are not run)\n" (malloc'd). */
static char *unread_diag(const struct files_unread *u)
{
	struct text t = { 0 };

	text_addf(&t, "%s: %s (%s)\n", u->path, u->why, CLI_UNREAD_NOTE);
	if (t.oom) {
		text_free(&t);
		return NULL;
	}
	return text_take(&t);
}

int cli_load_each(int npaths, char **paths, struct filelist *fl, struct scn_file ***files, char ***diags)
{
	char err[512];
	size_t nread;

	memset(fl, 0, sizeof(*fl));
	*files = NULL;
	*diags = NULL;
	if (npaths == 0) {
		fprintf(stderr, "rdmacheck: no scenario given\n");
		return EXIT_USAGE;
	}
	for (int i = 0; i < npaths; i++)
		if (files_add(fl, paths[i], err, sizeof(err))) {
			fprintf(stderr, "rdmacheck: %s\n", err);
			files_free(fl);
			return EXIT_USAGE;
		}
	for (size_t i = 0; i < fl->nnotes; i++)
		fprintf(stderr, "rdmacheck: %s\n", fl->notes[i]);
	nread = fl->n;
	for (size_t i = 0; i < fl->nunread; i++) /* each an entry of its own, its error its diagnostic */
		if (files_push(fl, fl->unread[i].path))
			goto oom;
	*files = calloc(fl->n ? fl->n : 1, sizeof(**files));
	*diags = calloc(fl->n ? fl->n : 1, sizeof(**diags));
	if (!*files || !*diags)
		goto oom;
	for (size_t i = nread; i < fl->n; i++)
		if (((*diags)[i] = unread_diag(&fl->unread[i - nread])) == NULL)
			goto oom;
	for (size_t i = 0; i < nread; i++) {
		struct scn_diags d;

		if (scn_parse_file(fl->v[i], &(*files)[i], &d) == 0)
			continue;
		(*files)[i] = NULL;
		if (((*diags)[i] = diags_text(fl->v[i], &d)) == NULL)
			goto oom;
	}
	return 0;
oom:
	cli_unload_diags(fl->n, *diags);
	cli_unload(fl, *files);
	*files = NULL;
	*diags = NULL;
	return EXIT_INFRA;
}

int cli_load(int npaths, char **paths, struct filelist *fl, struct scn_file ***files)
{
	char **diags;
	int rc = cli_load_each(npaths, paths, fl, files, &diags), bad = 0;

	if (rc)
		return rc;
	for (size_t i = 0; i < fl->n; i++)
		if (diags[i]) {
			fputs(diags[i], stderr);
			bad = 1;
		}
	cli_unload_diags(fl->n, diags);
	if (bad) {
		cli_unload(fl, *files);
		*files = NULL;
		return EXIT_USAGE;
	}
	return 0;
}

int cli_parse_error(struct result *r, const char *diags)
{
	int rc = diag_result(r, diags, 0);

	r->v = V_ERROR;
	r->line = 0;
	snprintf(r->title, sizeof(r->title), "%s", strstr(r->reason, CLI_UNREAD_NOTE) ? "(not read)" : "(does not parse)");
	if (strncmp(r->reason, r->file, strlen(r->file)) == 0) /* "FILE:LINE:COL: ...": the line */
		sscanf(r->reason + strlen(r->file), ":%u:", &r->line);
	return rc;
}

int cli_profile(const char *arg, struct m_profile *out)
{
	char name[64];
	unsigned maj = 0, min = 0;
	const char *colon = strchr(arg, ':');

	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - arg) : (int)strlen(arg), arg);
	if (colon && sscanf(colon + 1, "%u.%u", &maj, &min) != 2) {
		fprintf(stderr, "rdmacheck: --profile=%s: the kernel is MAJOR.MINOR (rxe:6.1)\n", arg);
		return -EINVAL;
	}
	if (m_profile_get(name, colon ? KVER(maj, min) : 0, out)) {
		fprintf(stderr, "rdmacheck: unknown profile '%s' (known:", name);
		for (size_t i = 0; i < m_profile_count(); i++)
			fprintf(stderr, " %s", m_profile_name(i));
		fprintf(stderr, ")\n");
		return -EINVAL;
	}
	return 0;
}

uint32_t cli_all_caps(void)
{
	struct m_profile g;

	m_profile_get("generic", 0, &g);
	return g.caps;
}


enum verdict cli_walk(const struct scn_file *f, const struct m_profile *prof,
		      void (*on_step)(void *, const struct scn_file *, size_t, const struct m_pred *,
				      const struct m_pred *, int),
		      void (*on_disagree)(void *, const struct scn_file *, size_t, uint32_t, uint32_t, const char *,
					  const char *),
		      void *ctx, struct result *r)
{
	return run_walk(f, prof, cli_all_caps(), on_step, on_disagree, ctx, r);
}

int cli_rule(const char *what, const char *id, enum m_rule *out)
{
	const char *names[M_RULE_COUNT_], *near;
	char up[64];
	size_t i;

	for (i = 0; id[i] && i + 1 < sizeof(up); i++)
		up[i] = (char)toupper((unsigned char)id[i]);
	up[i] = '\0';
	if (m_rule_find(up, out) == 0)
		return 0;
	for (i = 0; i < M_RULE_COUNT_; i++)
		names[i] = m_rule_info((enum m_rule)i)->id;
	near = cli_closest(up, names, M_RULE_COUNT_);
	fprintf(stderr, "%s: unknown rule '%s'%s%s%s (docs/rules.md lists them)\n", what, id,
		near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	return -ENOENT;
}
