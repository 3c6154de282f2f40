//! A sale's receipt as one HTML page for 80 mm paper: the rows of [`super::receipt`], a print
//! style sheet that sets the page 80 mm wide (a browser's print dialog gives one narrow
//! receipt), and every stored text escaped, so a name like `<script>` prints as text.

use super::receipt::{Receipt, Row, Style};
use super::text::escape_markup as escape;

const STYLE: &str = "\
@page { size: 80mm auto; margin: 0; }
* { box-sizing: border-box; }
html { background: #eee; }
body { width: 80mm; margin: 0 auto; padding: 4mm; background: #fff; color: #000;
       font: 12px/1.35 \"DejaVu Sans Mono\", monospace; }
h1 { font-size: 15px; text-align: center; margin: 0 0 2mm; overflow-wrap: anywhere; }
p { margin: 0; overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; }
td { padding: 0; vertical-align: bottom; overflow-wrap: anywhere; }
td.amount { text-align: right; white-space: nowrap; padding-left: 2mm; }
tr.detail td:first-child { padding-left: 4mm; }
tr.strong td { font-weight: bold; font-size: 14px; }
hr { border: 0; border-top: 1px dashed #000; margin: 1.5mm 0; }
@media print { html { background: none; } body { margin: 0; } }
";

/// The receipt as a whole HTML document.
pub fn to_html(receipt: &Receipt) -> String {
    let mut body = String::new();
    let mut table = false;
    for row in &receipt.rows {
        let is_pair = matches!(row, Row::Pair { .. });
        if is_pair && !table {
            body.push_str("<table>\n");
            table = true;
        } else if !is_pair && table {
            body.push_str("</table>\n");
            table = false;
        }
        match row {
            Row::Title(title) => body.push_str(&format!("<h1>{}</h1>\n", escape(title))),
            Row::Text(text) => body.push_str(&format!("<p>{}</p>\n", escape(text))),
            Row::Rule => body.push_str("<hr>\n"),
            Row::Pair {
                label,
                amount,
                style,
            } => {
                let class = match style {
                    Style::Plain => "",
                    Style::Detail => " class=\"detail\"",
                    Style::Strong => " class=\"strong\"",
                };
                body.push_str(&format!(
                    "<tr{class}><td>{}</td><td class=\"amount\">{}</td></tr>\n",
                    escape(label),
                    escape(amount)
                ));
            }
        }
    }
    if table {
        body.push_str("</table>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width\">\n<title>{}</title>\n\
         <style>\n{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(&receipt.title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_that_could_open_markup_is_escaped() {
        // The escape is `text::escape_markup`, shared with the shelf labels.
        assert_eq!(
            escape(r#"<script>alert("x" & 'y')</script>"#),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
    }

    #[test]
    fn rows_become_a_page_with_its_pairs_in_tables_and_no_raw_markup() {
        let receipt = Receipt {
            title: "<b>Shop</b>".into(),
            rows: vec![
                Row::Title("<b>Shop</b>".into()),
                Row::Text("<i>".into()),
                Row::Pair {
                    label: "Cash".into(),
                    amount: "1.00".into(),
                    style: Style::Strong,
                },
                Row::Rule,
            ],
        };
        let html = to_html(&receipt);
        assert!(!html.contains("<b>") && !html.contains("<i>"), "{html}");
        assert!(html.contains("<h1>&lt;b&gt;Shop&lt;/b&gt;</h1>"));
        assert!(html.contains(
            "<table>\n<tr class=\"strong\"><td>Cash</td><td class=\"amount\">1.00</td></tr>\n</table>\n<hr>"
        ));
        assert!(html.contains("@page { size: 80mm auto;"));
    }
}
