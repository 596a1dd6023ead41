/* explore.c — the exploration loop and the shrunk files (explore.h). */
#include "harness/explore/explore.h"
#include "harness/explore/summary.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------ files -- */

/* A word safe in a file name: [A-Za-z0-9_-], the rest '_'. */
static void file_word(const char *in, char *out, size_t len)
{
	size_t i = 0;

	for (; in[i] && in[i] != ' ' && i + 1 < len; i++)
		out[i] = (in[i] >= 'a' && in[i] <= 'z') || (in[i] >= 'A' && in[i] <= 'Z') ||
				 (in[i] >= '0' && in[i] <= '9') || in[i] == '-' ? in[i] : '_';
	out[i] = '\0';
	if (!i)
		snprintf(out, len, "none");
}

int ex_write_case(const char *path, const struct ex_case *c, const struct ex_sig *sig, const struct ex_opts *o,
		  const struct ex_found *f)
{
	char hdr[4096], rules[sizeof(sig->rules)], *save = NULL, *text;
	size_t off;
	FILE *fp;
	int rc;

	off = (size_t)snprintf(hdr, sizeof(hdr),
			       "# Found by `rdmacheck explore --seed=%llu` on the %s stack, judged against profile %s;\n"
			       "# shrunk from %zu to %zu steps. `rdmacheck run` on this file reproduces it.\n"
			       "# The model allows: %s\n# Reality did:      %s (%s)\n"
			       "title explore: %s gave %s where the model allows %s\n",
			       (unsigned long long)o->seed, o->stack_name ? o->stack_name : "?", o->gen.judge.name,
			       f->from, f->to, sig->allowed[0] ? sig->allowed : sig->rules, sig->real,
			       ex_class_str(sig->cls), sig->call, sig->real, sig->allowed[0] ? sig->allowed : "otherwise");
	snprintf(rules, sizeof(rules), "%s", sig->rules);
	for (char *r = strtok_r(rules, " ", &save); r && off < sizeof(hdr); r = strtok_r(NULL, " ", &save))
		off += (size_t)snprintf(hdr + off, sizeof(hdr) - off, "cite rule %s\n", r);
	if (off < sizeof(hdr))
		snprintf(hdr + off, sizeof(hdr) - off, "cite rdmacheck explore --seed=%llu\n", (unsigned long long)o->seed);
	rc = ex_case_text(c, hdr, &text);
	if (rc)
		return rc;
	fp = fopen(path, "w");
	if (!fp || fputs(text, fp) < 0) {
		rc = -errno;
		if (fp)
			fclose(fp);
		free(text);
		return rc ? rc : -EIO;
	}
	free(text);
	return fclose(fp) ? -errno : 0;
}

/* ------------------------------------------------------- divergences -- */

/* The found divergence of signature sig (one cause, reported once), or NULL. */
static struct ex_found *known(struct ex_summary *sum, const struct ex_sig *sig)
{
	for (size_t i = 0; i < sum->nfound; i++)
		if (ex_sig_same(&sum->found[i].sig, sig))
			return &sum->found[i];
	return NULL;
}

/* The rule of ids (blank-separated) the coverage saw least: the most specific one, for the file name. */
static void rarest_rule(const char *ids, const struct ex_cov *cov, char *buf, size_t len)
{
	char tmp[sizeof(((struct ex_sig *)0)->rules)], *save = NULL;
	uint32_t best = UINT32_MAX;

	snprintf(tmp, sizeof(tmp), "%s", ids);
	file_word("", buf, len);
	for (char *w = strtok_r(tmp, " ", &save); w; w = strtok_r(NULL, " ", &save))
		for (unsigned r = 0; r < M_RULE_COUNT_; r++)
			if (strcmp(m_rule_info((enum m_rule)r)->id, w) == 0 && cov->hits[r] < best) {
				best = cov->hits[r];
				file_word(w, buf, len);
			}
}

/* FNV-1a over what makes two signatures the same (ex_sig_same). */
static uint32_t sig_hash(const struct ex_sig *sig)
{
	const char *parts[] = { sig->call, sig->real, sig->rules };
	uint32_t h = 2166136261u ^ (uint32_t)sig->cls;

	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++)
		for (const char *p = parts[k];; p++) {
			h = (h ^ (uint8_t)*p) * 16777619u;
			if (!*p)
				break;
		}
	return h;
}

