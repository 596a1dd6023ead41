/* campaign.c — the kept corpus of a campaign and its figures over time (campaign.h). */
#define _GNU_SOURCE /* scandir's alphasort */
#include "harness/explore/campaign.h"
#include "harness/corpus/load.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---------------------------------------------------- alternatives -- */

/* FNV-1a over an alternative's outcome and deciding rules. */
static uint32_t alt_hash(const struct m_alt *a)
{
	uint32_t h = 2166136261u;
	uint32_t w[2 + M_RULES_MAX];
	size_t n = 0;

	w[n++] = (uint32_t)a->out.kind;
	w[n++] = (uint32_t)a->out.code;
	for (unsigned i = 0; i < a->nrules && i < M_RULES_MAX; i++)
		w[n++] = a->rules[i];
	for (size_t i = 0; i < n * sizeof(w[0]); i++) {
		h ^= ((const uint8_t *)w)[i];
		h *= 16777619u;
	}
	return h;
}

struct walk_ctx {
	struct ex_campaign *cp;
	unsigned novel;
};

/* run_opts.on_step: a step with more than one allowed outcome marks each alternative seen. */
static void walk_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		      const struct m_pred *prof, int crash)
{
	struct walk_ctx *w = ctx;

	(void)f, (void)si, (void)prof, (void)crash;
	if (!gen || gen->n < 2)
		return;
	for (size_t i = 0; i < gen->n; i++) {
		uint32_t b = alt_hash(&gen->alt[i]) % EX_CAMP_ALT_BITS;

		if (!(w->cp->alts[b / 8] >> (b % 8) & 1)) {
			w->cp->alts[b / 8] |= (uint8_t)(1u << (b % 8));
			w->novel++;
		}
	}
}

/* Walk f on the model: its alternatives into cp (*novel: how many were new), its rules into cov. */
static void walk(struct ex_campaign *cp, const struct scn_file *f, struct ex_cov *cov, unsigned *novel)
{
	struct walk_ctx w = { cp, 0 };
	struct m_profile gen;
	struct result r;

	m_profile_get("generic", 0, &gen);
	cli_walk(f, &gen, walk_step, NULL, &w, &r);
	ex_cov_add(cov, &r);
	result_clear(&r);
	*novel = w.novel;
}

/* ---------------------------------------------------------- resume -- */

static int is_scn(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 4 && strcmp(d->d_name + n - 4, ".scn") == 0;
}

/* The number in a kept file's name cNNNNNN.scn (0: another name). */
static unsigned long kept_no(const char *name)
{
	char *end;
	unsigned long n;

	if (name[0] != 'c')
		return 0;
	n = strtoul(name + 1, &end, 10);
	return strcmp(end, ".scn") == 0 ? n : 0;
}

int ex_mkdirs(const char *dir)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0755) && errno != EEXIST)
				return -errno;
			*s = '/';
		}
	return mkdir(p, 0755) && errno != EEXIST ? -errno : 0;
}

int ex_campaign_start(struct ex_campaign *cp, const char *dir, unsigned corpus_rules, struct ex_cov *cov)
{
	struct dirent **ents = NULL;
	int n, rc = 0;

	memset(cp, 0, sizeof(*cp));
	cp->dir = dir;
	cp->corpus_rules = cp->resumed_rules = corpus_rules;
	cp->every = 1;
	cp->next = 1;
	cp->cov = cov;
	cp->base = *cov;
	if (!dir)
		return 0;
	rc = ex_mkdirs(dir);
	if (rc)
		return rc;
	n = scandir(dir, &ents, is_scn, alphasort);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		char path[4200];
		struct scn_file *f = NULL;
		struct scn_diags d;
		unsigned novel;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (!rc) {
			int prc = scn_parse_file(path, &f, &d);

			if (prc == -ENOMEM) {
				rc = prc;
			} else if (prc || !f) {
				if (d.n)
					fprintf(stderr, "rdmacheck explore: --resume: %s:%u:%u: %s\n", path,
						(unsigned)d.d[0].line, (unsigned)d.d[0].col, d.d[0].msg);
				else
					fprintf(stderr, "rdmacheck explore: --resume: %s: cannot be read\n", path);
				rc = -EINVAL;
			} else {
				walk(cp, f, cov, &novel);
				cp->resumed++;
				if (kept_no(ents[i]->d_name) >= cp->next)
					cp->next = kept_no(ents[i]->d_name) + 1;
			}
			scn_free(f);
		}
		free(ents[i]);
	}
	free(ents);
	cp->resumed_rules = ex_cov_reached(cov);
	cp->base = *cov;
	return rc;
}

