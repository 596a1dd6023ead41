/*
 * port_fx.h — a loopback TCP port nothing holds, for the unit tests that
 * start an MRAPI directory or a fake one (test_mrapi_dir.c, test_lib_mrapi.c,
 * test_lib_mrapi_ref.c).
 *
 * A port derived from the test's pid could be one a directory service of an
 * earlier test still listens on: a service lingers until its idle limit, and
 * the pids of a suite's forked tests wrap the derived range. A test that met
 * such a service while it exited got its connection reset (mrapi_initialize:
 * MRAPI_ERR_NODE_INITFAILED), about one run in fifteen under load. The
 * kernel's own choice (bind to port 0) is a port no socket is bound to.
 */
#ifndef RDMACHECK_PORT_FX_H
#define RDMACHECK_PORT_FX_H

#include <check.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

/* A port of 127.0.0.1 no socket was bound to at the call (the test fails when none can be had). */
static inline unsigned fx_free_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	close(fd);
	return ntohs(sa.sin_port);
}

#endif
