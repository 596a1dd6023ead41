/* opts.c — option parsing shared by every subcommand (opts.h). */
#include "harness/base/opts.h"
#include "harness/base/distance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_CLOSE 64 /* longer words are not compared */

const char *cli_closest(const char *word, const char *const *names, size_t n)
{
	size_t lw = strlen(word), best = (size_t)-1, limit = lw / 3 > 2 ? lw / 3 : 2;
	const char *pick = NULL;

	if (lw > NAME_MAX_CLOSE)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t ln = strlen(names[i]), d;

		if (ln > NAME_MAX_CLOSE)
			continue;
		d = edit_distance(word, names[i], false);
		if (d < best) {
			best = d;
			pick = names[i];
		}
	}
	return best <= limit ? pick : NULL;
}

/* The long option named in arg ("--stak=x" -> "stak") closest to a known one, or NULL. */
static const char *closest_long(const char *arg, const struct option *longopts)
{
	const char *names[64];
	char word[NAME_MAX_CLOSE + 1];
	size_t n = 0, len;

	while (*arg == '-')
		arg++;
	len = strcspn(arg, "=");
	if (len > NAME_MAX_CLOSE)
		return NULL;
	memcpy(word, arg, len);
	word[len] = '\0';
	for (; longopts[n].name && n < sizeof(names) / sizeof(names[0]); n++)
		names[n] = longopts[n].name;
	return cli_closest(word, names, n);
}

int cli_getopt(int argc, char **argv, const char *cmd, const char *shortopts, const struct option *longopts)
{
	int prev = optind, c;
	char opts[64];

	opterr = 0;
	snprintf(opts, sizeof(opts), ":%s", shortopts); /* ':' tells a missing argument from an unknown option */
	c = getopt_long(argc, argv, opts, longopts, NULL);
	if (c != '?' && c != ':')
		return c;
	/* The offending word: getopt has moved past it (prev..optind-1). */
	const char *arg = optind > prev && optind - 1 < argc ? argv[optind - 1] : prev < argc ? argv[prev] : "?";

	int eq = (int)strcspn(arg, "=");
	const struct option *exact = NULL;

	for (const struct option *o = longopts; arg[0] == '-' && arg[1] == '-' && o->name; o++)
		if ((int)strlen(o->name) == eq - 2 && strncmp(o->name, arg + 2, (size_t)eq - 2) == 0)
			exact = o;
	if (c == ':') {
		fprintf(stderr, "rdmacheck %s: option '%s' needs a value\n", cmd, arg);
	} else if (exact && exact->has_arg == no_argument && arg[eq]) {
		fprintf(stderr, "rdmacheck %s: option '--%s' takes no value\n", cmd, exact->name);
	} else if (optopt && !(arg[0] == '-' && arg[1] == '-')) {
		fprintf(stderr, "rdmacheck %s: unknown option '-%c'\n", cmd, optopt);
	} else {
		const char *near = closest_long(arg, longopts);

		if (near)
			fprintf(stderr, "rdmacheck %s: unknown option '%.*s' (did you mean '--%s'?)\n", cmd, eq, arg,
				near);
		else
			fprintf(stderr, "rdmacheck %s: unknown option '%.*s'\n", cmd, eq, arg);
	}
	fprintf(stderr, "rdmacheck %s --help lists the options.\n", cmd);
	return '?';
}

int cli_int_in(const char *v, long lo, long hi, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < lo || n > hi)
		return -1;
	*out = (int)n;
	return 0;
}

const char *cli_plural(size_t n, const char *word, const char *plural)
{
	return n == 1 ? word : plural;
}

void cli_version(void)
{
	printf("rdmacheck %s\n", RDMACHECK_VERSION);
}