unsigned ex_campaign_unreached(const struct ex_campaign *cp, char *buf, size_t len)
{
	unsigned n = 0;
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; cp->cov && i < M_RULE_COUNT_; i++) {
		if (!cp->base.hits[i] || cp->cov->hits[i] > cp->base.hits[i])
			continue;
		n++;
		if (off < len) {
			int w = snprintf(buf + off, len - off, "%s%s", off ? " " : "", m_rule_info((enum m_rule)i)->id);

			off = w > 0 && (size_t)w < len - off ? off + (size_t)w : len;
		}
	}
	return n;
}

/* ------------------------------------------------------------ keep -- */

/* The rules after has and before has not, as "ID ID…" into buf. */
static unsigned new_rules(const struct ex_cov *before, const struct ex_cov *after, char *buf, size_t len)
{
	size_t off = 0;
	unsigned n = 0;

	buf[0] = '\0';
	for (unsigned r = 0; r < M_RULE_COUNT_; r++)
		if (after->hits[r] && !before->hits[r]) {
			if (off < len)
				off += (size_t)snprintf(buf + off, len - off, "%s%s", n ? " " : "",
							m_rule_info((enum m_rule)r)->id);
			n++;
		}
	return n;
}

int ex_write_atomic(const char *path, const char *text)
{
	char tmp[4300];
	FILE *fp;
	int rc = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fp = fopen(tmp, "w");
	if (!fp)
		return -errno;
	if (fputs(text, fp) < 0)
		rc = -errno;
	if (fclose(fp) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		remove(tmp);
	return rc ? rc : 0;
}

int ex_campaign_case(struct ex_campaign *cp, const struct ex_case *c, const struct ex_cov *before,
		     const struct ex_cov *after, uint64_t seed)
{
	struct ex_cov scratch = { 0 };
	struct scn_file *f = NULL;
	char rules[512], hdr[8192], path[4200], *text;
	unsigned nrules, novel = 0, ncites = 0;
	size_t off;
	int rc;

	if (!cp->dir)
		return 0;
	nrules = new_rules(before, after, rules, sizeof(rules));
	rc = ex_case_parse(c, &f);
	if (rc || !f)
		return rc; /* a case that does not parse reaches nothing */
	walk(cp, f, &scratch, &novel); /* the alternatives and its rules: the generator keeps its own coverage */
	scn_free(f);
	if (!nrules && !novel)
		return 0;
	off = (size_t)snprintf(hdr, sizeof(hdr),
			       "# Kept by `rdmacheck explore --seed=%llu --resume=DIR`: it reached new rules (%s) and %u new\n"
			       "# allowed-set alternatives. A campaign resumed from this directory starts from what its\n"
			       "# files reach.\ntitle explore corpus: case %lu of seed %llu\n",
			       (unsigned long long)seed, nrules ? rules : "none", novel, cp->next, (unsigned long long)seed);
	/* the rules it reached, the new ones first, as many as a file may cite (SCN_CITES_MAX, one left for
	 * the seed's line): a case of more rules than that must still be a file the parser takes */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned r = 0; r < M_RULE_COUNT_ && off < sizeof(hdr) && ncites + 1 < SCN_CITES_MAX; r++)
			if (scratch.hits[r] && (pass == 0) == (after->hits[r] && !before->hits[r])) {
				off += (size_t)snprintf(hdr + off, sizeof(hdr) - off, "cite rule %s\n",
							m_rule_info((enum m_rule)r)->id);
				ncites++;
			}
	if (off < sizeof(hdr))
		snprintf(hdr + off, sizeof(hdr) - off, "cite rdmacheck explore --seed=%llu\n", (unsigned long long)seed);
	rc = ex_case_text(c, hdr, &text);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/c%06lu.scn", cp->dir, cp->next);
	rc = ex_write_atomic(path, text);
	free(text);
	if (!rc) {
		cp->next++;
		cp->kept++;
	}
	return rc;
}

/* ----------------------------------------------------------- points -- */

void ex_campaign_point(struct ex_campaign *cp, double t, unsigned long steps, unsigned rules)
{
	if (cp->batches++ % cp->every)
		return;
	if (cp->npoints == EX_CAMP_POINTS) { /* full: keep every other sample, sample half as often */
		for (size_t i = 0; i < EX_CAMP_POINTS / 2; i++)
			cp->pts[i] = cp->pts[2 * i];
		cp->npoints = EX_CAMP_POINTS / 2;
		cp->every *= 2;
	}
	cp->pts[cp->npoints++] = (struct ex_camp_point){ t, steps, rules };
}
