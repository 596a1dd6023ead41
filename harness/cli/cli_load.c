/*
 * cli_load.c — what every rdmacheck subcommand shares (cli.h): loading and
 * parsing the scenario files, looking up --profile, the model's capabilities.
 */
#include "harness/run/be_model.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"

#include <ctype.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_unload(struct filelist *fl, struct scn_file **files)
{
	for (size_t i = 0; files && i < fl->n; i++)
		scn_free(files[i]);
	free(files);
	files_free(fl);
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

void cli_diag_print(FILE *out, const char *path, const struct scn_diag *d)
{
	char src[SCN_LINE_MAX + 1], buf[SCN_LINE_MAX * 3 + 1024];

	scn_diag_format_src(d, path, cli_source_line(path, d->line, src, sizeof(src)) == 0 ? src : NULL, buf, sizeof(buf));
	fputs(buf, out);
}

int cli_load(int npaths, char **paths, struct filelist *fl, struct scn_file ***files)
{
	char err[512];
	int bad = 0;

	memset(fl, 0, sizeof(*fl));
	*files = NULL;
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
	*files = calloc(fl->n, sizeof(**files));
	if (!*files) {
		files_free(fl);
		return EXIT_INFRA;
	}
	for (size_t i = 0; i < fl->n; i++) {
		struct scn_diags d;

		if (scn_parse_file(fl->v[i], &(*files)[i], &d) == 0)
			continue;
		bad = 1;
		for (size_t k = 0; k < d.n; k++)
			cli_diag_print(stderr, fl->v[i], &d.d[k]);
		if (d.dropped)
			fprintf(stderr, "%s: %zu more errors not shown\n", fl->v[i], d.dropped);
	}
	if (bad) {
		cli_unload(fl, *files);
		*files = NULL;
		return EXIT_USAGE;
	}
	return 0;
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
	struct m_profile gen;
	struct be_model eng;
	struct run_opts o = { .mode = RUN_LINT, .prof = *prof, .engine_caps = cli_all_caps(),
			      .on_step = on_step, .on_disagree = on_disagree, .ctx = ctx };

	m_profile_get("generic", 0, &gen);
	if (bm_init(&eng, f, &gen) || run_scenario(f, &be_model_ops, &eng, &o, r)) {
		snprintf(r->reason, sizeof(r->reason), "out of memory");
		r->v = V_ERROR;
	}
	bm_free(&eng);
	return r->v;
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