/* A divergence of signature sig that found[] has no room for: counted, its signature told apart. */
static void count_over(struct ex_summary *sum, const struct ex_sig *sig)
{
	uint32_t h = sig_hash(sig);

	sum->over++;
	for (size_t i = 0; i < sum->nover; i++)
		if (sum->over_sig[i] == h)
			return;
	if (sum->nover < EX_OVER_MAX)
		sum->over_sig[sum->nover++] = h;
	else
		sum->over_lost++;
}

/* Write the shrunk case of a divergence out and add it to sum. */
static int record(const struct ex_opts *o, const struct ex_stack *s, const struct ex_cov *cov,
		  const struct ex_case *small, const struct ex_sig *sig, const struct ex_shrink_stats *st,
		  unsigned long count, struct ex_summary *sum)
{
	struct ex_found *f = &sum->found[sum->nfound];
	char rule[40], real[48];
	int rc;

	memset(f, 0, sizeof(*f));
	f->sig = *sig;
	f->count = count;
	f->from = st->from;
	f->to = st->to;
	rc = ex_stack_deviation(s, small, f->deviation, sizeof(f->deviation));
	if (rc)
		return rc;
	rarest_rule(sig->rules, cov, rule, sizeof(rule));
	file_word(sig->real, real, sizeof(real));
	if (o->out) {
		if (mkdir(o->out, 0755) && errno != EEXIST)
			return -errno;
		snprintf(f->path, sizeof(f->path), "%s/%03zu-%s-%s.scn", o->out, sum->nfound + 1, rule, real);
		rc = ex_write_case(f->path, small, sig, o, f);
	}
	if (!rc)
		sum->nfound++;
	return rc;
}

/*
 * Shrink the n divergences of sh side by side: each round, the candidates
 * of all of them go to the stack in one batch (one guest boot).
 */
static int shrink_all(struct ex_stack *s, struct ex_shrinker *sh, size_t n)
{
	for (;;) {
		size_t total = 0, at = 0;
		struct ex_case *all;
		struct result *rs;
		int rc = 0;

		for (size_t i = 0; i < n && !rc; i++)
			rc = ex_shrinker_next(s, &sh[i]);
		for (size_t i = 0; i < n; i++)
			total += sh[i].done ? 0 : sh[i].n;
		if (rc || !total)
			return rc;
		all = malloc(total * sizeof(*all)); /* shallow copies: the shrinkers own the lines */
		rs = calloc(total, sizeof(*rs));
		if (!all || !rs) {
			free(all);
			free(rs);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; !sh[i].done && k < sh[i].n; k++)
				all[at++] = sh[i].cands[k];
		rc = ex_stack_run(s, all, total, rs);
		for (size_t i = 0, off = 0; i < n && !rc; i++) {
			size_t k = sh[i].done ? 0 : sh[i].n;

			if (k)
				rc = ex_shrinker_feed(s, &sh[i], rs + off);
			off += k;
		}
		for (size_t i = 0; i < total; i++)
			result_clear(&rs[i]);
		free(all);
		free(rs);
		if (rc)
			return rc;
	}
}

/* ------------------------------------------------------------- loop -- */

static void progress(const struct ex_opts *o, const struct ex_summary *sum, double t0, int final)
{
	double dt = now_s() - t0;

	if (!o->progress)
		return;
	fprintf(stderr, "%sexplore: %lu steps, %.0f steps/s, %u divergences (%zu distinct), %u rules reached%s",
		o->progress > 1 ? "" : "\r", sum->steps, dt > 0 ? (double)sum->real_steps / dt : 0.0, sum->divergences,
		sum->nfound, sum->rules, final || o->progress > 1 ? "\n" : "   ");
	fflush(stderr);
}

static unsigned reached(const struct ex_cov *now, const struct ex_cov *before)
{
	unsigned n = 0;

	for (unsigned i = 0; i < M_RULE_COUNT_; i++)
		n += now->hits[i] > before->hits[i];
	return n;
}

