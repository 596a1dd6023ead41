#!/usr/bin/python3
"""pyverbs_bench.py -- make bench-real's pyverbs side (tests/bench/real).

The operations that build/bench/real-raw times as C loops, written with
rdma-core's Python bindings (pyverbs, the python3-pyverbs package): node a
in its namespace, node b's RC QP and 4 KiB MR in a forked process in its own,
connected over a socket pair. Prints "pyverbs<TAB>OP<TAB>us per operation":

  reg_dereg_4k  MR(pd, 4 KiB) and its close (pyverbs allocates and frees the buffer)
  pd_pair       PD(ctx) and its close
  write_64      a signaled 64 B RDMA WRITE to b, busy-polled to its completion
  read_4k       a signaled 4 KiB RDMA READ from b, likewise
  query_qp      QP.query(IBV_QP_STATE)

Usage: pyverbs_bench.py TOPOLOGY-FILE [ITERATIONS]. Exit 0, 1 when an
operation failed, 3 on an infrastructure failure (message on stderr).
"""
import ctypes
import json
import os
import socket
import sys
import time

import pyverbs.enums as e
from pyverbs.addr import AHAttr, GID, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import SGE, SendWR

LEN = 4096
RW = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE | e.IBV_ACCESS_REMOTE_READ
PORT = 1
CLONE_NEWNET = 0x40000000
OPS = ("reg_dereg_4k", "pd_pair", "write_64", "read_4k", "query_qp")


def die(what, err):
    """Say what failed and leave with the infrastructure status."""
    print(f"pyverbs_bench: {what}: {err}", file=sys.stderr)
    sys.exit(3)


def load_nodes(path):
    """The node lines of a topology file (netns/topo.h) as dicts, in order."""
    nodes = []
    with open(path, encoding="ascii") as f:
        for line in f:
            tok = line.split("#", 1)[0].split()
            if len(tok) >= 2 and tok[0] == "node":
                node = dict(t.split("=", 1) for t in tok[2:] if "=" in t)
                node["name"] = tok[1]
                nodes.append(node)
    return nodes


def enter_netns(node):
    """Enter node's network namespace (netns=- : stay where we are)."""
    ns = node.get("netns", "-")
    if ns == "-":
        return
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(f"/var/run/netns/{ns}", os.O_RDONLY | os.O_CLOEXEC)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            die(ns, os.strerror(ctypes.get_errno()))
    finally:
        os.close(fd)


class Node:
    """A device opened with a PD, a CQ, an RC QP and a 4 KiB MR."""

    def __init__(self, node):
        enter_netns(node)
        self.gid_index = int(node["gid_index"])
        self.ctx = Context(name=node["rxe"])
        self.pd = PD(self.ctx)
        self.cq = CQ(self.ctx, 64)
        cap = QPCap(max_send_wr=64, max_recv_wr=64, max_send_sge=1, max_recv_sge=1)
        self.qp = QP(self.pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=self.cq, rcq=self.cq, cap=cap))
        self.mr = MR(self.pd, LEN, RW)
        self.gid = self.ctx.query_gid(PORT, self.gid_index)

    def address(self):
        """What the other side needs to reach our QP and MR."""
        return {"qpn": self.qp.qp_num, "gid": self.gid.gid, "addr": self.mr.buf, "rkey": self.mr.rkey}

    def connect(self, peer):
        """Take our QP to RTS towards peer's (its address())."""
        attr = QPAttr(port_num=PORT, path_mtu=e.IBV_MTU_1024)
        attr.qp_access_flags = e.IBV_ACCESS_REMOTE_READ | e.IBV_ACCESS_REMOTE_WRITE | e.IBV_ACCESS_REMOTE_ATOMIC
        attr.dest_qp_num = peer["qpn"]
        attr.rq_psn = 0
        attr.sq_psn = 0
        attr.max_dest_rd_atomic = 1
        attr.max_rd_atomic = 1
        attr.min_rnr_timer = 12
        attr.timeout = 14
        attr.retry_cnt = 7
        attr.rnr_retry = 7
        gr = GlobalRoute(dgid=GID(peer["gid"]), sgid_index=self.gid_index, hop_limit=64)
        attr.ah_attr = AHAttr(port_num=PORT, is_global=1, gr=gr)
        self.qp.to_rts(attr)


