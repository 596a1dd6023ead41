/*
 * node_profile.h — the profile for nodes on other kernels (run --topology,
 * --stack=vms) when the user gave none: each node's agent greets with its
 * device's driver and its kernel (agent.h), and driver.h chooses: rxe at the
 * nodes' kernel version when every node is rxe, else generic (judging by
 * the specification), saying which device has no profile.
 */
#ifndef RDMACHECK_NODE_PROFILE_H
#define RDMACHECK_NODE_PROFILE_H

#include "model/model.h"
#include "netns/topo.h"

#include <stdio.h>

/*
 * Greet every node of t once (its agent dialled as for a scenario, then told
 * to quit) and choose *prof from what they said, saying so on say ("no
 * profile for mlx5_0 (driver mlx5_core): judging by the specification",
 * then the profile chosen). Returns 0, or -errno when a node could not be
 * reached (the reason said; *prof left as it was).
 */
int node_profile(const struct topo *t, int step_ms, struct m_profile *prof, FILE *say);

#endif
