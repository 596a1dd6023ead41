/* held.c — the scenarios the kernel holds, by their recorded durations and the memory they pin (held.h). */
#include "harness/corpus/held.h"

size_t held_pick(size_t n, char *const *paths, const struct shard_times *t, const uint64_t *pinned,
		 unsigned char *held)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		double s = shard_recorded(t, paths[i]);

		held[i] = s >= HELD_MIN_S || (pinned && pinned[i] > (uint64_t)HELD_PIN_MB << 20);
		count += held[i];
	}
	return count;
}
