//! RTL modules.
