/*
 * command.c — the command line that starts the target daemon, as PMDK's
 * librpmem does it: `ssh -T -oBatchMode=yes [-p PORT] [USER@]HOST rpmemd`,
 * with RPMEM_SSH and RPMEM_CMD replacing "ssh" and the daemon. Both are
 * split at blanks into words, nothing else: no quotes, no globbing, no
 * variables. The words are exec'd as an argv, never through a local shell
 * (ssh hands the words after the host to the target's shell, as it always
 * does). RPMEM_SSH="" runs RPMEM_CMD directly on this node (tests, or a
 * wrapper such as `ip netns exec NS rpmemd --poolset-dir DIR`).
 *
 * RPMEM_CMD may hold several commands separated by '|': as in PMDK
 * (rpmem_util.c rpmem_util_cmd_get), each start of a daemon takes the next
 * one, round robin, the first start the first command.
 */
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Append the blank-separated words of s to argv (copies into *buf). */
static int add_words(const char *s, char **buf, size_t *left, char **argv, int *argc)
{
	while (*s) {
		size_t n;

		while (*s == ' ' || *s == '\t')
			s++;
		n = strcspn(s, " \t");
		if (!n)
			break;
		if (*argc >= RPMEM_ARGV_MAX - 1 || n + 1 > *left)
			return -EINVAL;
		memcpy(*buf, s, n);
		(*buf)[n] = '\0';
		argv[(*argc)++] = *buf;
		*buf += n + 1;
		*left -= n + 1;
		s += n;
	}
	return 0;
}

/* The command number pick (modulo their count) of the '|'-separated cmds into one. */
static int pick_cmd(const char *cmds, unsigned pick, char *one, size_t len)
{
	unsigned n = 1;
	const char *s = cmds, *bar;

	for (const char *c = cmds; *c; c++)
		n += *c == '|';
	for (pick %= n; pick; pick--)
		s = strchr(s, '|') + 1;
	bar = strchr(s, '|');
	size_t k = bar ? (size_t)(bar - s) : strlen(s);

	if (k >= len)
		return -1;
	memcpy(one, s, k);
	one[k] = '\0';
	return one[strspn(one, " \t")] ? 0 : -1; /* an empty command between bars */
}

int rpmem_command(const char *target, const char *ssh, const char *cmd, unsigned pick, char *buf, size_t buflen,
		  char **argv, char *host, size_t hostlen)
{
	char userhost[RPMEM_HOST_MAX + 64], port[16] = "", opts[64], one[1024];
	const char *at = strchr(target, '@'), *h = at ? at + 1 : target, *colon = strchr(h, ':');
	size_t hl = colon ? (size_t)(colon - h) : strlen(h);
	int argc = 0;

	if (!hl || hl >= hostlen || strlen(target) >= sizeof(userhost) || strpbrk(target, " \t\n'\"\\;$`|&<>"))
		return -EINVAL;
	memcpy(host, h, hl);
	host[hl] = '\0';
	if (colon) {
		if (strlen(colon + 1) >= sizeof(port) || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1))
			return -EINVAL;
		strcpy(port, colon + 1);
	}
	snprintf(userhost, sizeof(userhost), "%.*s", (int)(colon ? (size_t)(colon - target) : strlen(target)), target);
	if (!ssh)
		ssh = "ssh";
	if (!cmd || !cmd[strspn(cmd, " \t")])
		cmd = "rpmemd"; /* PMDK's RPMEM_DEF_CMD */
	if (pick_cmd(cmd, pick, one, sizeof(one)))
		return -EINVAL;
	cmd = one;
	if (ssh[strspn(ssh, " \t")]) {
		snprintf(opts, sizeof(opts), "-T -oBatchMode=yes%s%s", port[0] ? " -p " : "", port);
		if (add_words(ssh, &buf, &buflen, argv, &argc) || add_words(opts, &buf, &buflen, argv, &argc) ||
		    add_words(userhost, &buf, &buflen, argv, &argc))
			return -EINVAL;
	}
	if (add_words(cmd, &buf, &buflen, argv, &argc))
		return -EINVAL;
	argv[argc] = NULL;
	return argc;
}
