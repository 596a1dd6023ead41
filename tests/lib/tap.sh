#!/bin/bash
# tests/lib/tap.sh — what the real-stack comparisons (tests/remote/run,
# tests/vms/run) share; sourced, not run.

# tap_verdicts FILE: the per-file verdicts of an rdmacheck TAP run, sorted,
# one line each: "FILE ok|not ok [TODO|SKIP]".
tap_verdicts() {
	grep -E '^(not )?ok [0-9]+ ' "$1" |
		sed -E 's/^(not ok|ok) [0-9]+ - ([^ ]+).*# (TODO|SKIP).*/\2 \1 \3/; t; s/^(not ok|ok) [0-9]+ - ([^ ]+).*/\2 \1/' |
		sort
}

# two_node_verbs: the verbs scenarios of exactly two nodes, a path a line.
two_node_verbs() {
	local f
	for f in scenarios/verbs/*.scn; do
		if grep -qE '^nodes [a-z0-9_]+ [a-z0-9_]+ *$' "$f"; then echo "$f"; fi
	done
}
