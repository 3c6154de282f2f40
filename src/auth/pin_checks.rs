//! Checking staff PINs without letting a crowd of sign-ins take the machine's memory.
//!
//! One Argon2id check needs its cost in memory (19 MiB by default) for tens of milliseconds,
//! and anyone on the LAN may ask for one without a key. So checks run on [`WORKERS`]
//! threads of their own, each reusing one buffer for every check, and at most [`QUEUE`] more
//! wait for them: a sign-in that finds no place is refused at once ([`PinChecks::reserve`]
//! answers `None`; the interface answers 503 with `Retry-After`), it never queues without end.
//! However many sign-ins arrive, PIN checks hold at most `WORKERS` buffers; a worker idle for
//! [`IDLE`] gives its buffer back.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use argon2::password_hash::{Output, PasswordHash};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

use super::pin;

/// PIN checks that run at once.
pub const WORKERS: usize = 2;
/// PIN checks that may wait for a worker; past them a sign-in is refused.
pub const QUEUE: usize = 14;
/// Seconds a refused sign-in is told to wait.
pub const RETRY_AFTER_SECS: u64 = 2;
/// How long a worker keeps its buffer without work.
const IDLE: Duration = Duration::from_secs(20);
/// The most memory one check may use (a stored hash asking for more never matches), KiB.
const MAX_M_COST: u32 = 64 * 1024;

struct Job {
    pin: String,
    phc: Option<String>,
    reply: oneshot::Sender<bool>,
    _place: OwnedSemaphorePermit,
}

/// The PIN-check workers and the places in front of them. Cheap to share: put it in an `Arc`.
pub struct PinChecks {
    places: Arc<Semaphore>,
    jobs: Mutex<Sender<Job>>,
}

/// A place among the checks running or waiting, taken before the attempt is counted, so a
/// refused sign-in counts as no try.
pub struct Place<'a> {
    checks: &'a PinChecks,
    place: OwnedSemaphorePermit,
}

impl PinChecks {
    /// Starts the workers.
    pub fn start() -> std::io::Result<Self> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..WORKERS {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("pin-check-{n}"))
                .spawn(move || work(&queue))?;
        }
        Ok(Self {
            places: Arc::new(Semaphore::new(WORKERS + QUEUE)),
            jobs: Mutex::new(jobs),
        })
    }

    /// A place for one check, or `None` when every place is taken.
    pub fn reserve(&self) -> Option<Place<'_>> {
        let place = self.places.clone().try_acquire_owned().ok()?;
        Some(Place {
            checks: self,
            place,
        })
    }
}

impl Place<'_> {
    /// Whether `pin` matches the stored `phc` (with none, a hash of the same cost is checked
    /// and the answer is no), checked on a worker.
    pub async fn check(self, pin: String, phc: Option<String>) -> bool {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            pin,
            phc,
            reply,
            _place: self.place,
        };
        let sent = self
            .checks
            .jobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(job);
        sent.is_ok() && answer.await.unwrap_or(false)
    }
}

fn work(queue: &Mutex<Receiver<Job>>) {
    let mut memory: Vec<Block> = Vec::new();
    loop {
        let next = queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv_timeout(IDLE);
        match next {
            Ok(job) => {
                let matched = verify(&job.pin, job.phc.as_deref(), &mut memory);
                let _ = job.reply.send(matched);
            }
            Err(RecvTimeoutError::Timeout) => memory = Vec::new(),
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// [`pin::verify_pin`] in `memory`, which is grown to the hash's cost and kept for the next.
fn verify(pin: &str, phc: Option<&str>, memory: &mut Vec<Block>) -> bool {
    let stored = phc.unwrap_or_else(|| pin::dummy_hash());
    matches(pin, stored, memory).unwrap_or(false) && phc.is_some()
}

fn matches(pin: &str, stored: &str, memory: &mut Vec<Block>) -> Option<bool> {
    let parsed = PasswordHash::new(stored).ok()?;
    let algorithm = Algorithm::try_from(parsed.algorithm).ok()?;
    let version = Version::try_from(parsed.version.unwrap_or(0x13)).ok()?;
    let costs = Params::try_from(&parsed).ok()?;
    let expected = parsed.hash?;
    if costs.m_cost() > MAX_M_COST {
        return None;
    }
    let params = Params::new(
        costs.m_cost(),
        costs.t_cost(),
        costs.p_cost(),
        Some(expected.len()),
    )
    .ok()?;
    let mut salt = [0u8; 64];
    let salt = parsed.salt?.decode_b64(&mut salt).ok()?;
    let blocks = params.block_count();
    if memory.len() != blocks {
        *memory = vec![Block::default(); blocks];
    }
    let mut out = vec![0u8; expected.len()];
    Argon2::new(algorithm, version, params)
        .hash_password_into_with_memory(pin.as_bytes(), salt, &mut out, &mut memory[..])
        .ok()?;
    // `Output`'s equality is constant-time.
    Some(Output::new(&out).ok()? == expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pin_is_checked_in_a_reused_buffer_with_the_same_answers_as_argon2() {
        let phc = pin::hash_pin("2468").unwrap();
        let mut memory = Vec::new();
        assert!(verify("2468", Some(&phc), &mut memory));
        let first = memory.as_ptr();
        assert!(!verify("2469", Some(&phc), &mut memory));
        assert_eq!(memory.as_ptr(), first, "the buffer is reused");
        assert!(
            !verify("00000000", None, &mut memory),
            "no member never matches"
        );
        assert!(!verify("2468", Some("not a hash"), &mut memory));
    }

    #[tokio::test]
    async fn past_the_workers_and_the_queue_a_check_finds_no_place() {
        let checks = PinChecks::start().unwrap();
        let held: Vec<_> = (0..WORKERS + QUEUE)
            .map(|_| checks.reserve().expect("a place"))
            .collect();
        assert!(checks.reserve().is_none(), "every place is taken");
        drop(held);
        let phc = pin::hash_pin("1357").unwrap();
        let place = checks.reserve().expect("places come back");
        assert!(place.check("1357".into(), Some(phc)).await);
    }
}
