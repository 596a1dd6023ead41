/*
 * agent_rpma_cm.c — the agent's interposition on librdmacm's
 * rdma_resolve_addr (HACKING.md: "The rdma_resolve_addr interposition").
 *
 * The source address of the node's outgoing connections. librpma 1.2.0
 * resolves a server without one (src/info.c: rdma_resolve_addr(id,
 * ai_src_addr = NULL, dst)), so the kernel picks the device by the route of
 * unbound traffic. On a host of its own that is the host's device; in the
 * routed topology (every node in one kernel) it is the device of whichever
 * node netns/topology routes unbound traffic to the server from (its pref
 * 30 rule), and the QP then cannot be made in the peer's PD
 * (rdma_create_qp_ex: EINVAL). So the agent lends librdmacm's resolution the
 * node's own address as the source, as that node's own host would: this
 * definition takes the place of librdmacm's for the whole process and calls
 * it with the source filled in when the caller gave none.
 *
 * The definition lives in libagent.a next to agent_rpma_source, which
 * agent_rpma.c calls: that reference is what links this object (and so the
 * interposition) into every binary that serves librpma requests.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "harness/api/rpma/api_rpma.h"

#include <rdma/rdma_cma.h>

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>

static struct sockaddr_in node_src; /* AF_INET once the node's librpma peer exists */

void agent_rpma_source(const char *ipv4)
{
	if (inet_pton(AF_INET, ipv4, &node_src.sin_addr) == 1)
		node_src.sin_family = AF_INET;
}

int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr, int timeout_ms)
{
	static int (*real)(struct rdma_cm_id *, struct sockaddr *, struct sockaddr *, int);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "rdma_resolve_addr");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	if (!src_addr && node_src.sin_family == AF_INET && dst_addr && dst_addr->sa_family == AF_INET)
		src_addr = (struct sockaddr *)&node_src;
	return real(id, src_addr, dst_addr, timeout_ms);
}

