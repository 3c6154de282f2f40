//! Doing a change at most once: a client names a request with a key of its own, and a
//! repeat of that request gets the first answer back instead of acting again.

/// One request made at most once: the caller's key id, the client's name for the request,
/// and a hash of what was asked (the same name with another request is refused).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Scope {
    pub key_id: i64,
    pub key: String,
    pub request_hash: String,
}

/// What a request made at most once answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer<T> {
    /// It acted now; this is the result.
    Fresh(T),
    /// It had acted before; this is the first answer (its JSON), exactly as recorded then.
    Replayed(String),
}
