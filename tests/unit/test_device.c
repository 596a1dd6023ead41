/*
 * Unit tests of `run --device` (harness/nodes/device.c) on sysfs trees made
 * here: the one-node topology a device gives, the profile its driver gets,
 * and the refusal of a device the host does not have.
 */
#define _GNU_SOURCE /* mkdtemp */
#include "harness/corpus/crash_pred.h"
#include "harness/nodes/device.h"
#include "netns/topo.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

/* Write text to root/rel, making its directories. */
static void put(const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/rdmacheck-sysfs-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	/* rxe0 on eth7: GID 0 link-local (RoCE v1), GID 1 the IPv4 one (RoCE v2) */
	put("class/infiniband/rxe0/ports/1/gids/0", "fe80:0000:0000:0000:5054:00ff:fe12:3456\n");
	put("class/infiniband/rxe0/ports/1/gid_attrs/types/0", "IB/RoCE v1\n");
	put("class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0", "eth7\n");
	put("class/infiniband/rxe0/ports/1/gids/1", "0000:0000:0000:0000:0000:ffff:c613:e001\n");
	put("class/infiniband/rxe0/ports/1/gid_attrs/types/1", "RoCE v2\n");
	put("class/infiniband/rxe0/ports/1/gid_attrs/ndevs/1", "eth7\n");
	/* mlx5_0 on InfiniBand: no IPv4 GID at all */
	put("class/infiniband/mlx5_0/ports/1/gids/0", "fe80:0000:0000:0000:0002:c903:0011:2233\n");
	put("class/infiniband/mlx5_0/ports/1/gid_attrs/types/0", "IB/RoCE v1\n");
	/* mlx5_1: RoCE v2 on an IPv4 address, with a driver link */
	put("class/infiniband/mlx5_1/ports/1/gids/3", "0000:0000:0000:0000:0000:ffff:0a00:0005\n");
	put("class/infiniband/mlx5_1/ports/1/gid_attrs/types/3", "RoCE v2\n");
	put("class/infiniband/mlx5_1/ports/1/gid_attrs/ndevs/3", "enp1s0f1\n");
	put("bus/pci/drivers/mlx5_core/.keep", "");
	put("bus/pci/devices/0000:01:00.1/.keep", "");
	char link[600], target[512];

	snprintf(link, sizeof(link), "%s/class/infiniband/mlx5_1/device", root);
	snprintf(target, sizeof(target), "%s/bus/pci/devices/0000:01:00.1", root);
	mkdir(target, 0755);
	(void)!symlink(target, link);
	snprintf(link, sizeof(link), "%s/driver", target);
	snprintf(target, sizeof(target), "%s/bus/pci/drivers/mlx5_core", root);
	(void)!symlink(target, link);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	(void)!system(cmd);
}

START_TEST(test_device_rxe_one_node_topology)
{
	struct dev_info di;
	struct topo t;
	char err[256], note[256], path[128];

	ck_assert_int_eq(dev_probe(root, "rxe0", &di, err, sizeof(err)), 0);
	ck_assert_str_eq(di.driver, "rxe");
	ck_assert_str_eq(di.netdev, "eth7");
	ck_assert_str_eq(di.ipv4, "198.19.224.1");
	ck_assert_int_eq(di.gid_index, 1);
	ck_assert_int_eq(di.prefix_len, 32); /* eth7 is not on this host */
	ck_assert_str_eq(dev_profile(&di, note, sizeof(note)), "rxe");
	ck_assert_str_eq(note, "");
	snprintf(path, sizeof(path), "%s/dev.topo", root);
	ck_assert_int_eq(dev_write_topo(&di, path, err, sizeof(err)), 0);
	ck_assert_msg(topo_load(path, &t, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(t.n, 1);
	ck_assert_int_eq(t.mode, TOPO_MODE_ROUTED);
	ck_assert_str_eq(t.node[0].name, "a");
	ck_assert_str_eq(t.node[0].netns, "");
	ck_assert_str_eq(t.node[0].rxe, "rxe0");
	ck_assert_str_eq(t.node[0].netdev, "eth7");
	ck_assert_str_eq(t.node[0].ipv4, "198.19.224.1");
	ck_assert_int_eq(t.node[0].gid_index, 1);
}
END_TEST

START_TEST(test_device_other_driver_judged_by_specification)
{
	struct dev_info di;
	char err[256], note[256];

	ck_assert_int_eq(dev_probe(root, "mlx5_1", &di, err, sizeof(err)), 0);
	ck_assert_str_eq(di.driver, "mlx5_core");
	ck_assert_str_eq(di.ipv4, "10.0.0.5");
	ck_assert_int_eq(di.gid_index, 3);
	ck_assert_str_eq(dev_profile(&di, note, sizeof(note)), "generic");
	ck_assert_str_eq(note, "no profile for mlx5_1 (driver mlx5_core): judging by the specification");
}
END_TEST

START_TEST(test_device_refused)
{
	struct dev_info di;
	char err[256];

	ck_assert_int_eq(dev_probe(root, "mlx5_0", &di, err, sizeof(err)), -ENXIO);
	ck_assert_ptr_nonnull(strstr(err, "mlx5_0 has no RoCE v2 GID of an IPv4 address"));
	ck_assert_int_eq(dev_probe(root, "siw0", &di, err, sizeof(err)), -ENODEV);
	ck_assert_ptr_nonnull(strstr(err, "no RDMA device 'siw0' on this host (it has: "));
	ck_assert_ptr_nonnull(strstr(err, "rxe0"));
	ck_assert_int_eq(dev_probe(root, "../rxe0", &di, err, sizeof(err)), -ENODEV);
	ck_assert_int_eq(dev_probe("/nonexistent", "rxe0", &di, err, sizeof(err)), -ENODEV);
	ck_assert_str_eq(err, "no RDMA device 'rxe0' on this host (it has none)");
}
END_TEST

/*
 * --device=rxe0 judged by --profile=generic: rxe's own profile at the running
 * kernel is kept beside it, so the steps it says may kill this host are
 * known (crash_pred.h); judged by the device's own profile, none is kept.
 */
START_TEST(test_device_stack_profile_beside_another_judge)
{
	struct m_profile prof, stack;
	struct topo t;
	char path[128];

	snprintf(path, sizeof(path), "%s/dev.topo", root);
	setenv("RDMACHECK_SYSFS", root, 1);
	ck_assert_int_eq(dev_setup("rxe0", "generic", path, &t, &prof, &stack), 0);
	ck_assert_str_eq(prof.name, "generic");
	ck_assert_ptr_nonnull(stack.name);
	ck_assert_str_eq(stack.name, "rxe");
	ck_assert_uint_eq(stack.kernel, cli_running_kernel());
	ck_assert_int_eq(dev_setup("rxe0", NULL, path, &t, &prof, &stack), 0);
	ck_assert_str_eq(prof.name, "rxe");
	ck_assert_ptr_null(stack.name);
	unsetenv("RDMACHECK_SYSFS");
}
END_TEST

Suite *suite_test_device(void)
{
	Suite *s = suite_create("test_device");
	TCase *tc = tcase_create("device");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_device_rxe_one_node_topology);
	tcase_add_test(tc, test_device_other_driver_judged_by_specification);
	tcase_add_test(tc, test_device_refused);
	tcase_add_test(tc, test_device_stack_profile_beside_another_judge);
	suite_add_tcase(s, tc);
	return s;
}
