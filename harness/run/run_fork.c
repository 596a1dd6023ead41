/*
 * run_fork.c — a run held between steps, copied to go on over a file grown
 * from its own (runner.h: run_fork), and released without its end.
 */
#include "harness/run/runner_int.h"

#include <errno.h>
#include <string.h>

size_t run_size(void)
{
	return sizeof(struct run);
}

int run_fork(struct run *dst, const struct run *src, const struct scn_file *f, void *be,
	     const struct run_opts *o, struct result *r)
{
	int rc;

	memcpy(dst, src, offsetof(struct run, bm));
	dst->f = f;
	dst->be = be;
	dst->o = o;
	dst->r = r;
	*r = *src->r; /* its detail is the run's text until run_end */
	r->steps = (unsigned)f->nsteps;
	dst->detail = (struct text){ 0 };
	if (src->detail.s)
		text_addf(&dst->detail, "%s", src->detail.s);
	dst->detail.oom |= src->detail.oom;
	rc = run_seen_copy(dst, src);
	if (rc == 0)
		rc = bm_clone(&dst->bm, &src->bm, f);
	if (rc == 0 && !dst->detail.oom)
		return 0;
	if (rc == 0)
		bm_free(&dst->bm);
	run_seen_free(dst);
	text_free(&dst->detail);
	return -ENOMEM;
}

void run_drop(struct run *x)
{
	run_seen_free(x);
	bm_free(&x->bm);
	text_free(&x->detail);
}
