//! `/events`: changes arrive as they commit, and a client resumes with `Last-Event-ID`.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use reqwest::Method;
use serde_json::{json, Value};

use crate::support::TestApp;

/// One parsed SSE message.
#[derive(Debug)]
pub(crate) struct Message {
    pub(crate) id: i64,
    pub(crate) event: String,
    pub(crate) data: Value,
}

/// Reads SSE messages from a response body.
pub(crate) struct Feed {
    stream: futures_util::stream::BoxStream<'static, reqwest::Result<bytes::Bytes>>,
    buffer: String,
}

impl Feed {
    pub(crate) async fn open(app: &TestApp, last_event_id: Option<i64>) -> Self {
        Self::open_with(app.request(Method::GET, "/events"), last_event_id).await
    }

    async fn open_with(mut req: reqwest::RequestBuilder, last_event_id: Option<i64>) -> Self {
        if let Some(id) = last_event_id {
            req = req.header("Last-Event-ID", id.to_string());
        }
        let res = req.send().await.unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["content-type"], "text/event-stream");
        assert_eq!(res.headers()["x-stability"], "experimental");
        let mut feed = Self {
            stream: res.bytes_stream().boxed(),
            buffer: String::new(),
        };
        feed.until_blank_block().await; // the greeting: the stream is live from here on
        feed
    }

    async fn until_blank_block(&mut self) -> String {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block = self.buffer[..end].to_owned();
                self.buffer.drain(..end + 2);
                return block;
            }
            let chunk = self.stream.next().await.expect("the stream ended").unwrap();
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// The next event message (heartbeats and comments skipped), within `wait`.
    pub(crate) async fn next(&mut self, wait: Duration) -> Message {
        tokio::time::timeout(wait, async {
            loop {
                let block = self.until_blank_block().await;
                let (mut id, mut event, mut data) = (None, None, None);
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        id = v.parse().ok();
                    } else if let Some(v) = line.strip_prefix("event: ") {
                        event = Some(v.to_owned());
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data = serde_json::from_str(v).ok();
                    }
                }
                if let (Some(id), Some(event), Some(data)) = (id, event, data) {
                    return Message { id, event, data };
                }
            }
        })
        .await
        .expect("no event in time")
    }
}

#[tokio::test]
async fn a_revoked_keys_stream_delivers_nothing_made_after_the_revocation_is_answered() {
    let app = TestApp::spawn().await;
    let (id, secret) = app.key_with_id("readonly", "free").await;
    let mut feed = Feed::open_with(app.request_as(&secret, Method::GET, "/events"), None).await;
    app.category("Before").await;
    assert_eq!(
        feed.next(Duration::from_secs(5)).await.event,
        "category.created"
    );

    assert_eq!(app.delete(&format!("/admin/keys/{id}")).await.status(), 204);
    for n in 0..5 {
        app.category(&format!("After {n}")).await;
    }
    let rest = tokio::time::timeout(Duration::from_secs(10), async {
        let mut rest = std::mem::take(&mut feed.buffer);
        while let Some(chunk) = feed.stream.next().await {
            match chunk {
                Ok(chunk) => rest.push_str(&String::from_utf8_lossy(&chunk)),
                Err(_) => break,
            }
        }
        rest
    })
    .await
    .expect("the revoked key's stream ended");
    assert!(
        !rest.contains("After"),
        "delivered after the revocation: {rest}"
    );
}

#[tokio::test]
async fn a_change_arrives_as_an_event_within_a_second() {
    let app = TestApp::spawn().await;
    let mut feed = Feed::open(&app, None).await;

    let started = Instant::now();
    let category = app.category("Dogs").await;
    let message = feed.next(Duration::from_secs(1)).await;

    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(message.event, "category.created");
    assert_eq!(message.data["type"], "category.created");
    assert_eq!(
        message.data["data"],
        json!({ "id": category, "name": "Dogs" })
    );
    assert!(message.data["at"].as_str().unwrap().ends_with('Z'));
}

#[tokio::test]
async fn an_order_announces_itself_the_stock_and_the_status_with_increasing_ids() {
    let app = TestApp::spawn().await;
    let category = app.category("Cats").await;
    let pet = app.pet_with_stock("Tom", category, 1).await;
    let mut feed = Feed::open(&app, None).await;

    app.post("/store/orders", json!({ "petId": pet, "quantity": 1 }))
        .await;
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.push(feed.next(Duration::from_secs(1)).await);
    }

    let kinds: Vec<&str> = seen.iter().map(|m| m.event.as_str()).collect();
    assert_eq!(kinds, ["order.created", "pet.updated", "inventory.updated"]);
    assert!(seen.windows(2).all(|w| w[0].id < w[1].id));
    assert_eq!(seen[1].data["data"]["status"], "pending");
    assert_eq!(seen[2].data["data"]["quantity"], 0);
}

#[tokio::test]
async fn a_client_resuming_with_last_event_id_receives_what_it_missed() {
    let app = TestApp::spawn().await;
    let mut feed = Feed::open(&app, None).await;
    app.category("First").await;
    let first = feed.next(Duration::from_secs(1)).await;
    drop(feed);

    app.category("Second").await;
    app.category("Third").await;
    let mut resumed = Feed::open(&app, Some(first.id)).await;

    let second = resumed.next(Duration::from_secs(1)).await;
    let third = resumed.next(Duration::from_secs(1)).await;
    assert_eq!(second.data["data"]["name"], "Second");
    assert_eq!(third.data["data"]["name"], "Third");
    assert!(first.id < second.id && second.id < third.id);
    app.category("Fourth").await;
    assert_eq!(
        resumed.next(Duration::from_secs(1)).await.data["data"]["name"],
        "Fourth"
    );
}

#[tokio::test]
async fn the_stream_needs_a_key() {
    let app = TestApp::spawn().await;
    let res = app.get_without_key("/events").await;
    crate::support::assert_error(res, 401, "unauthorized").await;
}
