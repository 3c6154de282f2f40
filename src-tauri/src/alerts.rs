//! System notifications: an item running low (`inventory.low`), and the LAN access that
//! stopped because the network changed.
//!
//! The low-stock watcher follows the store's own change feed (the same one `/events` serves),
//! so it works whichever page the window shows and whoever is signed in. Raising a
//! notification goes through a [`Raise`] function the shell is given (Tauri's notification
//! plugin in the app), and every one raised is also logged ("raised a system notification"),
//! which is the app's own record of them.

use std::sync::Arc;

use petstore::App;
use tokio::{sync::broadcast::error::RecvError, task::JoinHandle};

/// Shows a system notification with a title and a body.
pub type Raise = Arc<dyn Fn(String, String) + Send + Sync>;

/// Logs the notification, then raises it.
pub fn raise(raise: &Raise, title: String, body: String) {
    tracing::info!(%title, %body, "raised a system notification");
    raise(title, body);
}

/// Raises a notification for every `inventory.low` the store announces, until aborted.
pub fn watch_low_stock(app: App, notify: Raise) -> JoinHandle<()> {
    let mut events = app.store().subscribe();
    tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(event) if event.kind == "inventory.low" => {
                    let data: serde_json::Value =
                        serde_json::from_str(event.data.as_str()).unwrap_or_default();
                    let pet_id = data.get("petId").and_then(|v| v.as_i64());
                    let name = match pet_id {
                        Some(id) => app.store().pets().get(id).await.ok().map(|pet| pet.name),
                        None => None,
                    };
                    let (title, body) = low_stock_words(name.as_deref(), pet_id, &data);
                    raise(&notify, title, body);
                }
                Ok(_) => {}
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "the low-stock watcher fell behind the change feed");
                }
                Err(RecvError::Closed) => break,
            }
        }
    })
}

/// The notification's title and body for an item that became low.
fn low_stock_words(
    name: Option<&str>,
    pet_id: Option<i64>,
    item: &serde_json::Value,
) -> (String, String) {
    let what = match (name, pet_id) {
        (Some(name), _) => name.to_owned(),
        (None, Some(id)) => format!("Pet {id}"),
        (None, None) => "An item".to_owned(),
    };
    let left = match item.get("quantity").and_then(|v| v.as_i64()) {
        Some(0) => "None left".to_owned(),
        Some(n) => format!("{n} left"),
        None => "Few left".to_owned(),
    };
    let point = item
        .get("reorderPoint")
        .and_then(|v| v.as_i64())
        .map(|p| format!(" (reorder point {p})"))
        .unwrap_or_default();
    (
        format!("Low stock: {what}"),
        format!("{left}{point}. Time to reorder."),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_low_item_is_named_with_its_count_and_reorder_point() {
        let item = serde_json::json!({"petId": 7, "quantity": 2, "reorderPoint": 3});
        assert_eq!(
            low_stock_words(Some("Goldfish"), Some(7), &item),
            (
                "Low stock: Goldfish".to_owned(),
                "2 left (reorder point 3). Time to reorder.".to_owned()
            )
        );
    }

    #[test]
    fn an_item_sold_out_says_none_left() {
        let item = serde_json::json!({"petId": 7, "quantity": 0, "reorderPoint": 0});
        assert_eq!(
            low_stock_words(None, Some(7), &item).1,
            "None left (reorder point 0). Time to reorder."
        );
    }
}
