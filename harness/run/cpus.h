/*
 * cpus.h — the coordinator and its agents on different CPUs. A step's
 * request wakes its agent through a socket, and Linux runs the woken agent
 * on the waker's CPU (a synchronous wakeup): the coordinator then waits for
 * the agent's work before it can judge, even with requests sent ahead and
 * another CPU idle (measured in the 2-vCPU guest: a write() of 8 requests
 * took ~1 ms, the agent's work on them). Split, the agents work while the
 * coordinator judges. With RDMACHECK_CPU_SPLIT=0, or one CPU, nothing moves.
 */
#ifndef RDMACHECK_CPUS_H
#define RDMACHECK_CPUS_H

/*
 * In the coordinator, before its first agent is forked: pin this process to
 * the CPU it runs on, and keep the others it may use for the agents (the
 * inner runner does, cli_inner.c; runners started side by side in one
 * machine had better not: RDMACHECK_CPU_SPLIT=0). Once per process; 0
 * (split, or nothing to split) or -errno (nothing moved).
 */
int cpus_split(void);

/* In a forked agent, before exec: run on the CPUs the split kept for agents (none: as before). */
void cpus_agent(void);

#endif
