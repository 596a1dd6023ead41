/*
 * distance.c — the edit distance behind every "did you mean" (distance.h).
 */
#include "harness/base/distance.h"

#include <ctype.h>
#include <string.h>

#define CMP_MAX 64

size_t edit_distance(const char *a, const char *b, bool nocase)
{
	size_t la = strnlen(a, CMP_MAX), lb = strnlen(b, CMP_MAX);
	size_t row[CMP_MAX + 1];

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = (unsigned char)a[i - 1], cb = (unsigned char)b[j - 1];
			size_t up = row[j];
			size_t best;

			if (nocase) {
				ca = tolower(ca);
				cb = tolower(cb);
			}
			best = diag + (ca != cb);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}
