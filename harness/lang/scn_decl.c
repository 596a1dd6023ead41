/*
 * scn_decl.c — names a step declares besides its NAME: the value of a key
 * flagged SCN_A_NEW (dat_ep_connect accept=) names a new object of the key's
 * class that the step makes on the node of its `peer` argument — the EP the
 * peer's PSP accepts the connection with. `accept=f` or `accept=b.f` (b the
 * peer's node); the name follows the rules of a step's NAME.
 */
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <string.h>

int scn_decl_parse(struct scn_ctx *c, const struct scn_word *w, size_t off, struct scn_value *v)
{
	struct scn_word vw = { w->p + off, w->len - off, w->col + (uint32_t)off };
	const char *dot = memchr(vw.p, '.', vw.len);
	char node[SCN_NAME_MAX + 1], name[SCN_NAME_MAX + 1];

	*v = (struct scn_value){ .kind = SCN_V_OBJ, .line = c->ln->no, .col = vw.col, .node = -1, .obj = -1 };
	if (dot) {
		size_t nlen = (size_t)(dot - vw.p);
		int n;

		scn_copy(node, sizeof(node), vw.p, nlen < sizeof(node) ? nlen : sizeof(node) - 1);
		n = scn_node_find(c->f, node);
		if (n < 0) {
			scn_unknown_node(c, &vw, node);
			return -EINVAL;
		}
		v->node = (int16_t)n;
		vw = (struct scn_word){ dot + 1, vw.len - nlen - 1, vw.col + (uint32_t)nlen + 1 };
	}
	scn_copy(name, sizeof(name), vw.p, vw.len < sizeof(name) ? vw.len : sizeof(name) - 1);
	if (!scn_name_ok(c, &vw, name))
		return -EINVAL;
	v->str = strdup(name); /* until scn_decl_make declares it */
	if (!v->str) {
		c->oom = 1;
		return -ENOMEM;
	}
	return 0;
}

void scn_decl_make(struct scn_ctx *c, struct scn_step *st, bool live)
{
	const struct scn_value *peer = scn_step_arg(st, "peer");

	for (size_t i = 0; i < st->nargs; i++) {
		struct scn_value *v = &st->args[i].v;
		const char *key = st->args[i].spec->key;

		if (!(st->args[i].spec->flags & SCN_A_NEW) || !v->str || !peer || peer->node < 0)
			continue;
		if (v->node >= 0 && v->node != peer->node) {
			scn_diag(c, v->line, v->col, NULL, SCN_E_DECL_NODE, key, v->str, c->f->nodes[peer->node],
				 c->f->nodes[v->node]);
			continue;
		}
		int32_t o = scn_obj_find(c->f, (unsigned)peer->node, v->str);

		if (o >= 0 && c->f->objs[o].live) {
			scn_diag(c, v->line, v->col, "free it first or use another name", SCN_E_LIVE, v->str,
				 c->f->nodes[peer->node], c->f->objs[o].line);
			continue;
		}
		v->node = peer->node;
		v->obj = scn_obj_add(c, v->str, (unsigned)peer->node, st->args[i].spec->cls,
				     &(struct scn_word){ c->ln->p, 0, v->col });
		if (v->obj >= 0)
			c->f->objs[v->obj].live = live;
	}
}
