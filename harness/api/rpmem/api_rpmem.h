/* api_rpmem.h — the librpmem family's entry points, for its registry row (family.h). */
#ifndef RDMACHECK_API_RPMEM_H
#define RDMACHECK_API_RPMEM_H

#include "harness/run/family.h"

extern const struct scn_call api_rpmem_calls[];
extern const size_t api_rpmem_calls_n;
/* The librpmem arguments of step s (family.h: resolve). */
int resolve_rpmem(struct rsv *r, const struct scn_step *s, struct hcall *c);
/* The family's part of c's model operation (family.h: model_op). */
int model_op_rpmem(const struct be_model *bm, const struct hcall *c, struct m_op *op);
/* The bytes the model holds for pool handle h: its pool on the target, up to the handle's pool_size (family.h: model_buf). */
int model_buf_rpmem(const struct be_model *bm, int32_t obj, int16_t h, struct bm_buf *out);
/* A librpmem call through the node agents (family.h: stack_exec). */
int stack_exec_rpmem(struct stack *st, const struct hcall *c, struct hres *r);
/* The bytes of pool object obj's pool, read from the target's part files (family.h: stack_read). */
int stack_read_rpmem(struct stack *st, int32_t obj, uint64_t off, size_t len, uint8_t *buf);
/* The agent's librpmem requests and the release of its per-node state (family.h). */
extern const struct agent_req agent_rpmem_reqs[];
void agent_rpmem_end(struct agent *a);
/*
 * The command line of a target's daemon (agent_rpmem.c): DIR/rpmemd-rpma
 * -c /dev/null --poolset-dir ROOT -n LANES (no rpmemd.conf of the machine's;
 * pool set names relative to ROOT) into argv, AGENT_RPMEM_ARGC words and a
 * NULL, pointing into d (which must outlive argv). The client's RPMEM_CMD
 * and rpmem_serve's daemon both start it so. 0, or EINVAL when a path is too long.
 */
#define AGENT_RPMEM_ARGC 7
/*
 * rpmem_serve's daemon as a session of this agent's rpmemd-zygote (DIR/
 * rpmemd-zygote, started at the first call and kept; agent_rpmem_zygote.c):
 * on listening socket lfd, for the client with key, with the daemon's argv.
 * A pidfd of the session (the zygote's child, not this process's), or -errno:
 * -ENOENT no zygote there (not tried again), others (the zygote died: started
 * again next time); the caller then starts the daemon itself.
 */
int agent_rpmem_zygote_serve(const char *dir, int lfd, const char *key, int timeout_ms, const char *const *argv);
/* Whether the session of pidfd has ended; kill_it: SIGKILL it and wait until it has (1). */
int agent_rpmem_session_ended(int pidfd, int kill_it);
struct agent_rpmem_daemon {
	char exe[4096 + 16], root[4096], lanes[16];
};
int agent_rpmem_daemon_argv(const char *dir, const char *root, struct agent_rpmem_daemon *d,
			    const char *argv[AGENT_RPMEM_ARGC + 1]);

#endif
