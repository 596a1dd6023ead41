/* topo_enter.c — entering a node's network namespace (see topo.h). */
#define _GNU_SOURCE /* setns(2) */
#include "netns/topo.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

int topo_enter_netns(const struct topo_node *node)
{
	char path[128];
	int fd, rc = 0;

	if (!node->netns[0])
		return 0;
	snprintf(path, sizeof(path), "/var/run/netns/%s", node->netns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (setns(fd, CLONE_NEWNET) != 0)
		rc = -errno;
	close(fd);
	return rc;
}
