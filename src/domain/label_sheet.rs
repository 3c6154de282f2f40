//! A sheet of shelf labels drawn as one SVG: A4 pages (210 × 297 mm) stacked top to bottom,
//! each holding three columns of eight 70 × 37 mm places (the common 24-up label sheet). A
//! label shows the pet's name, its price and its barcode with the code written under it.
//! Copies of a pet's label follow each other. The document's units are millimetres; every
//! piece of text is escaped, and characters XML cannot carry are replaced, so a name can
//! never break the document. Pure: labels in, text out.
//!
//! A barcode is drawn with modules no narrower than [`MODULE_MIN`], so that a reader can
//! still tell one module from two. A symbol too long for one place at that width (a Code 128
//! of a SKU over 29 characters) makes its label as wide as two places side by side, or three
//! (a whole row): such a label never runs over the end of a row, so one place may stay empty
//! before it.

use std::fmt::Write;

use super::label::{Label, Symbol};
use super::text::escape_markup;

/// A4, in millimetres.
pub const PAGE_WIDTH: f64 = 210.0;
/// See [`PAGE_WIDTH`].
pub const PAGE_HEIGHT: f64 = 297.0;
/// Labels across a page.
pub const COLUMNS: usize = 3;
/// Labels down a page.
pub const ROWS: usize = 8;
/// Labels on one page.
pub const PER_PAGE: usize = COLUMNS * ROWS;
const LABEL_WIDTH: f64 = 70.0;
const LABEL_HEIGHT: f64 = 37.0;
/// The half millimetre a 24-up sheet leaves above its first row.
const TOP: f64 = (PAGE_HEIGHT - ROWS as f64 * LABEL_HEIGHT) / 2.0;
/// Left and right margin inside a label.
const INSET: f64 = 3.0;
/// A module's width at a symbol's nominal size (EAN's 100 %), in millimetres.
const MODULE_MAX: f64 = 0.33;
/// The narrowest module drawn, in millimetres: two dots of a 300 dpi printer. Narrower
/// modules print (and render) as one dot or two at random, and stop decoding.
pub const MODULE_MIN: f64 = 0.17;
const BAR_TOP: f64 = 15.0;
const BAR_HEIGHT: f64 = 14.0;
/// Characters of a name that fit one line; longer names end in an ellipsis.
const NAME_CHARS: usize = 30;

/// Pages a sheet of `places` places takes.
pub fn pages(places: usize) -> usize {
    places.div_ceil(PER_PAGE).max(1)
}

/// How many places side by side a label with `symbol` takes: one, or as many as its bars
/// need at [`MODULE_MIN`] with their quiet zones, at most a whole row.
pub fn places_for(symbol: &Symbol) -> usize {
    let need = span(symbol) as f64 * MODULE_MIN;
    (1..COLUMNS)
        .find(|&n| n as f64 * LABEL_WIDTH - 2.0 * INSET >= need)
        .unwrap_or(COLUMNS)
}

/// Where each of `widths` (labels' widths in places, in order) goes: its place number from
/// the sheet's first (page after page, row by row, left to right). A label never runs over
/// the end of a row; one that would starts the next row. Also the places used in all.
pub fn layout(widths: impl IntoIterator<Item = usize>) -> (Vec<usize>, usize) {
    let mut at = 0;
    let places = widths
        .into_iter()
        .map(|width| {
            if at % COLUMNS + width > COLUMNS {
                at = at.next_multiple_of(COLUMNS);
            }
            let place = at;
            at += width;
            place
        })
        .collect();
    (places, at)
}

