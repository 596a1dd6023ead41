/*
 * family.h — the registry of API families. An API family (libibverbs,
 * librpma, uDAPL, …) is one folder harness/api/<name>/ and one row of
 * api_families[] (harness/api/registry.c); everything that used to ask
 * "is this call librpma's or uDAPL's?" asks the row instead:
 *
 *   the scenario language  its call list (the parser's call table is the
 *                          families' lists, in registry order)
 *   resolution             resolve: a step's family-specific arguments
 *   the model engine       model_op: the family's part of the model operation
 *   the runner             caps: what a stack must offer for its calls
 *   the real stack         stack_exec: a call through the node agents;
 *                          stack_blob: the bytes an object hands a peer;
 *                          stack_read: the bytes an object stands for, when
 *                          they are not a buffer of its own node's agent
 *   the agent              agent_reqs: the requests it serves; agent_end:
 *                          its per-node state's teardown (the state is
 *                          struct agent's state[] slot of the family's index)
 *
 * A family's index in the registry is its enum m_family value (scn.h) and the
 * api of each of its calls. Any hook may be NULL: a family whose calls have
 * no engine yet (resolve NULL) is reported as such and skipped.
 */
#ifndef RDMACHECK_API_FAMILY_H
#define RDMACHECK_API_FAMILY_H

#include "harness/lang/scn.h"

#include <stddef.h>
#include <stdint.h>

#define API_FAMILIES_MAX 8 /* rows the registry may have (struct agent keeps a state slot each) */

struct hcall;
struct hres;
struct rsv;
struct be_model;
struct m_op;
struct stack;
struct agent;
struct hview;
struct bm_buf;

/* One request the agent serves for a family: verb (the request's first word) and its handler. */
struct agent_req {
	const char *verb;
	int (*fn)(struct agent *a);
};

struct api_family {
	const char *name;                  /* the scenario language's name of the API: "rpma" */
	const struct scn_call *calls;      /* its calls (scn_callspec.h), in table order; name NULL ends them */
	const size_t *ncalls;              /* how many (counted by the list's file: CALLS_COUNT) */
	uint32_t caps;                     /* M_CAP_* a stack must offer for any of its calls */
	/* Resolution: fill c's family arguments from s (the common part is filled). */
	int (*resolve)(struct rsv *r, const struct scn_step *s, struct hcall *c);
	/* The model engine: the family's part of c's model operation (the objects
	 * every family names are translated already); 0 or -ENOENT. */
	int (*model_op)(const struct be_model *bm, const struct hcall *c, struct m_op *op);
	/* The model engine: what the model knows of object obj (model handle h) of a class the
	 * family creates, for references and attributes (NULL: the shared verbs tables or nothing;
	 * be_model.c); and the bytes it holds for such a buffer, for check (1 and *out, or 0). */
	int (*model_view)(const struct be_model *bm, int32_t obj, int16_t h, struct hview *v);
	int (*model_buf)(const struct be_model *bm, int32_t obj, int16_t h, struct bm_buf *out);
	/* After creation c was committed to the model: record the handles of the other objects
	 * the call made (bm->h; NULL: a call makes only its NAME). */
	void (*model_made)(struct be_model *bm, const struct hcall *c);
	/* The real stack: run c through the agents (backend_ops.exec). */
	int (*stack_exec)(struct stack *st, const struct hcall *c, struct hres *r);
	/* The real stack: backend_ops.exec_chain, a chain of the family's posts (NULL: none). */
	int (*stack_exec_chain)(struct stack *st, const struct hcall *c, size_t n, struct hres *r);
	/* The real stack: backend_ops.blob for the family's objects (NULL: they export none). */
	int (*stack_blob)(struct stack *st, int32_t obj, uint8_t *buf, size_t cap, size_t *len);
	uint16_t blob_classes;             /* enum scn_class bits stack_blob serves */
	/* The real stack: backend_ops.read for the family's objects of read_classes (NULL: the
	 * bytes of the buffer the object's node agent holds, agent.h's read). */
	int (*stack_read)(struct stack *st, int32_t obj, uint64_t off, size_t len, uint8_t *buf);
	uint16_t read_classes;             /* enum scn_class bits stack_read serves */
	/* The agent: the requests it serves (verb NULL ends it), and the
	 * release of its per-node state after every object (NULL: none). */
	const struct agent_req *agent_reqs;
	void (*agent_end)(struct agent *a);
	/* 1 when agent_end leaves the agent as a fresh one (no state of the family's library
	 * outlives it, nothing a later scenario could see): an agent that used the family may
	 * then be kept for the next scenario; 0: it is not (its reset answers fams=1). */
	int agent_end_fresh;
	/* The real stack, run-ahead (backend_ops.ahead): 1 when stack_exec of c makes exactly one
	 * request (stack_call), written from c alone, whose effect stays on c's node and its own
	 * objects and that no peer observation follows; 0 else (NULL: never). */
	int (*stack_ahead)(const struct hcall *c);
};

/* Number of families; family i (its enum m_family value), NULL out of range. */
size_t api_family_count(void);
const struct api_family *api_family_get(size_t i);

#endif
