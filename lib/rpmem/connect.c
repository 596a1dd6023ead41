/*
 * connect.c — rpmem-connect HOST PORT: librpmem's daemon command for a target
 * whose own side started the daemon (serve.c). Given as RPMEM_CMD with
 * RPMEM_SSH="", it dials HOST:PORT, sends the one-time key of environment
 * variable RPMEM_CONNECT_KEY, and relays its stdin/stdout (librpmem's control
 * channel) to the daemon until either side ends. SIGTERM ends the channel
 * as the client's end would (the daemon sees EOF and ends) and exits once
 * the daemon's side has ended: a killer that waits for this process knows
 * the daemon is gone. Exit 0, or 1 with a line on stderr.
 */
#include "lib/rpmem/rpmem_int.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static volatile sig_atomic_t sock = -1;

/* SIGTERM: no more from the client; the relay goes on until the daemon ends. */
static void on_term(int sig)
{
	(void)sig;
	if (sock >= 0)
		shutdown(sock, SHUT_WR);
}

int main(int argc, char **argv)
{
	const char *key = getenv("RPMEM_CONNECT_KEY");
	int fd, rc;

	if (argc != 3 || !key || !*key) {
		fprintf(stderr, "usage: RPMEM_CONNECT_KEY=HEX rpmem-connect HOST PORT\n");
		return 1;
	}
	fd = rpmem_dial(argv[1], argv[2], key);
	if (fd < 0) {
		fprintf(stderr, "rpmem-connect: %s:%s: %s\n", argv[1], argv[2], strerror(-fd));
		return 1;
	}
	sock = fd;
	signal(SIGTERM, on_term);
	rc = rpmem_relay(0, 1, fd);
	if (rc < 0)
		fprintf(stderr, "rpmem-connect: %s\n", strerror(-rc));
	return rc < 0;
}