/// The sheet: `copies` of each label, in order.
pub fn draw(labels: &[Label], copies: usize) -> String {
    let count = labels.len() * copies;
    let widths: Vec<usize> = labels.iter().map(|l| places_for(&l.symbol)).collect();
    let (places, used) = layout(
        widths
            .iter()
            .flat_map(|&width| std::iter::repeat_n(width, copies)),
    );
    let height = pages(used) as f64 * PAGE_HEIGHT;
    let mut svg = String::with_capacity(600 + count * 900);
    let _ = write!(
        svg,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{PAGE_WIDTH}mm\" \
         height=\"{height}mm\" viewBox=\"0 0 {PAGE_WIDTH} {height}\" \
         font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">\n\
         <title>Shelf labels</title>\n\
         <rect width=\"{PAGE_WIDTH}\" height=\"{height}\" fill=\"#fff\"/>\n"
    );
    let copies_of = labels
        .iter()
        .zip(&widths)
        .flat_map(|label| std::iter::repeat_n(label, copies));
    for ((label, &width), place) in copies_of.zip(places) {
        let (page, at) = (place / PER_PAGE, place % PER_PAGE);
        let x = (at % COLUMNS) as f64 * LABEL_WIDTH;
        let y = page as f64 * PAGE_HEIGHT + TOP + (at / COLUMNS) as f64 * LABEL_HEIGHT;
        draw_label(&mut svg, label, x, y, width as f64 * LABEL_WIDTH);
    }
    svg.push_str("</svg>\n");
    svg
}

fn draw_label(svg: &mut String, label: &Label, x: f64, y: f64, width: f64) {
    let _ = write!(svg, "<g transform=\"translate({x} {y})\">");
    let _ = write!(
        svg,
        "<text x=\"{INSET}\" y=\"6.5\" font-size=\"3.6\">{}</text>",
        escape(&shorten(&label.name, NAME_CHARS))
    );
    if let Some(price) = &label.price {
        let _ = write!(
            svg,
            "<text x=\"{INSET}\" y=\"12.5\" font-size=\"5\" font-weight=\"bold\">{}</text>",
            escape(price)
        );
    }
    draw_symbol(svg, &label.symbol, width);
    svg.push_str("</g>\n");
}

/// A symbol's modules with its quiet zones.
fn span(symbol: &Symbol) -> usize {
    symbol.modules.len() + 2 * symbol.symbology.quiet_zone()
}

/// The bars, centred across a label `width` wide, with their quiet zones kept clear; one
/// path of rectangles in module units, scaled to the module's width.
fn draw_symbol(svg: &mut String, symbol: &Symbol, width: f64) {
    let module = (MODULE_MAX).min((width - 2.0 * INSET) / span(symbol) as f64);
    let left = (width - symbol.modules.len() as f64 * module) / 2.0;
    let _ = write!(
        svg,
        "<path fill=\"#000\" shape-rendering=\"crispEdges\" \
         transform=\"translate({left:.4} {BAR_TOP}) scale({module:.5} 1)\" d=\""
    );
    let mut start = None;
    for (i, dark) in symbol.modules.iter().copied().chain([false]).enumerate() {
        match (dark, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let _ = write!(svg, "M{s} 0h{}v{BAR_HEIGHT}h-{}z", i - s, i - s);
                start = None;
            }
            _ => {}
        }
    }
    let _ = write!(
        svg,
        "\"/><text x=\"{}\" y=\"{}\" font-size=\"3\" text-anchor=\"middle\" \
         letter-spacing=\"0.3\">{}</text>",
        width / 2.0,
        BAR_TOP + BAR_HEIGHT + 3.5,
        escape(&symbol.text)
    );
}

/// `text` cut to `max` characters, an ellipsis marking a cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(max - 1).collect();
    short.push('…');
    short
}

