//! The log's queue: a request appends its formatted line to a buffer in memory and goes on;
//! a background thread wakes every [`FLUSH_EVERY`] and writes what gathered to the log's
//! destination (standard error or the rotated file, see [`crate::logfile`]), in runs of whole
//! lines of up to a size the destination sets: one write per run, not per line.
//!
//! So a request never waits for the terminal, a pipe or the disk, and never wakes another
//! thread either (a wake per line cost more than the line at tens of thousands of requests
//! a second). When more than [`BUFFER_MAX`] bytes wait, lines are dropped, never waited for,
//! and counted; the count is reported. Dropping the [`FlushGuard`] writes what is left.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use tracing_subscriber::fmt::MakeWriter;

/// How often the background thread writes what gathered.
pub const FLUSH_EVERY: Duration = Duration::from_millis(50);
/// Most bytes waiting to be written before lines are dropped.
pub const BUFFER_MAX: usize = 8 * 1024 * 1024;

struct Shared {
    buffer: Mutex<Vec<u8>>,
    dropped: AtomicU64,
    stop: AtomicBool,
    /// Woken only to stop (the thread otherwise sleeps its period out).
    wake: Condvar,
}

/// Appends lines to the queue; cheap to clone (one per log event).
#[derive(Clone)]
pub struct Queue {
    shared: Arc<Shared>,
}

/// How many lines were dropped so far because the log could not keep up.
#[derive(Clone)]
pub struct Dropped(Arc<Shared>);

impl Dropped {
    pub fn dropped_lines(&self) -> u64 {
        self.0.dropped.load(Ordering::Relaxed)
    }
}

/// Writes what is left and stops the background thread when dropped.
pub struct FlushGuard {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for FlushGuard {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        self.shared.wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts the background thread writing to `out`, at most `run_bytes` of whole lines a write
/// (a longer line goes alone).
pub fn spawn(
    mut out: Box<dyn Write + Send>,
    run_bytes: usize,
) -> std::io::Result<(Queue, Dropped, FlushGuard)> {
    let shared = Arc::new(Shared {
        buffer: Mutex::new(Vec::with_capacity(64 * 1024)),
        dropped: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        wake: Condvar::new(),
    });
    let worker = shared.clone();
    let thread = std::thread::Builder::new()
        .name("log-writer".into())
        .spawn(move || {
            let mut batch = Vec::with_capacity(64 * 1024);
            loop {
                let stopping = {
                    let buffer = worker.buffer.lock().unwrap_or_else(|e| e.into_inner());
                    let (mut buffer, _) = worker
                        .wake
                        .wait_timeout_while(buffer, FLUSH_EVERY, |_| {
                            !worker.stop.load(Ordering::Acquire)
                        })
                        .unwrap_or_else(|e| e.into_inner());
                    std::mem::swap(&mut *buffer, &mut batch);
                    worker.stop.load(Ordering::Acquire)
                };
                // Written line by line, a busy second's thousands of lines cost a write each:
                // a thousandth of a second of this thread every period, taken from whichever
                // request thread shared its CPU. The rotated file counts its size per write,
                // so the runs are kept short enough for its limit (see `logfile`).
                for run in runs_of_lines(&batch, run_bytes) {
                    let _ = out.write_all(run);
                }
                let _ = out.flush();
                batch.clear();
                if stopping {
                    return;
                }
            }
        })?;
    Ok((
        Queue {
            shared: shared.clone(),
        },
        Dropped(shared.clone()),
        FlushGuard {
            shared,
            thread: Some(thread),
        },
    ))
}

/// `batch` cut after a newline into runs of at most `most` bytes; a line longer than that is
/// a run of its own. Together the runs are the batch.
fn runs_of_lines(batch: &[u8], most: usize) -> impl Iterator<Item = &[u8]> {
    let mut rest = batch;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = if rest.len() <= most {
            rest.len()
        } else {
            let end_of_line = |b: &u8| *b == b'\n';
            match rest[..most].iter().rposition(end_of_line) {
                Some(at) => at + 1,
                None => rest
                    .iter()
                    .position(end_of_line)
                    .map_or(rest.len(), |at| at + 1),
            }
        };
        let (run, tail) = rest.split_at(cut);
        rest = tail;
        Some(run)
    })
}

