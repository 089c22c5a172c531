//! One module per `git guard` command; the only layer that opens the terminal, writes
//! to the repository, or calls `render`.

pub mod agent_hook;
pub mod allow;
pub mod check;
pub mod ci;
pub mod demo;
pub mod doctor;
pub mod hook;
pub mod init;
pub mod install;
pub mod ledger;
pub mod log;
pub mod man;
pub mod r#override;
pub mod run;
