//! A sale's printed receipt: what it says, written once as rows, and those rows as plain text
//! for an ESC/POS printer (at most [`WIDTH`] characters a line). The HTML for 80 mm paper
//! renders the same rows ([`super::receipt_html`]).
//!
//! A receipt shows the store's name, the sale's number, its local date and time (the store's
//! time zone), the till, each line (quantity × unit price, discount), the subtotal, discount,
//! tax, total, payments, change, and each refund with its lines. Money is written in the
//! store's currency with its decimal places ([`super::money::to_decimal`]). Nothing of the
//! customer is printed.

use std::collections::HashMap;

use chrono::DateTime;

use super::money;
use super::payment::Method;
use super::profile::StoreProfile;
use super::refund::Refund;
use super::sale_record::Sale;

/// Characters in one line of a plain-text receipt (80 mm paper, font A).
pub const WIDTH: usize = 42;

/// How a row of label and amount is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    /// Under a line: indented.
    Detail,
    /// The total: stands out.
    Strong,
}

/// One row of a receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// The store's name, centred.
    Title(String),
    /// A line of text: the sale's number, date and till, a pet's name, a closing word.
    Text(String),
    /// A label with an amount at the right edge.
    Pair {
        label: String,
        amount: String,
        style: Style,
    },
    /// A dividing line.
    Rule,
}

/// A receipt: its title (the store and the sale) and its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    pub title: String,
    pub rows: Vec<Row>,
}

fn method_name(method: Method) -> &'static str {
    match method {
        Method::Cash => "Cash",
        Method::Card => "Card",
        Method::Other => "Other",
    }
}

/// A stored UTC time as the store's local date and time, with its zone's abbreviation.
fn local(profile: &StoreProfile, at: &str) -> String {
    match DateTime::parse_from_rfc3339(at) {
        Ok(at) => at
            .with_timezone(&profile.tz())
            .format("%Y-%m-%d %H:%M %Z")
            .to_string(),
        Err(_) => at.to_owned(),
    }
}

/// The receipt of `sale` with its `refunds`, for the store of `profile`.
pub fn build(profile: &StoreProfile, sale: &Sale, refunds: &[Refund]) -> Receipt {
    let decimals = money::decimals(&profile.currency);
    let cash = |minor: i64| money::to_decimal(minor, decimals);
    let pair = |label: String, minor: i64, style: Style| Row::Pair {
        label,
        amount: cash(minor),
        style,
    };
    let mut rows = vec![
        Row::Title(profile.name.clone()),
        Row::Text(format!("Sale {}", sale.number)),
        Row::Text(local(profile, &sale.sold_at)),
    ];
    if let Some(till) = &sale.till {
        rows.push(Row::Text(format!("Till {till}")));
    }
    rows.push(Row::Rule);
    for line in &sale.lines {
        rows.push(Row::Text(line.name.clone()));
        let label = format!("{} x {}", line.quantity, cash(line.unit_price));
        rows.push(pair(label, line.unit_price * line.quantity, Style::Detail));
        if line.discount > 0 {
            rows.push(pair("Discount".into(), -line.discount, Style::Detail));
        }
    }
    rows.push(Row::Rule);
    rows.push(pair("Subtotal".into(), sale.subtotal, Style::Plain));
    if sale.discount > 0 {
        rows.push(pair("Discount".into(), -sale.discount, Style::Plain));
    }
    // Prices that include tax leave the total at the discounted subtotal.
    let included = sale.total == sale.subtotal - sale.discount;
    let tax = if included { "Tax included" } else { "Tax" };
    rows.push(pair(tax.into(), sale.tax, Style::Plain));
    let total = format!("TOTAL {}", profile.currency);
    rows.push(pair(total, sale.total, Style::Strong));
    for payment in &sale.payments {
        rows.push(pair(
            method_name(payment.method).into(),
            payment.amount,
            Style::Plain,
        ));
    }
    if sale.change > 0 {
        rows.push(pair("Change".into(), sale.change, Style::Plain));
    }
    if !refunds.is_empty() {
        let names: HashMap<i64, &str> = sale
            .lines
            .iter()
            .map(|line| (line.pet_id, line.name.as_str()))
            .collect();
        rows.push(Row::Rule);
        for refund in refunds {
            rows.push(Row::Text(format!(
                "Refund {}",
                local(profile, &refund.created_at)
            )));
            for line in &refund.lines {
                let name = names.get(&line.pet_id).copied().unwrap_or("");
                let label = format!("{} x {name}", line.quantity);
                rows.push(pair(label, -line.amount, Style::Detail));
            }
            let label = format!("Paid back, {}", method_name(refund.method).to_lowercase());
            rows.push(pair(label, -refund.amount, Style::Plain));
        }
        rows.push(pair("Refunded".into(), -sale.refunded, Style::Strong));
    }
    rows.push(Row::Rule);
    rows.push(Row::Text("Thank you".into()));
    Receipt {
        title: format!("{} sale {}", profile.name, sale.number),
        rows,
    }
}

