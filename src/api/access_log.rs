//! The request log's line: `{time}  INFO {method} {path} {status} {ms}ms key={name}`, one per
//! request, exactly as the log's formatter writes an event without colours.
//!
//! When the program hands the log's queue over ([`crate::logqueue::take_request_lines`]),
//! the line is written here and appended to the queue; otherwise (colours on a terminal,
//! the desktop app, tests) it goes through `tracing` like any other event. Either way the
//! `petstore::request` target's filter decides whether it is written.

use std::fmt::Write;
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};

/// One request, as logged.
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub status: u16,
    pub took: Duration,
    pub key: &'a str,
    /// Refusals left out of the log since the last one logged (see the middleware).
    pub unlogged: u64,
}

/// Logs one request.
pub fn record(request: &Request<'_>) {
    if !tracing::enabled!(target: "petstore::request", tracing::Level::INFO) {
        return;
    }
    match crate::logqueue::request_lines() {
        Some(queue) => {
            let mut line = String::with_capacity(96 + request.path.len());
            write_line(&mut line, Utc::now(), request);
            queue.append(line.as_bytes());
        }
        None => {
            let mut message = String::with_capacity(64 + request.path.len());
            write_message(&mut message, request);
            tracing::info!(target: "petstore::request", "{message}");
        }
    }
}

/// The whole line, newline included.
fn write_line(out: &mut String, at: DateTime<Utc>, request: &Request<'_>) {
    // `2026-11-23T02:03:59.951720Z`, as the log's formatter writes the time.
    out.push_str(&at.to_rfc3339_opts(SecondsFormat::Micros, true));
    out.push_str("  INFO ");
    write_message(out, request);
    out.push('\n');
}

/// `GET /pets 200 0.9ms key=admin`, and ` (+N refusals not logged)` when some were.
fn write_message(out: &mut String, request: &Request<'_>) {
    out.push_str(request.method);
    out.push(' ');
    push_escaped(out, request.path);
    out.push(' ');
    out.push_str(itoa::Buffer::new().format(request.status));
    out.push(' ');
    // Tenths of a millisecond, rounded.
    let tenths = (request.took.as_micros() + 50) / 100;
    out.push_str(itoa::Buffer::new().format(tenths / 10));
    out.push('.');
    out.push_str(itoa::Buffer::new().format(tenths % 10));
    out.push_str("ms key=");
    push_escaped(out, request.key);
    if request.unlogged > 0 {
        out.push_str(" (+");
        out.push_str(itoa::Buffer::new().format(request.unlogged));
        out.push_str(" refusals not logged)");
    }
}

/// Control characters (a line break or a terminal's escape in a key's name) are written as
/// escapes, so one request is always one line and never talks to the terminal.
fn push_escaped(out: &mut String, text: &str) {
    if !text.chars().any(char::is_control) {
        out.push_str(text);
        return;
    }
    for ch in text.chars() {
        if ch.is_control() {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(ch));
        } else {
            out.push(ch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(key: &str, unlogged: u64, micros: u64) -> Request<'_> {
        Request {
            method: "GET",
            path: "/pets",
            status: 200,
            took: Duration::from_micros(micros),
            key,
            unlogged,
        }
    }

    #[test]
    fn a_line_reads_as_the_log_formatter_writes_an_event() {
        let at = DateTime::parse_from_rfc3339("2026-11-03T02:03:59.951720Z")
            .unwrap()
            .with_timezone(&Utc);
        let mut line = String::new();
        write_line(&mut line, at, &request("admin", 0, 949));
        assert_eq!(
            line,
            "2026-11-03T02:03:59.951720Z  INFO GET /pets 200 0.9ms key=admin\n"
        );
    }

    #[test]
    fn durations_are_rounded_to_a_tenth_of_a_millisecond() {
        for (micros, shown) in [
            (0, "0.0ms"),
            (49, "0.0ms"),
            (50, "0.1ms"),
            (12_345, "12.3ms"),
        ] {
            let mut message = String::new();
            write_message(&mut message, &request("-", 0, micros));
            assert!(
                message.contains(&format!(" {shown} ")),
                "{micros} µs: {message}"
            );
        }
    }

    #[test]
    fn refusals_left_out_are_counted_at_the_end() {
        let mut message = String::new();
        write_message(&mut message, &request("-", 12, 100));
        assert_eq!(
            message,
            "GET /pets 200 0.1ms key=- (+12 refusals not logged)"
        );
    }

    #[test]
    fn control_characters_in_a_name_are_escaped_so_a_request_stays_one_line() {
        let mut message = String::new();
        write_message(&mut message, &request("till\n\u{1b}[31mred", 0, 100));
        assert_eq!(message, "GET /pets 200 0.1ms key=till\\u{a}\\u{1b}[31mred");
    }
}
