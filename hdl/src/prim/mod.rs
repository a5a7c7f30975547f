//! Primitives shared by the blocks: byte and bit helpers, delay lines, LUT RAM, pipelined
//! divider and multiplier, a RAM's read-during-write bypass, the checksum and ICRC units, the
//! result FIFO, RoCE opcodes and their classes.

pub mod axis;
pub mod byte_mask;
pub mod byte_swap;
pub mod delay_line;
pub mod dist_ram;
pub mod frame;
pub mod div_pipe;
pub mod mul_pipe;
pub mod ram_fwd;
pub mod ones_sum;
pub mod icrc_pipe;
pub mod result_fifo;
pub mod roce_op;
pub mod roce_op_class;
