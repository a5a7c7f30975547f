//! The host interface between the PCIe shim and the core (issue 16, item 3): the DMA streams of
//! the core and of the host queue engine share the shim's read and write engines. `dma_rd_mux`
//! puts both requesters' read requests on the shim's one request port and sends each request's
//! data back to the requester that asked; `dma_wr_mux` puts both writers' commands and
//! payloads on the shim's write engine, one whole write at a time. `host_queues` is the host queue engine: send queues of work
//! descriptors and a completion queue in host memory.

pub mod dma_rd_mux;
pub mod dma_wr_mux;
pub mod host_queues;
