//! Golden models.