/* Generate one batch of cases into cs (n of them); those that reached something new are kept in cp. */
static int gen_batch(const struct ex_opts *o, struct model_gen *g, struct ex_cov *cov, struct ex_case *cs, size_t n,
		     struct ex_campaign *cp, struct ex_summary *sum)
{
	for (size_t i = 0; i < n; i++) {
		struct ex_cov before = *cov;
		int rc = ex_gen_case(g, &o->gen, cov, &cs[i]);

		if (!rc) {
			rc = ex_campaign_case(cp, &cs[i], &before, cov, o->seed);
			if (rc)
				ex_case_free(&cs[i]);
		}
		if (rc) {
			while (i--)
				ex_case_free(&cs[i]);
			return rc;
		}
		sum->steps += cs[i].n;
		sum->cases++;
		if (o->print) {
			char *text;

			if (ex_case_text(&cs[i], NULL, &text) == 0)
				fprintf(o->print, "# case %lu\n%s\n", sum->cases, text);
			free(text);
		}
	}
	return 0;
}

/*
 * On a costly stack (a guest boot per run), shrink each new divergence of
 * sh[0..n) first in process, on the model simulating the stack's profile
 * (s->sim; as the engine simulates it, else with its deviations first), when
 * that model shows the same signature (a declared deviation does): milliseconds instead of a boot per round. The shrunk cases go to the
 * stack in one batch; those that still diverge the same way are adopted, the
 * others are left to the shrinker on the stack.
 */
static int preshrink(struct ex_stack *s, struct ex_shrinker *sh, size_t n)
{
	struct ex_stack ms = { .kind = EX_STACK_MODEL, .judge = s->judge, .sim = s->sim, .ev = s->ev };
	struct ex_case *small = calloc(n, sizeof(*small));
	struct result *rs = calloc(n, sizeof(*rs));
	size_t *which = calloc(n, sizeof(*which)), k = 0;
	int rc = small && rs && which ? 0 : -ENOMEM;

	for (size_t i = 0; i < n && !rc; i++) {
		/* The engine as it is (first allowed outcome), then with the deviations first. */
		for (int d = 0; d < 2 && !rc; d++) {
			struct ex_shrink_stats st;
			struct ex_sig sig;
			struct result r;

			ms.ops = d ? ex_deviating_ops() : NULL;
			rc = ex_stack_run(&ms, &sh[i].cur, 1, &r);
			if (rc)
				break;
			rc = ex_stack_sig(&ms, &sh[i].cur, &r, &sig);
			result_clear(&r);
			if (rc || !ex_sig_same(&sig, &sh[i].sig))
				continue;
			rc = ex_shrink(&ms, &sh[i].cur, &sig, 0, &small[k], &st);
			if (!rc)
				which[k++] = i;
			break;
		}
	}
	if (!rc && k)
		rc = ex_stack_run(s, small, k, rs);
	for (size_t j = 0; j < k; j++) {
		struct ex_sig sig;

		if (!rc && ex_stack_sig(s, &small[j], &rs[j], &sig) == 0 && ex_sig_same(&sig, &sh[which[j]].sig))
			rc = ex_shrinker_adopt(&sh[which[j]], &small[j]);
		result_clear(&rs[j]);
		ex_case_free(&small[j]);
	}
	free(small);
	free(rs);
	free(which);
	return rc;
}

/* Judge a batch's results: its new divergences are shrunk together and written out. */
static int judge_batch(const struct ex_opts *o, struct ex_stack *s, const struct ex_cov *cov, const struct ex_case *cs,
		       struct result *rs, size_t n, struct ex_summary *sum)
{
	struct ex_shrinker *sh = calloc(n, sizeof(*sh));
	unsigned long *count = calloc(n, sizeof(*count)); /* how often each one being shrunk came */
	size_t nsh = 0, room = o->found_max && o->found_max < EX_FOUND_MAX ? o->found_max : EX_FOUND_MAX;
	int rc = sh && count ? 0 : -ENOMEM;

