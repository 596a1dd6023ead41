/* hex.c — bytes as hex, random nonces in hex (hex.h). */
#include "lib/common/hex.h"

#include <errno.h>
#include <sys/random.h>

void hex_encode(const unsigned char *b, size_t n, char *out)
{
	static const char d[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = d[b[i] >> 4];
		out[2 * i + 1] = d[b[i] & 15];
	}
	out[2 * n] = '\0';
}

int hex_random(size_t n, char *out)
{
	unsigned char b[256];

	out[0] = '\0';
	if (n > sizeof(b) || getrandom(b, n, 0) != (ssize_t)n)
		return -EIO;
	hex_encode(b, n, out);
	return 0;
}
