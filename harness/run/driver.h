/*
 * driver.h — which driver serves an RDMA device, and the profile that
 * judges it: rxe has one (its declared deviations, by kernel version); any
 * other device is judged by the specification (the generic profile). The
 * coordinator asks for a device of this host (run --device, device.h); an
 * agent tells its driver and kernel in its greeting (agent.h), so nodes on
 * other kernels (run --topology, --stack=vms) are judged by their own.
 */
#ifndef RDMACHECK_DRIVER_H
#define RDMACHECK_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#define DRIVER_VENDOR_RXE 0xFFFFFFu /* the vendor_id soft-RoCE reports (rxe's RXE_VENDOR_ID) */
#define DRIVER_VENDOR_NONE 0u       /* not known */

/*
 * The driver of RDMA device dev in the sysfs tree at sysfs ("/sys"): the
 * basename of class/infiniband/DEV/device/driver (mlx5_core, irdma); for a
 * software device that has none, "rxe" when vendor is DRIVER_VENDOR_RXE,
 * else the letters dev's name starts with (siw0: "siw"). Into buf.
 */
void driver_of(const char *sysfs, const char *dev, uint32_t vendor, char *buf, size_t len);

/*
 * The profile for device dev served by driver: "rxe" for rxe (note ""),
 * else "generic" with note "no profile for DEV (driver D): judging by the
 * specification".
 */
const char *driver_profile(const char *dev, const char *driver, char *note, size_t len);

/*
 * The profile for a run on n nodes, node i on device devs[i] served by
 * drivers[i] under kernel release kernels[i] ("6.1.0-56-amd64"; "" not
 * told): "rxe" when every node is rxe, with *kver the lowest of their
 * kernels' KVER(major, minor) (0 when none was told); else "generic", and
 * notes gets driver_profile's note of every node without a profile, one a
 * line.
 */
const char *driver_nodes_profile(size_t n, const char *const *devs, const char *const *drivers,
				 const char *const *kernels, uint32_t *kver, char *notes, size_t len);

#endif
