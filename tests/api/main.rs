//! Black-box tests: the real server on port 0, a fresh SQLite file per test, plain HTTP.
#![allow(clippy::unwrap_used)]

mod support;

mod admin_keys;
mod animal_report;
mod animals;
mod backups;
mod bounds;
mod care;
mod categories;
mod codes;
mod concurrency;
mod deprecation;
mod durability;
mod errors;
mod etags;
mod events;
mod hardening;
mod headers;
mod hostile;
mod hosts;
mod idempotency;
mod inventory;
mod labels;
mod members;
mod openapi;
mod orders;
mod paging;
mod pairing;
mod pets;
mod purchase_orders;
mod rate_limits;
mod receipts;
mod reports;
mod roles;
mod sales;
mod sales_report;
mod shell;
mod shifts;
mod smoke;
mod staff;
mod stocktakes;
mod suppliers;
mod tax;
mod tls;
mod transfer;
