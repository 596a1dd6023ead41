/*
 * dat/internal.h — the uDAPL family's files among themselves (not a public
 * API): dat.c (the registry row, dispatch, the verbs translations and
 * outcome maps, query), obj.c (IA, PZ, LMR, RMR predictions), ep.c
 * (endpoints, DTOs, RMR binds), apply.c (commits).
 *
 * The uDAPL family (catalog area C): the IA, privileges to
 * access (DAT-LMR-2), DAT_RETURN codes, PZ lifetime, LMR contexts, RMRs,
 * endpoints, and DTOs carried out by the verbs rules underneath.
 *
 * A PZ is a verbs PD (pd[]), an LMR a verbs MR (mr[], api M_FAM_DAT, usage
 * = the privileges asked for), an RMR a type-1 memory window (mw[]), an EP
 * a connection (conn[]) over an RC QP pair in qp[]. Every uDAPL step that
 * OFA carries out with verbs is predicted by translating it into that verbs
 * operation and asking the verbs family (m_verbs_step_predict; the same rule IDs decide
 * underneath); the DAT layer then maps the verbs outcome (DAT-LMR-3/4,
 * DAT-DTO-1) and adds its own decisions. apply rebuilds the translation
 * (the state has not changed since predict) and commits the verbs
 * alternative with m_verbs_step_apply, then the DAT state.
 */
#ifndef RDMACHECK_MODEL_DAT_INTERNAL_H
#define RDMACHECK_MODEL_DAT_INTERNAL_H

#include "model/internal.h"

#define DAT(e) O_DAT(M_DAT_##e)
#define DTO(s) O_DTO(M_DTO_##s)
#define VALID(arr, cnt, h) ((h) >= 0 && (h) < (cnt) && (arr)[h].ever)
#define DAT_REMOTE_PRIV (M_DAT_PRIV_REMOTE_READ | M_DAT_PRIV_REMOTE_WRITE | M_DAT_PRIV_REMOTE_ATOMIC)

/* DAT-DTO-1: the DAT_DTO_COMPLETION_STATUS of a verbs completion status (OFA's ib_status_map). */
int32_t m_dat_dto_status(int32_t wc);
/* dapl_convert_errno (openib_common): a refused verbs call's errno as a DAT_RETURN. */
int32_t m_dat_errno(int32_t e);
/* The rules of verbs alternative a, then the DAT ones in dat. */
struct m_why m_dat_why_of(const struct m_alt *a, const struct m_why *dat);
/* Add one alternative per outcome of set, all with effect eff; rules why. */
void m_dat_add_set(struct m_pred *out, const struct m_set *s, enum m_effect eff, const struct m_why *why);

/* The verbs operations uDAPL steps stand for (the state as predict saw it). */
struct m_op m_dat_lmr_reg_op(const struct model *m, const struct m_op *op); /* lmr_create: the registration */
struct m_op m_dat_dto_op(const struct model *m, const struct m_op *op);     /* DTO: the post on the EP's QP */
struct m_op m_dat_bind_op(const struct model *m, const struct m_op *op);    /* rmr_bind: the type-1 bind */

/* DAT-IA-2: the call needs the node's IA. Adds the refusal (rules why + DAT-IA-2) and returns 1 if it is not open. */
int m_dat_ia_check(const struct m_node *nd, struct m_pred *out, struct m_why why);
/* A freed object (rule r, e.g. DAT-HANDLE-1): DAT_INVALID_HANDLE. */
void m_dat_stale(struct m_pred *out, enum m_rule r);

/* The calls' predictions (obj.c, ep.c; model_predict's contract) and the commit (apply.c; model_apply's). */
int m_dat_pred_ia_open(const struct m_node *nd, struct m_pred *out);
int m_dat_pred_pz_free(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_dat_pred_lmr_create(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_dat_pred_lmr_free(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_dat_pred_rmr_create(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_dat_pred_rmr_free(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_dat_pred_ep_connect(const struct model *m, struct m_pred *out);
int m_dat_pred_ep_act(const struct model *m, struct m_pred *out);
int m_dat_pred_dto(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_dat_pred_rmr_bind(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_dat_apply(struct model *m, const struct m_pred *pred, size_t i, int *created);

#endif
