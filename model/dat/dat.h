/*
 * dat.h — the uDAPL family's part of the public model API (included by
 * model/model.h through model/families.h): uDAPL's values, the arguments of
 * its operations, its per-node state. The family: model/dat/.
 */
#ifndef RDMACHECK_MODEL_DAT_H
#define RDMACHECK_MODEL_DAT_H

#include <stdint.h>

/* uDAPL's values (dat_error.h, dat.h, dat_ib_extensions.h of libdapl 2.1.10). */
enum m_dat_ret {
	M_DAT_SUCCESS = 0x00000000, M_DAT_ABORT = 0x00010000, M_DAT_CONN_QUAL_IN_USE = 0x00020000,
	M_DAT_INSUFFICIENT_RESOURCES = 0x00030000, M_DAT_INTERNAL_ERROR = 0x00040000,
	M_DAT_INVALID_HANDLE = 0x00050000, M_DAT_INVALID_PARAMETER = 0x00060000,
	M_DAT_INVALID_STATE = 0x00070000, M_DAT_LENGTH_ERROR = 0x00080000,
	M_DAT_MODEL_NOT_SUPPORTED = 0x00090000, M_DAT_PROVIDER_NOT_FOUND = 0x000A0000,
	M_DAT_PRIVILEGES_VIOLATION = 0x000B0000, M_DAT_PROTECTION_VIOLATION = 0x000C0000,
	M_DAT_QUEUE_EMPTY = 0x000D0000, M_DAT_QUEUE_FULL = 0x000E0000, M_DAT_TIMEOUT_EXPIRED = 0x000F0000,
	M_DAT_PROVIDER_ALREADY_REGISTERED = 0x00100000, M_DAT_PROVIDER_IN_USE = 0x00110000,
	M_DAT_INVALID_ADDRESS = 0x00120000, M_DAT_INTERRUPTED_CALL = 0x00130000,
	M_DAT_CONN_QUAL_UNAVAILABLE = 0x00140000, M_DAT_RESERVED_LMR = 0x00150000,
	M_DAT_PORT_IN_USE = 0x00160000, M_DAT_COMM_NOT_SUPPORTED = 0x00170000,
	M_DAT_NOT_IMPLEMENTED = 0x3FFF0000,
};
enum m_dat_dto {
	M_DTO_SUCCESS, M_DTO_ERR_FLUSHED, M_DTO_ERR_LOCAL_LENGTH, M_DTO_ERR_LOCAL_EP,
	M_DTO_ERR_LOCAL_PROTECTION, M_DTO_ERR_BAD_RESPONSE, M_DTO_ERR_REMOTE_ACCESS,
	M_DTO_ERR_REMOTE_RESPONDER, M_DTO_ERR_TRANSPORT, M_DTO_ERR_RECEIVER_NOT_READY,
	M_DTO_ERR_PARTIAL_PACKET, M_DTO_RMR_OPERATION_FAILED, M_DTO_ERR_LOCAL_MM_ERROR,
};
/* DAT_MEM_PRIV_*_FLAG, plus the IB extension's REMOTE_ATOMIC. */
enum m_dat_priv {
	M_DAT_PRIV_LOCAL_READ = 0x01, M_DAT_PRIV_REMOTE_READ = 0x02, M_DAT_PRIV_LOCAL_WRITE = 0x10,
	M_DAT_PRIV_REMOTE_WRITE = 0x20, M_DAT_PRIV_REMOTE_ATOMIC = 0x40,
};
/* The IA a node's dat_ia_open names (struct m_dat_args.ia; struct m_dat_node.ia_open). OFA's providers. */
enum m_dat_ia { M_DAT_IA_CMA = 0, M_DAT_IA_UNKNOWN = 1, M_DAT_IA_SCM = 2 };
/* Connect private data the IAs carry (catalog G): OFA cma 56 (the IB REQ's 92 less rdma_cm's 36-byte
 * header), scm 68. The model predicts nothing beyond (DAT-EP-4). */
#define M_DAT_PDATA_CMA 56
#define M_DAT_PDATA_SCM 68
/* DAT_MEM_TYPE_* of dat_lmr_create. */
enum m_dat_mem_type { M_DAT_MEM_VIRTUAL = 0x00, M_DAT_MEM_LMR = 0x01, M_DAT_MEM_SHARED_VIRTUAL = 0x02 };

/*
 * Arguments of the uDAPL operations (struct m_op.dat). The handle acted on
 * is struct m_op.obj: the PZ (pd[]) of pz_free, the LMR (mr[]) of
 * lmr_query/free, the RMR (mw[]) of rmr_free/bind, the EP (conn[]) of
 * ep_disconnect/free and the DTOs; -1 for the creating calls.
 */
struct m_dat_args {
	uint32_t ia;        /* ia_open: the IA named (enum m_dat_ia) */
	int16_t pz;         /* lmr_create, rmr_create, ep_connect: the PZ (pd[]) */
	int16_t lmr;        /* lmr_create: the LMR it is made from (mem_type LMR, or VIRTUAL over the
	                       same buffer; -1 none); rmr_bind: the LMR bound; DTO: the local LMR
	                       the harness named (-1 none; the model judges the raw triplet) */
	int16_t ep;         /* rmr_bind: the EP the bind is posted on (conn[]) */
	int16_t peer_node;  /* ep_connect: the server's node; DTO: the node of remote */
	int16_t peer_pz;    /* ep_connect: the server side's PZ (pd[] on peer_node) */
	int16_t remote;     /* DTO: the remote LMR (mr[] on peer_node; -1 none named) */
	uint32_t priv;      /* lmr_create, rmr_bind: DAT_MEM_PRIV_* (enum m_dat_priv) */
	uint32_t mem_type;  /* lmr_create: enum m_dat_mem_type */
	uint8_t zero_based; /* lmr_create: va_type DAT_VA_TYPE_ZB */
	uint8_t prot;       /* lmr_create: enum m_prot of the buffer's pages */
	uint8_t named;      /* ep_connect: the scenario names the accepting EP too (accept=): each EP of
	                       the connection is then freed alone (struct m_dat_node.alone) */
	uint64_t len;       /* lmr_create: length; ep_connect: private data bytes; DTO: the
	                       segment length; rmr_bind: the window length */
	uint64_t offset;    /* lmr_create: the buffer's page offset; rmr_bind: the window start
	                       (the LMR's address space); DTO: offset in the local LMR */
	uint64_t roff;      /* DTO: offset in the remote LMR */
	uint32_t lkey;      /* DTO: the local triplet as a program passes it: lmr_context, */
	uint64_t laddr;     /*      virtual address */
	uint32_t rkey;      /* DTO: the remote triplet: rmr_context, */
	uint64_t raddr;     /*      target address */
};

/* A node's uDAPL state (struct m_node.dat). */
struct m_dat_node {
	uint8_t ia_open;    /* dat_ia_open succeeded on this node: 1 + enum m_dat_ia; 0 not open */
	uint8_t alone[8];   /* by conn[] index (M_MAX_CONN): dat_ep_free frees this EP alone and
	                       disconnects its peer (both ends named); 0: it frees both ends */
};

#endif
