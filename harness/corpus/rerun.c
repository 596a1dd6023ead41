/* rerun.c — the failed scenarios of the last results (rerun.h). */
#include "harness/corpus/rerun.h"
#include "harness/base/proc.h"
#include "harness/corpus/files.h"
#include "harness/corpus/history.h"

#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "harness/base/opts.h"

/* Append name to out->v unless it is there. 0 or -ENOMEM. */
static int push_once(struct filelist *out, const char *name)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->v[i], name) == 0)
			return 0;
	return files_push(out, name);
}

/* hist_fn: the file of a FAIL or ERROR scenario. */
static int failed(void *ctx, const struct result *r, const char *text)
{
	(void)text;
	if (!r || (r->v != V_FAIL && r->v != V_ERROR) || !r->file[0])
		return 0;
	return push_once(ctx, r->file);
}

int rerun_read(const char *path, struct filelist *out, char *err, size_t errlen)
{
	char first[PATH_MAX + 128] = "";
	size_t bad = 0;
	int rc = hist_read(path, failed, out, &bad, first, sizeof(first));

	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory reading %s", path);
	else if (rc)
		snprintf(err, errlen, "%s", first);
	else if (bad) {
		snprintf(err, errlen, "%s (%zu %s that %s not results: what failed cannot be known)", first, bad,
			 cli_plural(bad, "line", "lines"), bad == 1 ? "is" : "are");
		rc = -EBADMSG;
	}
	return rc;
}

/* Is path a file or directory that exists? */
static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int rerun_path(const char *from, char *path, size_t len, char *err, size_t errlen)
{
	const char *dir = getenv("RDMACHECK_RESULTS");
	char root[PATH_MAX];
	int n;

	if (from) {
		if (!exists(from)) {
			snprintf(err, errlen, "%s: %s", from, strerror(errno));
			return -ENOENT;
		}
		if (hist_path(from, path, len))
			goto long_name;
		if (exists(path))
			return 0;
		n = snprintf(path, len, "%s/latest/results.jsonl", from);
		if (n < 0 || (size_t)n >= len)
			goto long_name;
		if (!exists(path)) {
			snprintf(err, errlen, "%s has no results.jsonl (nor latest/results.jsonl)", from);
			return -ENOENT;
		}
		return 0;
	}
	if (dir && *dir) {
		n = snprintf(path, len, "%s/latest/results.jsonl", dir);
	} else if (cli_find_root(root, sizeof(root)) == 0) {
		n = snprintf(path, len, "%s/build/results/latest/results.jsonl", root);
	} else {
		snprintf(err, errlen, "cannot find the checkout above this executable (set RDMACHECK_RESULTS)");
		return -ENOENT;
	}
	if (n >= 0 && (size_t)n < len)
		return 0;
long_name:
	snprintf(err, errlen, "%s: the name is too long", from ? from : dir ? dir : root);
	return -ENAMETOOLONG;
}
