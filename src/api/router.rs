//! The route table: every operation of the interface in one place.
//! [`crate::contract::OPERATIONS`] lists the same table as data (with each operation's id,
//! least role and stability), so tests hold it against this router, the OpenAPI document and
//! the roles; the middleware sends each operation's `X-Stability` from there.

use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, Method};
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use tower::ServiceBuilder;
use tower_http::cors::{AllowOrigin, CorsLayer};

use super::error::ApiError;
use super::extract::BODY_LIMIT;
use super::state::AppState;
use super::{
    admin, animal_report, backups, care, categories, certificate, docs, events, health, inventory,
    labels, middleware, orders, pairings, pets, profile, public_limit, purchase_orders, reports,
    sales, session, shifts, staff, stocktakes, suppliers, transfer, ui,
};

/// The whole application: the interface, `/health`, the docs and the staff UI.
pub fn build(state: AppState) -> Router {
    let interface = Router::new()
        .route("/pets", get(pets::list).post(pets::create))
        .route(
            "/pets/{petId}",
            get(pets::get)
                .put(pets::replace)
                .patch(pets::patch)
                .delete(pets::delete),
        )
        .route("/pets/{petId}/care", get(care::list).post(care::record))
        .route("/store/care/due", get(care::due))
        .route("/store/reports/animals", get(animal_report::animals))
        .route(
            "/categories",
            get(categories::list).post(categories::create),
        )
        .route(
            "/categories/{categoryId}",
            get(categories::get)
                .put(categories::replace)
                .patch(categories::patch)
                .delete(categories::delete),
        )
        .route("/store/orders", get(orders::list).post(orders::place))
        .route(
            "/store/orders/{orderId}",
            get(orders::get).patch(orders::patch).delete(orders::cancel),
        )
        .route("/store/cancelled-orders", get(orders::cancelled))
        .route("/store/inventory", get(inventory::list))
        .route(
            "/store/inventory/{petId}",
            get(inventory::get)
                .put(inventory::set)
                .patch(inventory::patch),
        )
        .route("/store/profile", get(profile::get).patch(profile::patch))
        .route("/store/certificate", get(certificate::get))
        .route("/store/reports/daily", get(reports::daily))
        .route("/store/sales", get(sales::list).post(sales::place))
        .route("/store/sales/{saleId}", get(sales::get))
        .route(
            "/store/sales/{saleId}/refunds",
            get(sales::refunds).post(sales::refund),
        )
        .route("/store/sales/{saleId}/receipt", get(sales::receipt))
        .route("/store/shifts", get(shifts::list).post(shifts::open))
        .route("/store/shifts/{shiftId}", get(shifts::get))
        .route("/store/shifts/{shiftId}/close", post(shifts::close))
        .route(
            "/store/stocktakes",
            get(stocktakes::list).post(stocktakes::create),
        )
        .route(
            "/store/stocktakes/{stocktakeId}",
            get(stocktakes::get).delete(stocktakes::delete),
        )
        .route(
            "/store/stocktakes/{stocktakeId}/lines/{petId}",
            axum::routing::put(stocktakes::count),
        )
        .route(
            "/store/stocktakes/{stocktakeId}/apply",
            axum::routing::post(stocktakes::apply),
        )
        .route(
            "/store/suppliers",
            get(suppliers::list).post(suppliers::create),
        )
        .route(
            "/store/suppliers/{supplierId}",
            get(suppliers::get)
                .patch(suppliers::patch)
                .delete(suppliers::delete),
        )
        .route(
            "/store/purchase-orders",
            get(purchase_orders::list).post(purchase_orders::create),
        )
        .route(
            "/store/purchase-orders/suggest",
            post(purchase_orders::suggest),
        )
        .route(
            "/store/purchase-orders/{purchaseOrderId}",
            get(purchase_orders::get).put(purchase_orders::replace),
        )
        .route(
            "/store/purchase-orders/{purchaseOrderId}/send",
            post(purchase_orders::send),
        )
        .route(
            "/store/purchase-orders/{purchaseOrderId}/receive",
            post(purchase_orders::receive),
        )
        .route(
            "/store/purchase-orders/{purchaseOrderId}/cancel",
            post(purchase_orders::cancel),
        )
        .route("/store/export/pets.csv", get(transfer::pets))
        .route(
            "/store/export/stock-changes.csv",
            get(transfer::stock_changes),
        )
        .route(
            "/store/import/pets",
            axum::routing::post(transfer::import_pets).layer(DefaultBodyLimit::max(
                crate::contract::body_limit("/store/import/pets") + 1,
            )),
        )
        .route("/store/labels.svg", get(labels::sheet))
        .route(
            "/store/inventory/{petId}/adjustments",
            get(inventory::history).post(inventory::adjust),
        )
        .route("/admin/keys", get(admin::list).post(admin::create))
        .route(
            "/admin/keys/{keyId}",
            axum::routing::patch(admin::update).delete(admin::revoke),
        )
        .route(
            "/admin/keys/{keyId}/ban",
            axum::routing::delete(admin::lift_ban),
        )
        .route("/admin/staff", get(staff::list).post(staff::create))
        .route(
            "/admin/staff/{staffId}",
            axum::routing::patch(staff::update),
        )
        .route(
            "/admin/staff/{staffId}/lock",
            axum::routing::delete(staff::lift_lock),
        )
        .route("/session", axum::routing::delete(session::sign_out))
        .route("/pair", axum::routing::delete(session::unpair))
        .route("/admin/backups", get(backups::list).post(backups::take))
        .route("/admin/backups/{name}", get(backups::download))
        .route("/admin/pairings", post(pairings::create))
        .route("/admin/pairings/{code}/qr.svg", get(pairings::qr))
        .route_layer(from_fn_with_state(state.clone(), middleware::operation));
    // The event stream is long-lived by design: no request timeout.
    let stream = Router::new()
        .route("/events", get(events::stream))
        .route_layer(from_fn_with_state(state.clone(), middleware::authenticate));

    // Signing in needs no key: it counts against the caller's address under the Free plan.
    let sign_in = Router::new()
        .route("/session", post(session::sign_in))
        .route("/pair", get(ui::pair_page).merge(post(pairings::pair)))
        .layer(from_fn_with_state(state.clone(), middleware::deadline));

    // Routes with no key: a cheap per-address limit instead of the plans'.
    let public = Router::new()
        .route("/health", get(health::health))
        .merge(docs::router())
        .merge(ui::router())
        .fallback(|| async {
            ApiError::not_found("there is nothing at this address").into_response()
        })
        .layer(from_fn(public_limit::limit));

    let routes = Router::new()
        .merge(interface)
        .merge(stream)
        .merge(sign_in)
        .merge(public)
        .with_state(state.clone());
    // The layers every answer goes through wrap the routed application once, from the
    // outside, instead of being layered onto each route: a layer added with `Router::layer`
    // boxes every route again, and each request then clones that whole nest of boxes (the
    // read profile showed it as a tenth of a request's time).
    let everything = ServiceBuilder::new()
        .option_layer(cors(&state.app.settings().cors_origins))
        .layer(from_fn_with_state(state, middleware::every))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .service(routes);
    Router::new().fallback_service(everything)
}

/// CORS for the configured origins; none configured means no CORS at all.
fn cors(origins: &[String]) -> Option<CorsLayer> {
    let origins: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|o| HeaderValue::from_str(o).ok())
        .collect();
    if origins.is_empty() {
        return None;
    }
    let names = |list: &[&'static str]| {
        list.iter()
            .map(|n| HeaderName::from_static(n))
            .collect::<Vec<_>>()
    };
    Some(
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(origins))
            .allow_methods([
                Method::GET,
                Method::POST,
                Method::PUT,
                Method::PATCH,
                Method::DELETE,
            ])
            .allow_headers(names(&[
                "content-type",
                "x-api-key",
                "authorization",
                "if-match",
                "idempotency-key",
                "last-event-id",
            ]))
            .expose_headers(names(&[
                "etag",
                "location",
                "link",
                "x-total-count",
                "x-ratelimit-limit",
                "x-ratelimit-remaining",
                "x-ratelimit-reset",
                "ratelimit",
                "ratelimit-policy",
                "retry-after",
                "deprecation",
                "sunset",
                "x-stability",
            ]))
            .max_age(Duration::from_secs(600)),
    )
}