	for (size_t i = 0; i < n && !rc; i++) {
		struct ex_found *seen;
		struct ex_sig sig;
		int dup = 0;

		rc = ex_stack_sig(s, &cs[i], &rs[i], &sig);
		if (rc || sig.cls == EX_NONE)
			continue;
		if (sig.cls == EX_ERROR) {
			fprintf(stderr, "rdmacheck explore: a case could not be judged: %s\n", rs[i].reason);
			continue;
		}
		sum->divergences++;
		for (size_t k = 0; k < nsh && !dup; k++)
			if (ex_sig_same(&sh[k].sig, &sig)) {
				count[k]++;
				dup = 1;
			}
		if (!dup && (seen = known(sum, &sig)) != NULL)
			seen->count++;
		else if (!dup && sum->nfound + nsh < room) {
			count[nsh] = 1;
			rc = ex_shrinker_init(s, &sh[nsh++], &cs[i], &sig, o->shrink_rounds);
		} else if (!dup) {
			count_over(sum, &sig);
		}
	}
	if (!rc && s->costly && nsh)
		rc = preshrink(s, sh, nsh);
	if (!rc)
		rc = shrink_all(s, sh, nsh);
	for (size_t k = 0; k < nsh; k++) {
		struct ex_case small;
		struct ex_shrink_stats st;
		struct ex_sig sig = sh[k].sig;

		ex_shrinker_take(&sh[k], &small, &st);
		if (!rc)
			rc = record(o, s, cov, &small, &sig, &st, count[k], sum);
		ex_case_free(&small);
	}
	free(sh);
	free(count);
	return rc;
}

int ex_explore(const struct ex_opts *o, struct ex_stack *s, struct ex_cov *cov, struct ex_summary *sum)
{
	struct ex_cov corpus;
	struct model_gen g;
	double t0 = now_s(), written = t0;
	size_t batch = o->batch ? o->batch : 1;
	struct ex_case *cs = calloc(batch, sizeof(*cs));
	struct result *rs = calloc(batch, sizeof(*rs));
	struct ex_campaign *cp = calloc(1, sizeof(*cp));
	struct ex_eval *own = NULL;
	int rc = 0;

	memset(sum, 0, sizeof(*sum));
	if (!cs || !rs || !cp) {
		rc = -ENOMEM;
		goto out;
	}
	rc = ex_campaign_start(cp, o->resume, ex_cov_reached(cov), cov); /* the resumed files' coverage first */
	corpus = *cov;
	if (rc)
		goto out;
	rc = ex_stack_hold_eval(s, &own); /* one buffer for every case run, judged and shrunk here */
	if (rc)
		goto out;
	model_gen_seed(&g, o->seed);
	int stopped = 0;

	while (!rc) {
		if (o->steps && sum->steps >= o->steps)
			break;
		if (o->time_s > 0 && now_s() - t0 >= o->time_s)
			break;
		if (ex_goal_met(o, sum))
			break;
		if (o->stop && o->stop()) {
			stopped = 1;
			break;
		}
		rc = gen_batch(o, &g, cov, cs, batch, cp, sum);
		if (rc)
			break;
		rc = ex_stack_run(s, cs, batch, rs);
		if (!rc)
			rc = judge_batch(o, s, cov, cs, rs, batch, sum);
		for (size_t i = 0; i < batch; i++) {
			result_clear(&rs[i]);
			ex_case_free(&cs[i]);
		}
		sum->rules = reached(cov, &corpus);
		sum->real_steps = s->steps;
		sum->secs = now_s() - t0;
		sum->stack_secs = s->secs;
		ex_campaign_point(cp, sum->secs, sum->steps, sum->rules);
		if (!rc && now_s() - written >= 1.0) { /* the summary as it stands, at most once a second */
			rc = ex_summary_write(o, sum, cp, 0);
			written = now_s();
		}
		progress(o, sum, t0, 0);
	}
	sum->real_steps = s->steps;
	sum->secs = now_s() - t0;
	sum->stack_secs = s->secs;
	ex_campaign_point(cp, sum->secs, sum->steps, sum->rules);
	if (!rc)
		rc = ex_summary_write(o, sum, cp, stopped ? 2 : 1);
	progress(o, sum, t0, 1);
out:
	ex_stack_drop_eval(s, own);
	free(cs);
	free(rs);
	free(cp);
	return rc;
}
