/*
 * summary.h — the summary a person reads first after a campaign (issue 31):
 * OUT/summary.md and OUT/summary.html, with the plot of the rules reached
 * over time (OUT/summary-rules.svg, inline in the HTML; drawn here, nothing
 * fetched), the steps, steps/s, elapsed time, and the divergences grouped by
 * signature (the deciding call, what reality did, the rules of the allowed
 * set): each cause once, with how often it came and its first shrunk file.
 * Written after every batch and at the end, each file atomically, so an
 * interrupted campaign still has a whole one.
 */
#ifndef RDMACHECK_EXPLORE_SUMMARY_H
#define RDMACHECK_EXPLORE_SUMMARY_H

#include "harness/explore/campaign.h"
#include "harness/explore/explore.h"

/*
 * Write the summary of o's campaign (sum, cp) into o->out (made if need be;
 * nothing when o->out is NULL). final: 1 the campaign ended, 2 it was stopped by
 * Ctrl-C or SIGTERM (o->stop), 0 it is running.
 * 0, -ENOMEM or -errno.
 */
int ex_summary_write(const struct ex_opts *o, const struct ex_summary *sum, const struct ex_campaign *cp,
		     int final);

#endif
