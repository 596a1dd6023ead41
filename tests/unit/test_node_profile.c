/*
 * Unit tests of the profile chosen per node from its driver (issue 15):
 * harness/run/driver.c (a device's driver from sysfs or its vendor; the
 * profile it chooses, for one device and for a run's nodes) and
 * harness/nodes/node_profile.c end to end: an agent on loopback that greets
 * with a driver of its own choosing (mlx5_core, rxe) and the profile the
 * coordinator then judges by, with the line that says why.
 */
#define _GNU_SOURCE /* setenv */
#include "harness/nodes/node_profile.h"
#include "harness/agent/agent.h"
#include "harness/run/driver.h"
#include "harness/run/proto.h"
#include "harness/run/remote.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/rdmacheck-nprof-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A sysfs tree in dir: mlx5_0 bound to mlx5_core, a soft-RoCE device rcffff_a and siw0 without a driver link. */
static void fake_sysfs(void)
{
	char path[512];

	snprintf(path, sizeof(path), "mkdir -p %s/class/infiniband/mlx5_0/device %s/bus/pci/drivers/mlx5_core "
		 "%s/class/infiniband/rcffff_a %s/class/infiniband/siw0", dir, dir, dir, dir);
	ck_assert_int_eq(system(path), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/mlx5_0/device/driver", dir);
	ck_assert_int_eq(symlink("../../../../bus/pci/drivers/mlx5_core", path), 0);
}

START_TEST(test_driver_of_sysfs_vendor_or_name)
{
	char drv[32];

	fake_sysfs();
	driver_of(dir, "mlx5_0", DRIVER_VENDOR_NONE, drv, sizeof(drv));
	ck_assert_str_eq(drv, "mlx5_core");
	driver_of(dir, "rcffff_a", DRIVER_VENDOR_RXE, drv, sizeof(drv)); /* rxe by its vendor, whatever its name */
	ck_assert_str_eq(drv, "rxe");
	driver_of(dir, "rcffff_a", DRIVER_VENDOR_NONE, drv, sizeof(drv));
	ck_assert_str_eq(drv, "rcffff");
	driver_of(dir, "siw0", 0x626d74, drv, sizeof(drv));
	ck_assert_str_eq(drv, "siw");
}
END_TEST

START_TEST(test_driver_nodes_profile)
{
	const char *devs[] = { "rcffff_a", "rcffff_b", "mlx5_0" };
	const char *rxe2[] = { "rxe", "rxe", "mlx5_core" };
	const char *kern[] = { "6.8.0-40-generic", "6.1.0-56-amd64", "6.1.0-56-amd64" };
	char notes[512];
	uint32_t kver = 1;

	ck_assert_str_eq(driver_nodes_profile(2, devs, rxe2, kern, &kver, notes, sizeof(notes)), "rxe");
	ck_assert_uint_eq(kver, KVER(6, 1)); /* the lowest: its deviations are the ones that may show */
	ck_assert_str_eq(notes, "");
	ck_assert_str_eq(driver_nodes_profile(3, devs, rxe2, kern, &kver, notes, sizeof(notes)), "generic");
	ck_assert_uint_eq(kver, 0);
	ck_assert_str_eq(notes, "no profile for mlx5_0 (driver mlx5_core): judging by the specification");
}
END_TEST

/*
 * An agent on loopback that proves the secret in key_path and greets as
 * node a on device dev with driver drv (what a real agent reads from its
 * sysfs), then answers quit; node_profile against it. Its output in out.
 */
static int profile_from_agent(const char *dev, const char *drv, struct m_profile *prof, char *out, size_t len)
{
	char key_path[128], bound[128], err[256], topo_text[512];
	struct remote_key key;
	struct topo t;
	FILE *say = tmpfile(), *f;
	int lfd, rc, st;
	pid_t pid;

	snprintf(key_path, sizeof(key_path), "%s/token", dir);
	ck_assert_ptr_nonnull(f = fopen(key_path, "w"));
	fputs("the-run-secret-0123456789abcdef", f);
	fclose(f);
	ck_assert_int_eq(chmod(key_path, 0600), 0);
	ck_assert_int_eq(remote_key_read(key_path, &key, err, sizeof(err)), 0);
	lfd = agent_bind("127.0.0.1:0", bound, sizeof(bound), err, sizeof(err));
	ck_assert_int_ge(lfd, 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct proto_rd rd;
		char why[160], msg[256];
		int fd = accept(lfd, NULL, NULL);

		proto_rd_reset(&rd);
		if (fd < 0 || remote_accept(fd, &key, why, sizeof(why)))
			_exit(1);
		proto_send(fd, "ok hello node=a gid=00000000000000000000ffffc613fa01 driver=%s kernel=6.1.0-56-amd64", drv);
		if (proto_recv(fd, &rd, msg, sizeof(msg), 5000) < 0 || strcmp(msg, "quit") != 0)
			_exit(2);
		proto_send(fd, "ok");
		_exit(0);
	}
	close(lfd);
	snprintf(topo_text, sizeof(topo_text), "rdmacheck-topology 1\nmode hosts\nnode a netns=- netdev=eth0 rxe=%s "
		 "ipv4=198.19.250.1/24 gid_index=1 agent=%s\n", dev, bound);
	ck_assert_msg(topo_parse(topo_text, strlen(topo_text), &t, err, sizeof(err)) == 0, "%s", err);
	setenv("RDMACHECK_AGENT_TOKEN", key_path, 1);
	ck_assert_ptr_nonnull(say);
	rc = node_profile(&t, 2000, prof, say);
	rewind(say);
	out[fread(out, 1, len - 1, say)] = '\0';
	fclose(say);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the fake agent: %d", st);
	return rc;
}

START_TEST(test_node_profile_other_driver_judged_by_specification)
{
	struct m_profile prof;
	char out[1024];

	m_profile_get("rxe", 0, &prof);
	ck_assert_int_eq(profile_from_agent("mlx5_0", "mlx5_core", &prof, out, sizeof(out)), 0);
	ck_assert_str_eq(prof.name, "generic");
	ck_assert_msg(strstr(out, "rdmacheck: no profile for mlx5_0 (driver mlx5_core): judging by the specification\n"),
		      "%s", out);
}
END_TEST

START_TEST(test_node_profile_rxe_at_the_nodes_kernel)
{
	struct m_profile prof;
	char out[1024];

	m_profile_get("generic", 0, &prof);
	ck_assert_int_eq(profile_from_agent("rcffff_a", "rxe", &prof, out, sizeof(out)), 0);
	ck_assert_str_eq(prof.name, "rxe");
	ck_assert_uint_eq(prof.kernel, KVER(6, 1));
	ck_assert_msg(strstr(out, "profile rxe:6.1, from the nodes' driver (rxe) and kernel (6.1.0-56-amd64)"), "%s", out);
}
END_TEST

Suite *suite_test_node_profile(void)
{
	Suite *s = suite_create("test_node_profile");
	TCase *tc = tcase_create("node_profile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_driver_of_sysfs_vendor_or_name);
	tcase_add_test(tc, test_driver_nodes_profile);
	tcase_add_test(tc, test_node_profile_other_driver_judged_by_specification);
	tcase_add_test(tc, test_node_profile_rxe_at_the_nodes_kernel);
	suite_add_tcase(s, tc);
	return s;
}