/// `text` as XML character data or an attribute value: characters XML 1.0 cannot carry
/// replaced (line breaks and tabs by a space, the rest by U+FFFD), then the markup escaped
/// as on the receipts ([`escape_markup`]).
pub fn escape(text: &str) -> String {
    let carried: String = text
        .chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => ' ',
            c if (c as u32) < 0x20 || matches!(c, '\u{FFFE}' | '\u{FFFF}') => '\u{FFFD}',
            c => c,
        })
        .collect();
    escape_markup(&carried)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::label::symbol;

    fn label(name: &str) -> Label {
        Label {
            name: name.to_owned(),
            price: Some("27.50 USD".into()),
            symbol: symbol(Some("96385074"), None).unwrap().unwrap(),
        }
    }

    #[test]
    fn markup_in_a_name_is_escaped_and_control_characters_replaced() {
        assert_eq!(
            escape("<b>Tom & \"Jerry's\"</b>\u{1}\u{FFFF}"),
            "&lt;b&gt;Tom &amp; &quot;Jerry&#39;s&quot;&lt;/b&gt;\u{FFFD}\u{FFFD}"
        );
        let svg = draw(&[label("</text><script>alert(1)</script>")], 1);
        assert!(!svg.contains("<script>"), "{svg}");
        assert!(svg.contains("&lt;/text&gt;&lt;script&gt;"), "{svg}");
    }

    #[test]
    fn twenty_five_labels_take_two_pages_and_every_copy_is_drawn() {
        let svg = draw(&[label("Rex"), label("Goldie")], 13);
        assert_eq!(pages(26), 2);
        assert!(svg.contains("height=\"594mm\""), "{}", &svg[..300]);
        assert_eq!(svg.matches("<path ").count(), 26);
        assert_eq!(svg.matches(">Rex<").count(), 13);
        // The 25th label opens the second page's first row.
        assert!(svg.contains("translate(0 297.5)"), "{svg}");
    }

    #[test]
    fn a_long_name_is_cut_with_an_ellipsis() {
        let long = "A".repeat(40);
        let svg = draw(&[label(&long)], 1);
        assert!(svg.contains(&format!(">{}…<", "A".repeat(29))), "{svg}");
    }

    fn sku_label(sku: &str) -> Label {
        Label {
            name: sku.to_owned(),
            price: None,
            symbol: symbol(None, Some(sku)).unwrap().unwrap(),
        }
    }

    /// The module width a drawn path was scaled to.
    fn modules_drawn(svg: &str) -> Vec<f64> {
        svg.split(" scale(")
            .skip(1)
            .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
            .collect()
    }

    #[test]
    fn a_short_code_takes_one_place_and_the_longest_sku_two_never_under_the_minimum_module() {
        assert_eq!(places_for(&label("Rex").symbol), 1);
        assert_eq!(places_for(&sku_label(&"A".repeat(29)).symbol), 1);
        assert_eq!(places_for(&sku_label(&"A".repeat(30)).symbol), 2);
        let longest = "x".repeat(crate::domain::code::SKU_MAX);
        assert_eq!(places_for(&sku_label(&longest).symbol), 2);
        let svg = draw(&[sku_label(&"A".repeat(29)), sku_label(&longest)], 1);
        for module in modules_drawn(&svg) {
            assert!(module >= MODULE_MIN, "{module} mm in {svg}");
        }
    }

    #[test]
    fn a_wide_label_never_runs_over_the_end_of_a_row() {
        // 1, 2 beside it, 2 on the next row, 1 in its last column, 3: a whole row.
        assert_eq!(layout([1, 2, 2, 1, 3]), (vec![0, 1, 3, 5, 6], 9));
        // Two places do not fit in the last column: that place stays empty.
        assert_eq!(layout([1, 1, 2]), (vec![0, 1, 3], 5));
        assert_eq!(pages(layout(std::iter::repeat_n(2, 8)).1), 1);
        assert_eq!(pages(layout(std::iter::repeat_n(2, 9)).1), 2);
    }

    #[test]
    fn a_wide_label_is_drawn_across_two_places_and_the_next_one_starts_the_next_row() {
        let svg = draw(&[sku_label(&"x".repeat(64)), label("Rex")], 2);
        assert!(svg.contains("translate(0 0.5)"), "{svg}");
        // The second copy cannot start in the last column: it opens the second row.
        assert!(svg.contains("translate(0 37.5)"), "{svg}");
        assert!(svg.contains("translate(140 37.5)"), "{svg}");
        assert!(svg.contains("translate(0 74.5)"), "{svg}");
        // Its code is written under the middle of the two places.
        assert!(svg.contains("<text x=\"70\" y=\"32.5\""), "{svg}");
    }

    #[test]
    fn bars_are_runs_of_dark_modules() {
        let svg = draw(&[label("Rex")], 1);
        // EAN-8 starts with its guard 101: one-module bars at 0 and 2.
        assert!(svg.contains("d=\"M0 0h1v14h-1zM2 0h1v14h-1z"), "{svg}");
    }
}