def send_msg(sock, obj):
    """One JSON line to the other side."""
    sock.sendall((json.dumps(obj) + "\n").encode())


def recv_msg(sock):
    """One JSON line from the other side (30 s at most, 64 KiB at most)."""
    sock.settimeout(30)
    buf = b""
    while not buf.endswith(b"\n"):
        chunk = sock.recv(4096)
        if not chunk or len(buf) > 65536:
            die("peer", "no message from the other node")
        buf += chunk
    return json.loads(buf)


def node_b(sock, node):
    """Serve our MR to node a until its socket closes. Does not return."""
    try:
        n = Node(node)
        send_msg(sock, n.address())
        n.connect(recv_msg(sock))
        send_msg(sock, {"ok": 1})
        sock.settimeout(None)
        while sock.recv(4096):
            pass
    except Exception as ex:  # the parent hears of it as a closed socket
        print(f"pyverbs_bench: node b: {ex}", file=sys.stderr)
    os._exit(0)


def rdma_once(n, opcode, length, peer):
    """One signaled RDMA operation and its completion, busy-polled (5 s at most)."""
    sge = SGE(n.mr.buf, length, n.mr.lkey)
    wr = SendWR(wr_id=1, opcode=opcode, num_sge=1, sg=[sge], send_flags=e.IBV_SEND_SIGNALED)
    wr.set_wr_rdma(peer["rkey"], peer["addr"])
    n.qp.post_send(wr)
    deadline = time.monotonic() + 5
    while True:
        got, wcs = n.cq.poll()
        if got:
            if wcs[0].status != e.IBV_WC_SUCCESS:
                raise RuntimeError(f"completion status {wcs[0].status}")
            return
        if time.monotonic() > deadline:
            raise RuntimeError("no completion in 5 s")


def op_once(op, n, peer):
    """One operation of kind op; raises when it fails."""
    if op == "reg_dereg_4k":
        MR(n.pd, LEN, RW).close()
    elif op == "pd_pair":
        PD(n.ctx).close()
    elif op == "write_64":
        rdma_once(n, e.IBV_WR_RDMA_WRITE, 64, peer)
    elif op == "read_4k":
        rdma_once(n, e.IBV_WR_RDMA_READ, LEN, peer)
    elif op == "query_qp":
        n.qp.query(e.IBV_QP_STATE)


def main(argv):
    if len(argv) < 2 or (len(argv) > 2 and not argv[2].isdigit()) or (len(argv) > 2 and int(argv[2]) <= 0):
        print("usage: pyverbs_bench.py TOPOLOGY-FILE [ITERATIONS]", file=sys.stderr)
        return 2
    iters = int(argv[2]) if len(argv) > 2 else 500
    try:
        nodes = load_nodes(argv[1])
    except (OSError, ValueError) as ex:
        die(argv[1], ex)
    if len(nodes) < 2:
        die(argv[1], "needs two nodes")
    here, there = socket.socketpair()
    pid = os.fork()
    if pid == 0:
        here.close()
        node_b(there, nodes[1])
    there.close()
    try:
        n = Node(nodes[0])
        send_msg(here, n.address())
        peer = recv_msg(here)
        n.connect(peer)
        if "ok" not in recv_msg(here):
            die("node b", "not connected")
    except Exception as ex:  # pyverbs raises its own errors for every verb
        die(nodes[0].get("rxe", "node a"), ex)
    failed = 0
    for op in OPS:
        try:
            for _ in range(10):  # warm-up: first-use costs are not the loop's
                op_once(op, n, peer)
            t0 = time.monotonic()
            for _ in range(iters):
                op_once(op, n, peer)
            print(f"pyverbs\t{op}\t{(time.monotonic() - t0) / iters * 1e6:.1f}", flush=True)
        except Exception as ex:
            print(f"pyverbs_bench: {op}: {ex}", file=sys.stderr)
            print(f"pyverbs\t{op}\tfailed", flush=True)
            failed = 1
    here.close()
    os.waitpid(pid, 0)
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv))
