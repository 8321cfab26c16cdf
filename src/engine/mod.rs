//! The step engine: how a step's code gets executed until it proves itself. Today that is the
//! settle window (re-execution on transient failures); generation and healing will live here too.
//!
//! Main types: [`SettleWindow`] and the [`settle`] loop.

mod settle;

pub(crate) use settle::{SettleWindow, SystemClock, settle};
