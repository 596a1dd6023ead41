/*
 * device.h — `run --device=DEV`: run on an RDMA device the host already has
 * (rxe0, siw0, mlx5_0) instead of the nodes the harness builds. The device
 * becomes a one-node topology description (netns/topo.h) read from sysfs:
 * its port 1 RoCE v2 GID that maps an IPv4 address gives the GID index, the
 * network device and the address. The profile follows the driver: rxe has
 * one; any other is judged by the specification (the generic profile).
 */
#ifndef RDMACHECK_DEVICE_H
#define RDMACHECK_DEVICE_H

#include "model/model.h"
#include "netns/topo.h"

#include <stddef.h>

struct dev_info {
	char dev[64];        /* the RDMA device, as given */
	char driver[32];     /* "rxe", "siw", "mlx5_core": its driver, else its name's letters */
	char netdev[16];     /* the network device under the GID */
	char ipv4[16];       /* the address the GID maps */
	int prefix_len;      /* of that address on netdev (32 when unknown here) */
	int gid_index;       /* of the RoCE v2 IPv4 GID on port 1 */
};

/*
 * Describe dev from the sysfs tree at sysfs ("/sys"; tests pass a tree of
 * their own). Returns 0 and *out, -ENODEV (no such device; err names those
 * there are) or -ENXIO (no RoCE v2 IPv4 GID on port 1: the agents connect
 * over IPv4), with a message in err.
 */
int dev_probe(const char *sysfs, const char *dev, struct dev_info *out, char *err, size_t errlen);

/* Write the one-node topology description of di (node "a") to path. 0 or -errno with err. */
int dev_write_topo(const struct dev_info *di, const char *path, char *err, size_t errlen);

/*
 * The profile to judge di's stack by: "rxe" for the rxe driver; else
 * "generic", with note "no profile for DEV (driver D): judging by the
 * specification" (note "" for rxe).
 */
const char *dev_profile(const struct dev_info *di, char *note, size_t len);

/*
 * All of run --device=DEV before the scenarios run: probe DEV (in
 * $RDMACHECK_SYSFS, default /sys), write its topology to path and load it
 * into *t, and choose the profile into *prof: user_profile when the user gave
 * --profile, else dev_profile's (its note printed to stderr), at the running
 * kernel's version; *stack the profile of DEV's driver at the running
 * kernel when the user's profile is another (crash_pred.h: which steps may
 * kill this host is asked of it too), else stack->name NULL. Returns 0, or
 * an exit status (EXIT_USAGE: no such device, or none usable; EXIT_INFRA)
 * with the reason printed.
 */
int dev_setup(const char *dev, const char *user_profile, const char *path, struct topo *t, struct m_profile *prof,
	      struct m_profile *stack);

#endif
