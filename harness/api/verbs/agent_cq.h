/*
 * agent_cq.h — the agent's CQ objects (create_cq): each keeps the
 * completions the agent polled from it while waiting for one WR's, so that
 * poll_cq hands them to the scenario in the order the CQ gave them.
 * Receive WRs carry AGENT_WR_RECV in their wr_id (a peer's observation
 * tells them from send completions on a shared CQ).
 */
#ifndef RDMACHECK_API_VERBS_AGENT_CQ_H
#define RDMACHECK_API_VERBS_AGENT_CQ_H

#include "harness/agent/agent_internal.h"

#define AGENT_WR_RECV (1ull << 63)
/* struct aobj.cq_given: which of a QP's CQs are CQ objects (not its own) */
#define AGENT_CQ_SEND 1u
#define AGENT_CQ_RECV 2u

/* The live CQ object whose CQ is cq, or NULL. */
struct aobj *agent_cq_of(struct agent *a, struct ibv_cq *cq);
/*
 * Wait until CQ object c has given a completion of send WR wr_id of the QP
 * numbered qpn (other QPs may share c) that no earlier call answered with
 * (WRs of one wr_id are answered oldest first; each stays kept, with every
 * other the CQ gave, for poll_cq), at most budget_ms. Returns 0 and *wc,
 * -ETIMEDOUT, or -EIO if polling fails.
 */
int agent_cq_wait(struct aobj *c, uint32_t qpn, uint64_t wr_id, int budget_ms, struct ibv_wc *wc);
/*
 * The first receive completion of QP qpn in CQ object c not yet observed,
 * waiting up to wait_ms: 1 and *wc (now observed; still there for poll_cq),
 * 0 when none came, -EIO if polling fails.
 */
int agent_cq_peek_recv(struct aobj *c, uint32_t qpn, int wait_ms, struct ibv_wc *wc);

/* create_cq id= depth= [chan=] [vec=] [ex= wc= cqf=]: chan= a completion channel object, vec= enum
 * m_comp_vec; ex=1 ibv_create_cq_ex with wc_flags wc= and flags cqf=, its completions then taken with
 * ibv_start_poll/ibv_end_poll (agent_cqex.h). */
int agent_do_create_cq(struct agent *a);
/* create_comp_channel id=, destroy_comp_channel id=; req_notify_cq id= sol=0|1; get_cq_event id=:
 * "ok n=0" when no event comes within a bounded wait, else "ok n=1 cq=ORD" (the CQ's place among
 * those made since the reset); ack_cq_events id= n= (at most as many as were taken). */
int agent_do_create_comp_channel(struct agent *a);
/* resize_cq id= depth=: "ok cqe=N" (ibv_resize_cq, then the CQ's cqe). */
int agent_do_resize_cq(struct agent *a);
int agent_do_destroy_comp_channel(struct agent *a);
int agent_do_req_notify_cq(struct agent *a);
int agent_do_get_cq_event(struct agent *a);
int agent_do_ack_cq_events(struct agent *a);
int agent_do_destroy_cq(struct agent *a);
int agent_do_poll_cq(struct agent *a);
/* wait id wr: the completion of send WR wr of QP id (posted nowait=1), from its send CQ object: kept
 * there for poll_cq, or taken by a poll_cq already. */
int agent_do_wait(struct agent *a);

#endif
