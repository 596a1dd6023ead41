/*
 * run_query.c — a query step judged (runner_int.h: run_judge_query): every
 * result reality reports against what the model knows of it, and the
 * step's KEY=VALUE expectations; results named in the scenario's words.
 */
#include "harness/run/runner_int.h"
#include "harness/run/be_model.h"
#include "harness/base/text.h"

#include <stdio.h>
#include <string.h>

/* Value v of query result spec sp as scenario text ("RTS", "LOCAL_WRITE|REMOTE_READ", "4096"). */
static const char *qval(const struct run *x, const struct scn_arg_spec *sp, uint64_t v, char *buf, size_t len)
{
	struct scn_arg a = { .spec = sp };

	if ((sp->kinds & SCN_V_OBJ) && v < x->f->nobjs) /* an object (fields pd=): its name */
		return run_obj_name(x->f, (int32_t)v, buf, len);
	a.v.kind = (sp->kinds & SCN_V_WORD) ? SCN_V_WORD : (sp->kinds & SCN_V_FLAGS) ? SCN_V_FLAGS : SCN_V_INT;
	a.v.num = v;
	scn_value_format(x->f, &a, 0, buf, len);
	return buf;
}

/* What the model says of result key: "=4096", "nonzero", … into buf. */
static const char *qmodel(const struct run *x, const struct scn_arg_spec *sp, const struct m_qres *q, int j,
			  char *buf, size_t len)
{
	char v[128];

	if (q->r[j].mode == M_Q_EXACT)
		snprintf(buf, len, "%s=%s", sp->key, qval(x, sp, q->r[j].value, v, sizeof(v)));
	else if (q->r[j].mode == M_Q_ATLEAST)
		snprintf(buf, len, "%s>=%s", sp->key, qval(x, sp, q->r[j].value, v, sizeof(v)));
	else if (q->r[j].mode == M_Q_RANGE)
		snprintf(buf, len, "%s in %llu..%llu", sp->key, (unsigned long long)q->r[j].value,
			 (unsigned long long)q->r[j].hi);
	else if (q->r[j].mode == M_Q_ONEFLAG)
		snprintf(buf, len, "%s one flag of 0x%llx", sp->key, (unsigned long long)q->r[j].hi);
	else
		snprintf(buf, len, "%s %s", sp->key, m_qmode_str((enum m_qmode)q->r[j].mode));
	return buf;
}

void run_judge_query(struct run *x, const struct scn_step *s, const struct m_op *op, const struct hres *real)
{
	const struct scn_call *call = scn_step_call(s);
	struct m_qres q;
	char a1[160], a2[160];
	int prev = -1; /* scn_spec_index_after's cursor */

	if (model_query(&x->bm.m, &x->o->prof, op, &q)) {
		run_say(x, V_ERROR, s->line, "line %u: %s: the model cannot answer this query", s->line, call->name);
		return;
	}
	bm_qres_objects(&x->bm, call, op->node, &q); /* objects as the engines report them */
	for (unsigned j = 0; j < q.n; j++) {
		int i = scn_spec_index_after(call->query, q.r[j].key, prev); /* the model answers in the list's order */
		uint64_t rv;

		prev = i < 0 ? prev : i;
		if (i < 0 || !(real->qset & (1u << i)))
			continue;
		rv = real->q[i];
		if (call->query[i].flags & SCN_A_VA) {
			/* an address in the step's object's buffer: its offset there on the engine, in the model's buffer */
			uint64_t ev, mv;

			if (x->ops->attr(x->be, s->obj, SCN_ATTR_VA, &ev) || be_model_ops.attr(&x->bm, s->obj, SCN_ATTR_VA, &mv))
				continue;
			rv = rv - ev + mv;
		}
		if (model_qres_ok(&q, (size_t)j, rv))
			continue;
		run_say(x, V_FAIL, s->line, "line %u: %s: model says %s, real %s=%s", s->line, call->name,
		    qmodel(x, &call->query[i], &q, (int)j, a1, sizeof(a1)), q.r[j].key,
		    qval(x, &call->query[i], real->q[i], a2, sizeof(a2)));
		if (q.r[j].rule < M_RULE_COUNT_)
			text_addf(&x->detail, "  rule %s: %s\n", m_rule_info((enum m_rule)q.r[j].rule)->id,
				  m_rule_info((enum m_rule)q.r[j].rule)->summary);
		return;
	}
	for (size_t c = 0; c < s->nconds; c++) {
		const struct scn_arg *cd = &s->conds[c];
		int i = scn_spec_index(call->query, cd->spec->key);
		int j = -1;

		uint64_t want = cd->v.kind == SCN_V_OBJ ? (uint64_t)cd->v.obj : cd->v.num; /* pd=pd1: the object */

		for (unsigned k = 0; k < q.n; k++)
			if (strcmp(q.r[k].key, cd->spec->key) == 0)
				j = (int)k;
		if (cd->v.kind == SCN_V_ATTR) {
			/* expect KEY=NAME.ATTR: the engine's own value of the attribute. */
			uint64_t v;
			char name[80];

			if (x->ops->attr(x->be, cd->v.obj, (enum scn_attr)cd->v.attr, &v)) {
				run_say(x, V_ERROR, s->line, "line %u: expect %s=: %s has no %s on the %s engine", s->line,
				    cd->spec->key, run_obj_name(x->f, cd->v.obj, name, sizeof(name)),
				    scn_attr_str((enum scn_attr)cd->v.attr), x->ops->name);
				return;
			}
			want = cd->v.neg ? v - cd->v.num : v + cd->v.num;
		}
		if (run_judges_file(x)) {
			if (j < 0 && run_disagree(x, s, s->line, cd->v.col, NULL, "expect %s=%s, but the model says %s reports "
					      "no %s here", cd->spec->key, qval(x, cd->spec, want, a1, sizeof(a1)),
					      call->name, cd->spec->key))
				return;
			if (j >= 0 && !model_qres_ok(&q, (size_t)j, want) &&
			    run_disagree(x, s, s->line, cd->v.col, NULL, "expect %s=%s, but the model says %s", cd->spec->key,
				     qval(x, cd->spec, want, a1, sizeof(a1)), qmodel(x, cd->spec, &q, j, a2, sizeof(a2))))
				return;
			if (x->o->mode == RUN_LINT)
				continue; /* the model engine's answer is judged below as reality is */
		}
		if (i < 0 || !(real->qset & (1u << i))) {
			run_say(x, V_ERROR, s->line, "line %u: %s did not report %s", s->line, call->name, cd->spec->key);
			return;
		}
		if (want != real->q[i])
			run_say(x, V_FAIL, s->line, "line %u: expect %s=%s, real %s=%s", s->line, cd->spec->key,
			    qval(x, cd->spec, want, a1, sizeof(a1)), cd->spec->key,
			    qval(x, cd->spec, real->q[i], a2, sizeof(a2)));
	}
}
