/*
 * hex.h — bytes as lower-case hex, and random nonces in hex: the agents'
 * handshake (harness/run/remote.c) and the MRAPI directory's
 * (lib/mrapi/dir_auth.c) write their nonces and MACs through these. The
 * lowest layer (LAYERS: lib/common): libc only.
 */
#ifndef RDMACHECK_HEX_H
#define RDMACHECK_HEX_H

#include <stddef.h>

/* The n bytes of b as 2 * n lower-case hex digits and a NUL, into out (2 * n + 1 bytes). */
void hex_encode(const unsigned char *b, size_t n, char *out);

/*
 * n bytes from the kernel's random source (getrandom) as hex into out
 * (2 * n + 1 bytes; n at most 256). Returns 0, or -EIO when the source gave
 * fewer (out then holds "").
 */
int hex_random(size_t n, char *out);

#endif
