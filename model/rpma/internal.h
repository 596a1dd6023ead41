/*
 * rpma/internal.h — the librpma family's files among themselves (not a
 * public API): rpma.c (the registry row, dispatch, mapping verbs outcomes),
 * mr.c (registration, descriptors, remote MRs), conn.c (connections, I/O).
 *
 * The librpma 1.2.0 family (catalog area B): usage flags to
 * access rights, the argument checks of every call with their RPMA_E_* codes,
 * descriptors, connections, and read/write/atomic write/flush carried out by
 * the verbs rules underneath.
 *
 * A librpma MR is a verbs MR (mr[], api M_FAM_RPMA) registered in the PD of
 * the node's librpma peer (m_node.rpma.pd, made at the first librpma step that needs
 * it, as rpma_peer_new allocates one). A connection (conn[]) is an RC QP pair
 * in the two peers' PDs plus the internal 8-byte MR the APM flush reads into
 * (src/flush.c). Whatever librpma hands to libibverbs is predicted by
 * translating it into the verbs operation and asking the verbs family
 * (m_verbs_step_predict/apply),
 * so a librpma step fires the same rule IDs as the verbs step that does the
 * same thing; this family adds the library's own rules in front and maps the
 * outcomes (a failed verbs call is RPMA_E_PROVIDER; the success of an
 * unsignaled WR gives no completion, so the call's `ok` stands).
 */
#ifndef RDMACHECK_MODEL_RPMA_INTERNAL_H
#define RDMACHECK_MODEL_RPMA_INTERNAL_H

#include "model/internal.h"

#define USAGE_ALL_ALLOWED 0xffu /* the 8 RPMA_MR_USAGE_* bits (src/mr.c) */
#define F_ON_SUCCESS 2u         /* RPMA_F_COMPLETION_ALWAYS & ~RPMA_F_COMPLETION_ON_ERROR */
#define AUX_LEN 8               /* the APM flush's read-after-write MR (src/flush.c RAW_SIZE) */
#define QP_RIGHTS (M_ACC_REMOTE_WRITE | M_ACC_REMOTE_READ | M_ACC_REMOTE_ATOMIC)
#define A0 M_RPMA_NULL_ARG0
#define A1 M_RPMA_NULL_ARG1
#define A2 M_RPMA_NULL_ARG2

/* Handle h of a table with cnt entries, created at some time. */
#define EVER(arr, cnt, h) ((h) >= 0 && (h) < (cnt) && (arr)[h].ever)

/* RPMA-REG-3: the verbs access flags of a usage set. */
uint32_t m_rpma_usage2access(uint32_t usage);
/* Give node n its librpma peer's PD if it has none yet, in its next PD slot (mr.c predicts
 * a first registration on that slot). Returns 0 or -ENOSPC. */
int m_rpma_ensure_peer(struct model *m, unsigned n);
/*
 * Add the verbs prediction v to out as librpma reports it (a failed verbs
 * call: RPMA_E_PROVIDER; with on_error, a WR's success: the call's ok), with
 * the rules of lead first (then on_errno for a failed verbs call, then the
 * verbs rules), and take over what v resolved. Each alternative keeps its
 * verbs effect.
 */
void m_rpma_map_verbs(struct m_pred *out, const struct m_pred *v, int on_error, const struct m_why *lead,
		      enum m_rule on_errno);
/* Add one alternative decided by rule r alone. */
void m_rpma_alt1(struct m_pred *out, struct m_outcome o, enum m_effect e, enum m_rule r);
/* Is h an rpma MR (live or dead) of node nd? */
int m_rpma_mr_ok(const struct m_node *nd, int h);
/* Store the n low bytes of v little-endian at b. */
void m_rpma_le_put(uint8_t *b, uint64_t v, unsigned n);

/*
 * The calls (mr.c, conn.c): m_rpma_pred_* predict out->op (model_predict's
 * contract), m_rpma_apply_* / m_rpma_io_apply commit an alternative with
 * effect DO (model_apply's), m_rpma_query answers the remote getters.
 */
int m_rpma_pred_reg(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_rpma_apply_reg(struct model *m, const struct m_pred *pred, size_t i, int *created);
int m_rpma_pred_dereg(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_rpma_pred_desc(const struct model *m, struct m_pred *out, enum m_rule r);
int m_rpma_pred_from_desc(const struct m_profile *p, struct m_pred *out);
int m_rpma_apply_from_desc(struct model *m, const struct m_op *op, int *created);
int m_rpma_pred_remote_query(const struct model *m, struct m_pred *out);
int m_rpma_query(const struct model *m, const struct m_profile *p, const struct m_op *op, struct m_qres *out);
int m_rpma_pred_connect(const struct model *m, struct m_pred *out);
int m_rpma_apply_connect(struct model *m, const struct m_op *op, int *created);
int m_rpma_pred_disconnect(const struct model *m, struct m_pred *out);
int m_rpma_apply_disconnect(struct model *m, const struct m_op *op);
int m_rpma_pred_io(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_rpma_pred_atomic_write(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_rpma_pred_flush(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_rpma_io_apply(struct model *m, const struct m_pred *pred, size_t i);

#endif
