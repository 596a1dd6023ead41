/* driver.c — a device's driver and the profile it chooses (driver.h). */
#include "harness/run/driver.h"
#include "model/model.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void driver_of(const char *sysfs, const char *dev, uint32_t vendor, char *buf, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;
	size_t k = 0;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device/driver", sysfs, dev);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		snprintf(buf, len, "%.31s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
		return;
	}
	if (vendor == DRIVER_VENDOR_RXE) { /* rxe's devices have no parent device: any name ("rcffff_a") */
		snprintf(buf, len, "rxe");
		return;
	}
	while (dev[k] && isalpha((unsigned char)dev[k]) && k + 1 < len) {
		buf[k] = dev[k];
		k++;
	}
	buf[k] = '\0';
}

const char *driver_profile(const char *dev, const char *driver, char *note, size_t len)
{
	if (strcmp(driver, "rxe") == 0 || strcmp(driver, "rdma_rxe") == 0) {
		if (len)
			note[0] = '\0';
		return "rxe";
	}
	snprintf(note, len, "no profile for %s (driver %s): judging by the specification", dev, driver);
	return "generic";
}

const char *driver_nodes_profile(size_t n, const char *const *devs, const char *const *drivers,
				 const char *const *kernels, uint32_t *kver, char *notes, size_t len)
{
	const char *name = "rxe";
	size_t off = 0;

	*kver = 0;
	if (len)
		notes[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char note[256];
		unsigned maj, min;

		if (strcmp(driver_profile(devs[i], drivers[i], note, sizeof(note)), "rxe") != 0) {
			name = "generic";
			if (off < len)
				off += (size_t)snprintf(notes + off, len - off, "%s%s", off ? "\n" : "", note);
		} else if (sscanf(kernels[i], "%u.%u", &maj, &min) == 2 && (!*kver || KVER(maj, min) < *kver)) {
			*kver = KVER(maj, min);
		}
	}
	if (strcmp(name, "rxe") != 0)
		*kver = 0;
	return name;
}
