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
	int rc = hist_read(path, failed, out, NULL, err, errlen);

	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory reading %s", path);
	else if (rc)
		snprintf(err, errlen, "cannot read the last results %s: %s", path, strerror(-rc));
	return rc;
}

int rerun_last(struct filelist *out, char *err, size_t errlen)
{
	const char *dir = getenv("RDMACHECK_RESULTS");
	char root[PATH_MAX], path[PATH_MAX + 64];

	if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/latest/results.jsonl", dir);
	} else if (cli_find_root(root, sizeof(root)) == 0) {
		snprintf(path, sizeof(path), "%s/build/results/latest/results.jsonl", root);
	} else {
		snprintf(err, errlen, "cannot find the checkout above this executable (set RDMACHECK_RESULTS)");
		return -ENOENT;
	}
	return rerun_read(path, out, err, errlen);
}