impl Queue {
    /// Appends one whole line (ending in a newline), or drops and counts it when the buffer
    /// is full.
    pub fn append(&self, line: &[u8]) {
        let mut buffer = self.shared.buffer.lock().unwrap_or_else(|e| e.into_inner());
        if buffer.len() + line.len() > BUFFER_MAX {
            self.shared.dropped.fetch_add(1, Ordering::Relaxed);
        } else {
            buffer.extend_from_slice(line);
        }
    }
}

/// The queue that takes the request log's lines as they are, already formatted (see
/// [`crate::api`]'s request log), when the program has one with plain lines.
static PLAIN: OnceLock<Queue> = OnceLock::new();

/// Sends the request log's lines straight to `queue`, formatted as the log's own formatter
/// writes them without colours, instead of through it: one line per request is the log's
/// bulk, and the general formatter cost a twentieth of a read. Call once, only for a log
/// without colours; without it, request lines go through `tracing` like every other.
pub fn take_request_lines(queue: Queue) {
    let _ = PLAIN.set(queue);
}

/// Where request lines go directly, if anywhere.
pub fn request_lines() -> Option<&'static Queue> {
    PLAIN.get()
}

impl Write for Queue {
    /// Takes one formatted line (the log's formatter writes each event at once).
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        self.append(line);
        Ok(line.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Queue {
    type Writer = Queue;

    fn make_writer(&'a self) -> Queue {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<Vec<u8>>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_reach_the_destination_in_runs_and_the_rest_is_written_at_the_end() {
        let sink = Sink::default();
        let (queue, dropped, guard) = spawn(Box::new(sink.clone()), 8).expect("a thread");
        queue.make_writer().write_all(b"one\n").unwrap();
        queue.make_writer().write_all(b"two\n").unwrap();
        std::thread::sleep(FLUSH_EVERY * 3);
        queue.make_writer().write_all(b"three\n").unwrap();
        drop(guard);
        let written = sink.0.lock().unwrap().clone();
        assert_eq!(written, vec![b"one\ntwo\n".to_vec(), b"three\n".to_vec()]);
        assert_eq!(dropped.dropped_lines(), 0);
    }

    #[test]
    fn runs_end_at_a_line_s_end_and_pass_their_size_only_for_a_longer_line() {
        let batch = b"ab\ncd\nlong line\ne\n\nf";
        let runs: Vec<&[u8]> = runs_of_lines(batch, 6).collect();
        assert_eq!(runs, [&b"ab\ncd\n"[..], b"long line\n", b"e\n\nf"]);
        assert_eq!(runs.concat(), batch);
        assert_eq!(runs_of_lines(b"", 6).count(), 0);
        let whole: Vec<&[u8]> = runs_of_lines(batch, 1 << 16).collect();
        assert_eq!(whole, [&batch[..]]);
    }

    #[test]
    fn lines_past_the_buffer_are_dropped_and_counted_never_waited_for() {
        // A queue whose writer thread never comes: the buffer only fills.
        let shared = Arc::new(Shared {
            buffer: Mutex::new(vec![b'x'; BUFFER_MAX - 4]),
            dropped: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            wake: Condvar::new(),
        });
        let queue = Queue {
            shared: shared.clone(),
        };
        queue.make_writer().write_all(b"ok\n").unwrap();
        queue.make_writer().write_all(b"too long\n").unwrap();
        assert_eq!(Dropped(shared.clone()).dropped_lines(), 1);
        assert_eq!(shared.buffer.lock().unwrap().len(), BUFFER_MAX - 1);
    }
}
