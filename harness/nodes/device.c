/* device.c — an existing RDMA device as a one-node topology (device.h). */
#define _GNU_SOURCE /* getifaddrs */
#include "harness/nodes/device.h"
#include "harness/base/exits.h"
#include "harness/corpus/load.h"
#include "harness/corpus/crash_pred.h"
#include "harness/run/driver.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The first line of file path into buf, its end cut. 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int rc = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		rc = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return rc;
}

/* The devices of class infiniband under sysfs, blank-separated, into buf ("" when none). */
static void device_list(const char *sysfs, char *buf, size_t len)
{
	char path[PATH_MAX];
	DIR *d;
	struct dirent *e;
	size_t off = 0;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/class/infiniband", sysfs);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d)) != NULL && off < len)
		if (e->d_name[0] != '.')
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "", e->d_name);
	closedir(d);
}

/* GID text "0000:0000:0000:0000:0000:ffff:c613:e001" as IPv4 "198.19.224.1"; 0 or -EINVAL. */
static int gid_ipv4(const char *gid, char *ipv4, size_t len)
{
	struct in6_addr a6;
	char hex[40];
	size_t k = 0;

	for (const char *p = gid; *p && k + 1 < sizeof(hex); p++)
		if (*p != ':')
			hex[k++] = *p;
	hex[k] = '\0';
	if (k != 32)
		return -EINVAL;
	for (int i = 0; i < 16; i++) {
		unsigned v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -EINVAL;
		a6.s6_addr[i] = (uint8_t)v;
	}
	if (!IN6_IS_ADDR_V4MAPPED(&a6))
		return -EINVAL;
	return inet_ntop(AF_INET, &a6.s6_addr[12], ipv4, (socklen_t)len) ? 0 : -EINVAL;
}

/* The prefix length of ipv4 on netdev on this host, or 32. */
static int prefix_len(const char *netdev, const char *ipv4)
{
	struct ifaddrs *ifa, *i;
	int len = 32;

	if (getifaddrs(&ifa))
		return len;
	for (i = ifa; i; i = i->ifa_next) {
		char a[16];

		if (!i->ifa_addr || !i->ifa_netmask || i->ifa_addr->sa_family != AF_INET || strcmp(i->ifa_name, netdev))
			continue;
		if (!inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr, a, sizeof(a)) ||
		    strcmp(a, ipv4))
			continue;
		len = __builtin_popcount(((struct sockaddr_in *)(void *)i->ifa_netmask)->sin_addr.s_addr);
	}
	freeifaddrs(ifa);
	return len;
}

int dev_probe(const char *sysfs, const char *dev, struct dev_info *out, char *err, size_t errlen)
{
	char base[PATH_MAX], path[PATH_MAX + 64], val[128], list[512];

	memset(out, 0, sizeof(*out));
	snprintf(base, sizeof(base), "%s/class/infiniband/%s", sysfs, dev);
	if (!*dev || strchr(dev, '/') || strlen(dev) >= sizeof(out->dev) || access(base, F_OK) != 0) {
		device_list(sysfs, list, sizeof(list));
		snprintf(err, errlen, "no RDMA device '%s' on this host (%s%s)", dev, list[0] ? "it has: " : "it has none",
			 list);
		return -ENODEV;
	}
	snprintf(out->dev, sizeof(out->dev), "%s", dev);
	driver_of(sysfs, dev, DRIVER_VENDOR_NONE, out->driver, sizeof(out->driver));
	for (int i = 0; i < 256; i++) {
		snprintf(path, sizeof(path), "%s/ports/1/gid_attrs/types/%d", base, i);
		if (read_line(path, val, sizeof(val)) || strcasecmp(val, "RoCE v2") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/ports/1/gids/%d", base, i);
		if (read_line(path, val, sizeof(val)) || gid_ipv4(val, out->ipv4, sizeof(out->ipv4)))
			continue;
		snprintf(path, sizeof(path), "%s/ports/1/gid_attrs/ndevs/%d", base, i);
		if (read_line(path, val, sizeof(val)) || !*val || strlen(val) >= sizeof(out->netdev))
			continue;
		snprintf(out->netdev, sizeof(out->netdev), "%.15s", val);
		out->gid_index = i;
		out->prefix_len = prefix_len(out->netdev, out->ipv4);
		return 0;
	}
	snprintf(err, errlen, "%s has no RoCE v2 GID of an IPv4 address on port 1 (the agents connect over IPv4: "
		 "give its network device an address)", dev);
	return -ENXIO;
}

int dev_write_topo(const struct dev_info *di, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
		return rc;
	}
	fprintf(f, "rdmacheck-topology 1\n# one node on the host's own device %s (driver %s): run --device\n"
		   "mode routed\nprefix dev\nhub none\nnode a netns=- netdev=%s rxe=%s ipv4=%s/%d gid_index=%d\n",
		di->dev, di->driver, di->netdev, di->dev, di->ipv4, di->prefix_len, di->gid_index);
	rc = fclose(f) ? -errno : 0;
	if (rc)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
	return rc;
}

const char *dev_profile(const struct dev_info *di, char *note, size_t len)
{
	return driver_profile(di->dev, di->driver, note, len);
}

int dev_setup(const char *dev, const char *user_profile, const char *path, struct topo *t, struct m_profile *prof,
	      struct m_profile *stack)
{
	const char *sysfs = getenv("RDMACHECK_SYSFS");
	struct dev_info di;
	char err[PATH_MAX + 256], note[256];
	const char *name;
	int rc = dev_probe(sysfs && *sysfs ? sysfs : "/sys", dev, &di, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "rdmacheck run --device: %s\n", err);
		return EXIT_USAGE;
	}
	name = dev_profile(&di, note, sizeof(note));
	if (user_profile) {
		if (cli_profile(user_profile, prof))
			return EXIT_USAGE;
	} else {
		if (note[0])
			fprintf(stderr, "rdmacheck: %s\n", note);
		m_profile_get(name, 0, prof);
		if (cli_running_kernel())
			prof->kernel = cli_running_kernel();
	}
	if (!cli_stack_profile(prof, name, stack))
		stack->name = NULL; /* judged by the device's own profile */
	if (dev_write_topo(&di, path, err, sizeof(err)) || topo_load(path, t, err, sizeof(err))) {
		fprintf(stderr, "rdmacheck run --device: %s\n", err);
		return EXIT_INFRA;
	}
	fprintf(stderr, "rdmacheck: one node on %s (driver %s, %s on %s, GID %d; %s), profile %s\n", di.dev, di.driver,
		di.ipv4, di.netdev, di.gid_index, path, prof->name);
	return 0;
}
