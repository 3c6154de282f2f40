//! Why a domain operation was refused. Each variant has one stable error code.

use thiserror::Error;

use crate::contract::Code;

/// A request that is well-formed but clashes with the rules or with the current state.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum DomainError {
    #[error("{field}: {message}")]
    Validation { field: String, message: String },
    #[error("no {kind} with id {id}")]
    NotFound { kind: &'static str, id: i64 },
    #[error("categoryId {0} does not name a category")]
    UnknownCategory(i64),
    #[error("petId {0} does not name a pet")]
    UnknownPet(i64),
    /// A pet named in a parameter other than `petId` (the labels' `ids`).
    #[error("{field} names pet {id}, which does not exist")]
    UnknownPetIn { field: &'static str, id: i64 },
    #[error("pet {pet_id} has {available} in stock; {requested} requested")]
    InsufficientStock {
        pet_id: i64,
        available: i64,
        requested: i64,
    },
    #[error("pet {pet_id} is {status} and cannot be ordered")]
    PetNotAvailable { pet_id: i64, status: String },
    #[error("order {0} is already complete")]
    OrderAlreadyComplete(i64),
    #[error("category {0} still has pets; move or delete them first")]
    CategoryInUse(i64),
    #[error("pet {0} has open orders; complete or cancel them first")]
    PetHasOpenOrders(i64),
    #[error("a category named \"{0}\" already exists")]
    DuplicateName(String),
    #[error("a staff member named \"{0}\" already exists")]
    DuplicateStaffName(String),
    #[error("{0}")]
    LastAdmin(&'static str),
    #[error("{field} {value:?} is already used by another pet{}", pet_id.map(|id| format!(" (pet {id})")).unwrap_or_default())]
    DuplicateCode {
        field: &'static str,
        value: String,
        pet_id: Option<i64>,
    },
    #[error("a supplier named \"{0}\" already exists")]
    DuplicateSupplierName(String),
    #[error("supplierId {0} does not name a supplier")]
    UnknownSupplier(i64),
    #[error("supplier {0} is named by pets or purchase orders; change or delete them first")]
    SupplierInUse(i64),
    #[error("purchase order {order_id}: {left} of pet {pet_id} may still be received; {requested} arrived")]
    OverReceipt {
        order_id: i64,
        pet_id: i64,
        left: i64,
        requested: i64,
    },
    #[error("purchase order {id} is {status} and can no longer change")]
    PurchaseOrderClosed { id: i64, status: &'static str },
    #[error("stocktake {0} is already applied and can no longer change")]
    StocktakeClosed(i64),
    #[error("the record has changed since it was read (If-Match does not match its ETag)")]
    PreconditionFailed,
    #[error("this Idempotency-Key was already used with a different request body")]
    IdempotencyKeyReused,
    #[error("a request with this Idempotency-Key is still being processed")]
    IdempotencyInProgress,
    /// A change that clashed with another made at the same moment.
    #[error("{0}")]
    Conflict(String),
    /// Payments that do not cover a sale's total, or that overpay other than in cash.
    #[error("{0}")]
    PaymentMismatch(String),
    #[error("pet {pet_id}: {left} of the sale's units may still be refunded; {requested} asked")]
    RefundExceedsSale {
        pet_id: i64,
        left: i64,
        requested: i64,
    },
    #[error("till {0:?} already has an open shift; close it first")]
    ShiftOpen(String),
    #[error("shift {0} is already closed")]
    ShiftClosed(i64),
    #[error("pet {pet_id} is on hold until the end of {until}: {reason}")]
    OnHold {
        pet_id: i64,
        until: String,
        reason: String,
    },
    #[error("pet {0} is an individual animal: the sale needs the buyer's customer.name and a phone or an email")]
    BuyerRequired(i64),
    /// The refusal of one line of a request (a sale's), counted from 0; the answer names it
    /// with `line` beside `code`, `message` and `status`.
    #[error("line {line}: {error}")]
    AtLine {
        line: usize,
        error: Box<DomainError>,
    },
}

impl DomainError {
    /// A validation failure on `field`.
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        Self::Validation {
            field: field.to_owned(),
            message: message.into(),
        }
    }

    /// This error, as the refusal of line `line` of the request.
    pub fn at_line(self, line: usize) -> Self {
        Self::AtLine {
            line,
            error: Box::new(self),
        }
    }

    /// The line of the request this error refuses, if it refuses one.
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::AtLine { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// The error itself, without the line it names.
    pub fn inner(&self) -> &DomainError {
        match self {
            Self::AtLine { error, .. } => error.inner(),
            other => other,
        }
    }

    /// The interface's code for this error (which fixes its status); the match is
    /// exhaustive, so a new variant cannot be left without one.
    pub fn code(&self) -> Code {
        match self {
            Self::AtLine { error, .. } => error.code(),
            Self::PaymentMismatch(_) => Code::PaymentMismatch,
            Self::OnHold { .. } => Code::OnHold,
            Self::BuyerRequired(_) => Code::BuyerRequired,
            Self::RefundExceedsSale { .. } => Code::RefundExceedsSale,
            Self::ShiftOpen(_) => Code::ShiftOpen,
            Self::ShiftClosed(_) => Code::ShiftClosed,
            Self::Validation { .. } => Code::ValidationFailed,
            Self::NotFound { .. } => Code::NotFound,
            Self::UnknownCategory(_) => Code::UnknownCategory,
            Self::UnknownPet(_) | Self::UnknownPetIn { .. } => Code::UnknownPet,
            Self::InsufficientStock { .. } => Code::InsufficientStock,
            Self::PetNotAvailable { .. } => Code::PetNotAvailable,
            Self::OrderAlreadyComplete(_) => Code::OrderAlreadyComplete,
            Self::CategoryInUse(_) => Code::CategoryInUse,
            Self::PetHasOpenOrders(_) => Code::PetHasOpenOrders,
            Self::DuplicateName(_)
            | Self::DuplicateStaffName(_)
            | Self::DuplicateSupplierName(_) => Code::DuplicateName,
            Self::UnknownSupplier(_) => Code::ValidationFailed,
            Self::OverReceipt { .. } => Code::OverReceipt,
            Self::PurchaseOrderClosed { .. } => Code::PurchaseOrderClosed,
            Self::SupplierInUse(_) => Code::Conflict,
            Self::LastAdmin(_) => Code::Conflict,
            Self::DuplicateCode { .. } => Code::DuplicateCode,
            Self::StocktakeClosed(_) => Code::StocktakeClosed,
            Self::PreconditionFailed => Code::PreconditionFailed,
            Self::IdempotencyKeyReused => Code::IdempotencyKeyReused,
            Self::IdempotencyInProgress | Self::Conflict(_) => Code::Conflict,
        }
    }
}