/// `text` cut into lines of at most `width` characters: at spaces where it can, inside a
/// word longer than a line where it must. Control characters become spaces.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in clean.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        let used = current.chars().count();
        if used > 0 && used + 1 + word.len() <= width {
            current.push(' ');
            current.extend(word.iter());
            continue;
        }
        if used > 0 {
            lines.push(std::mem::take(&mut current));
        }
        while word.len() > width {
            lines.push(word.drain(..width).collect());
        }
        current = word.into_iter().collect();
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

/// A label and an amount on one line of `width`, the amount at the right edge; a label too
/// long for it wraps, and the amount stands on its last line.
fn pair_lines(label: &str, amount: &str, indent: usize, width: usize) -> Vec<String> {
    let amount_len = amount.chars().count();
    let room = width.saturating_sub(amount_len + 1 + indent).max(1);
    let mut lines: Vec<String> = wrap(label, room)
        .into_iter()
        .map(|l| format!("{}{l}", " ".repeat(indent)))
        .collect();
    let last = lines.pop().unwrap_or_default();
    let gap = width
        .saturating_sub(last.chars().count() + amount_len)
        .max(1);
    lines.push(format!("{last}{}{amount}", " ".repeat(gap)));
    lines
}

/// The receipt as plain text: lines of at most [`WIDTH`] characters, each ended by `\n`.
pub fn to_text(receipt: &Receipt) -> String {
    let mut out = String::new();
    let mut push = |line: &str| {
        out.push_str(line.trim_end());
        out.push('\n');
    };
    for row in &receipt.rows {
        match row {
            Row::Title(title) => {
                for line in wrap(title, WIDTH) {
                    let pad = (WIDTH - line.chars().count()) / 2;
                    push(&format!("{}{line}", " ".repeat(pad)));
                }
            }
            Row::Text(text) => wrap(text, WIDTH).iter().for_each(|l| push(l)),
            Row::Pair {
                label,
                amount,
                style,
            } => {
                let indent = if *style == Style::Detail { 2 } else { 0 };
                for line in pair_lines(label, amount, indent, WIDTH) {
                    push(&line);
                }
            }
            Row::Rule => push(&"-".repeat(WIDTH)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_wrap_at_spaces_and_a_word_longer_than_a_line_is_cut() {
        assert_eq!(wrap("Kibble for big dogs", 10), ["Kibble for", "big dogs"]);
        assert_eq!(wrap("abcdefghijkl xy", 5), ["abcde", "fghij", "kl xy"]);
        assert_eq!(wrap("", 5), [""]);
        assert_eq!(wrap("tab\there", 20), ["tab here"]);
        assert_eq!(wrap("ééééééé", 3), ["ééé", "ééé", "é"]);
    }

    #[test]
    fn an_amount_stands_at_the_right_edge_on_the_last_line_of_its_label() {
        assert_eq!(pair_lines("Cash", "50.00", 0, 20), ["Cash           50.00"]);
        let long = pair_lines("a very long label indeed", "1.00", 2, 20);
        assert!(long.iter().all(|l| l.chars().count() <= 20), "{long:?}");
        assert!(long.last().unwrap().ends_with(" 1.00"));
        assert!(long.iter().all(|l| l.starts_with("  ")));
    }
}
