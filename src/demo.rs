//! `petstore demo`: a new store filled with a believable pet shop, to try the product and to
//! write a till against. About three hundred animals in a dozen categories, with stock, and
//! orders placed by a till over the last four weeks (most handed over, a few still open).
//!
//! The shop is filled through the interface itself, in process (the router answers requests
//! without a socket): every record passes the same rules, history and events as a real till's,
//! and the data stays valid whatever the store's internals become. Fields a later interface
//! adds (prices, barcodes, reorder points, animal records) are filled when the served document
//! has them. The puppies and kittens are animals with their records and a care history: one is
//! on hold in quarantine and one is overdue for its vaccination, so the Care page has work.
//! Names and numbers come from a fixed seed, so every demo shop is the same shop.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::{App, Error};

/// A kind of animal on the shelf: (name, least and most in stock, sold one by one). Puppies
/// and kittens are single animals with names of their own; fish and crickets sell by the dozen.
type Kind = (&'static str, u32, u32, bool);

/// The categories of the demo shop, each with the kinds it sells: (name, description, kinds).
const CATEGORIES: &[(&str, &str, &[Kind])] = &[
    (
        "Dogs",
        "Puppies from local breeders, vaccinated and microchipped",
        &[
            ("Beagle puppy", 1, 1, true),
            ("Labrador puppy", 1, 1, true),
            ("Cocker spaniel puppy", 1, 1, true),
            ("Border collie puppy", 1, 1, true),
            ("Dachshund puppy", 1, 1, true),
            ("Shih tzu puppy", 1, 1, true),
        ],
    ),
    (
        "Cats",
        "Kittens at twelve weeks, litter-trained",
        &[
            ("British shorthair kitten", 1, 1, true),
            ("Maine coon kitten", 1, 1, true),
            ("Ragdoll kitten", 1, 1, true),
            ("Bengal kitten", 1, 1, true),
            ("Tabby kitten", 1, 1, true),
        ],
    ),
    (
        "Rabbits",
        "Young rabbits, sold in pairs or singly",
        &[
            ("Netherland dwarf rabbit", 1, 4, false),
            ("Holland lop rabbit", 1, 4, false),
            ("Lionhead rabbit", 1, 3, false),
            ("Rex rabbit", 1, 3, false),
        ],
    ),
    (
        "Guinea pigs",
        "Sociable cavies; we recommend keeping two or more",
        &[
            ("Abyssinian guinea pig", 2, 8, false),
            ("American guinea pig", 2, 8, false),
            ("Peruvian guinea pig", 1, 4, false),
            ("Teddy guinea pig", 1, 6, false),
        ],
    ),
    (
        "Small animals",
        "Hamsters, gerbils, mice, rats and chinchillas",
        &[
            ("Golden hamster", 6, 14, false),
            ("Roborovski hamster", 4, 12, false),
            ("Mongolian gerbil", 4, 12, false),
            ("Fancy mouse", 8, 20, false),
            ("Fancy rat", 4, 10, false),
            ("Chinchilla", 1, 3, false),
            ("Degu", 2, 6, false),
        ],
    ),
    (
        "Birds",
        "Hand-reared cage and aviary birds",
        &[
            ("Budgerigar", 6, 20, false),
            ("Cockatiel", 2, 6, false),
            ("Zebra finch", 6, 20, false),
            ("Canary", 4, 12, false),
            ("Lovebird", 2, 8, false),
        ],
    ),
    (
        "Tropical fish",
        "Freshwater tropicals, quarantined two weeks before sale",
        &[
            ("Neon tetra", 40, 120, false),
            ("Cardinal tetra", 30, 90, false),
            ("Guppy", 30, 80, false),
            ("Platy", 20, 60, false),
            ("Betta", 5, 15, false),
            ("Corydoras", 15, 40, false),
            ("Angelfish", 6, 18, false),
            ("Bristlenose pleco", 6, 16, false),
        ],
    ),
    (
        "Coldwater fish",
        "Pond and coldwater aquarium fish",
        &[
            ("Common goldfish", 30, 100, false),
            ("Fantail goldfish", 10, 40, false),
            ("Shubunkin", 10, 30, false),
            ("White cloud minnow", 20, 60, false),
            ("Koi", 4, 12, false),
        ],
    ),
    (
        "Reptiles",
        "Captive-bred reptiles with a care sheet",
        &[
            ("Leopard gecko", 2, 6, false),
            ("Crested gecko", 2, 5, false),
            ("Bearded dragon", 1, 4, false),
            ("Corn snake", 1, 4, false),
            ("Royal python", 1, 3, false),
            ("Hermann's tortoise", 1, 3, false),
        ],
    ),
    (
        "Amphibians",
        "Frogs, toads and axolotls",
        &[
            ("Axolotl", 2, 8, false),
            ("White's tree frog", 2, 6, false),
            ("Fire-bellied toad", 3, 10, false),
            ("Pacman frog", 1, 4, false),
        ],
    ),
    (
        "Invertebrates",
        "Shrimp, snails, tarantulas and live food",
        &[
            ("Cherry shrimp", 30, 100, false),
            ("Amano shrimp", 20, 60, false),
            ("Nerite snail", 20, 60, false),
            ("Chilean rose tarantula", 1, 4, false),
            ("Giant African land snail", 2, 8, false),
            ("Live crickets (tub)", 20, 60, false),
        ],
    ),
    (
        "Ferrets",
        "Young ferrets, handled daily",
        &[("Ferret kit", 1, 3, false), ("Sable ferret", 1, 2, false)],
    ),
];

/// Variants that make each kind a few items on the shelf.
const VARIANTS: &[&str] = &["", "young", "adult", "male", "female"];

/// The reorder point a shop would set for a kind: a quarter of the most it keeps, for the
/// kinds it restocks in numbers (up to ten or more on the shelf). A rabbit or a guinea pig kept
/// a few at a time is bought in when a breeder has some, not by a rule, so it has none:
/// on the first day only the handful of items a till has sold down are low, not every kind
/// that happens to be down to its last one.
fn reorder_point(most: u32, single: bool) -> Option<u32> {
    (!single && most >= 10).then_some(most / 4)
}

/// Names for single animals (puppies and kittens).
const NAMES: &[&str] = &[
    "Biscuit", "Pepper", "Maple", "Olive", "Bramble", "Juniper", "Pickle", "Waffles", "Clover",
    "Hazel", "Nutmeg", "Pudding", "Rolo", "Toffee", "Bean", "Mochi", "Poppy", "Ziggy", "Luna",
    "Otis", "Willow", "Bumble", "Figaro", "Marble", "Sprout", "Ginger", "Pebble", "Socks", "Fudge",
    "Kiwi", "Miso", "Noodle", "Peanut", "Rufus", "Scout", "Tilly", "Winnie", "Archie", "Daisy",
    "Frankie", "Gus", "Henry", "Ivy", "Jasper", "Louie", "Mabel", "Nala", "Oscar", "Percy",
    "Rosie", "Simba", "Teddy", "Wilbur", "Zelda", "Barnaby", "Cocoa",
];

/// What the demo made, and the keys to use it with.
#[derive(Debug, Clone)]
pub struct Summary {
    pub categories: usize,
    pub pets: usize,
    pub units: u64,
    pub orders: usize,
    pub open_orders: usize,
    /// A `pos` key for tills (business plan).
    pub pos_key: String,
    /// A `staff` key for the back office (business plan).
    pub staff_key: String,
}

/// The interface, answered in process with the demo's admin key.
struct Interface {
    router: Router,
}

impl Interface {
    async fn call(
        &self,
        key: &str,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<(StatusCode, Value), Error> {
        let mut request = Request::builder()
            .method(method.clone())
            .uri(path)
            .header("x-api-key", key);
        let body = match body {
            Some(value) => {
                request = request.header("content-type", "application/json");
                Body::from(value.to_string())
            }
            None => Body::empty(),
        };
        let mut request = request
            .body(body)
            .map_err(|e| Error::Settings(format!("demo request {path}: {e}")))?;
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 0))));
        let response = match self.router.clone().oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        };
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .map_err(|e| Error::Settings(format!("demo answer {path}: {e}")))?;
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok((status, value))
    }

    /// Calls and expects a success; anything else stops the demo with the store's answer.
    async fn ok(
        &self,
        key: &str,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, Error> {
        let (status, value) = self.call(key, method.clone(), path, body).await?;
        if status.is_success() {
            Ok(value)
        } else {
            Err(Error::Settings(format!(
                "the demo could not fill the store: {method} {path} answered {status}: {value}"
            )))
        }
    }
}

/// Whether the served document's `schema` has the property `field` (a later interface's).
fn documented(schema: &str, field: &str) -> bool {
    serde_json::from_str::<Value>(crate::OPENAPI_JSON)
        .map(|doc| !doc["components"]["schemas"][schema]["properties"][field].is_null())
        .unwrap_or(false)
}

fn routed(method: &str, path: &str) -> bool {
    crate::OPERATIONS
        .iter()
        .any(|op| op.method == method && op.path == path)
}

/// Breeders and rescues the demo's animals came from.
const SOURCES: &[&str] = &[
    "Hillside Kennels",
    "Meadowbrook Cattery",
    "Riverside Rescue",
    "Oakfield Breeders",
];
const COLOURS: &[&str] = &[
    "black",
    "tan",
    "white",
    "tricolour",
    "ginger",
    "grey",
    "brown",
];

/// The record of a demo animal of `kind`: eight to sixteen weeks old, arrived in the last
/// three weeks, dogs and cats microchipped.
fn animal_record(rng: &mut StdRng, kind: &str, category: &str, today: chrono::NaiveDate) -> Value {
    let breed = kind
        .trim_end_matches(" puppy")
        .trim_end_matches(" kitten")
        .to_owned();
    let born = today - chrono::Duration::days(rng.gen_range(56..=112));
    let arrived = today - chrono::Duration::days(rng.gen_range(2..=21));
    let mut record = json!({
        "sex": if rng.gen_bool(0.5) { "male" } else { "female" },
        "bornOn": born.to_string(),
        "breed": breed,
        "colour": COLOURS[rng.gen_range(0..COLOURS.len())],
        "source": SOURCES[rng.gen_range(0..SOURCES.len())],
        "arrivedOn": arrived.to_string(),
    });
    if matches!(category, "Dogs" | "Cats") {
        record["microchip"] = json!(format!("985{:012}", rng.gen_range(0..1_000_000_000_000u64)));
    }
    record
}

/// The demo animals' care so far: each fed, checked and vaccinated with the next doses due in
/// the weeks ahead, except that the first animal's vaccination is three days overdue and the
/// second is on hold in quarantine until four days from now.
async fn care_history(
    api: &Interface,
    staff_key: &str,
    rng: &mut StdRng,
    animals: &[i64],
    today: chrono::NaiveDate,
) -> Result<(), Error> {
    let day = |days: i64| (today + chrono::Duration::days(days)).to_string();
    for (i, pet_id) in animals.iter().enumerate() {
        let path = format!("/pets/{pet_id}/care");
        let vaccine_due = if i == 0 { -3 } else { rng.gen_range(10..=50) };
        let entries = [
            json!({"kind": "health_check", "note": "Bright and alert on arrival",
                   "dueOn": day(rng.gen_range(7..=30))}),
            json!({"kind": "vaccination", "product": "First dose", "dueOn": day(vaccine_due)}),
            json!({"kind": "weight", "weightGrams": rng.gen_range(400..=4_000)}),
            json!({"kind": "fed", "note": "Breakfast"}),
        ];
        for entry in entries {
            api.ok(staff_key, Method::POST, &path, Some(entry)).await?;
        }
    }
    if let Some(held) = animals.get(1) {
        api.ok(
            staff_key,
            Method::PATCH,
            &format!("/pets/{held}"),
            Some(json!({"hold": {"until": day(4), "reason": "Quarantine after arrival"}})),
        )
        .await?;
    }
    Ok(())
}

/// A GTIN-13 in the in-store range (prefix 2), with its check digit.
fn barcode(n: u64) -> String {
    let body = format!("20{:010}", n);
    let sum: u32 = body
        .chars()
        .filter_map(|c| c.to_digit(10))
        .enumerate()
        .map(|(i, d)| if i % 2 == 0 { d } else { d * 3 })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}

/// Fills the new store of `app` (opened with `admin_key`) with the demo shop.
pub async fn fill(app: &App, admin_key: &str) -> Result<Summary, Error> {
    let (router, _stop) = crate::api::router_for(app.clone());
    let api = Interface { router };
    let admin = admin_key;
    let mut rng = StdRng::seed_from_u64(2026);
    let with_codes = documented("NewPet", "price") && documented("NewPet", "barcode");
    let with_reorder_points = routed("PATCH", "/store/inventory/{petId}");
    let with_animals = documented("NewPet", "animal") && routed("POST", "/pets/{petId}/care");
    // The animals draw from a generator of their own, so the rest of the shop stays the same.
    let mut animal_rng = StdRng::seed_from_u64(31);
    let mut animals: Vec<i64> = Vec::new();
    let today = chrono::Utc::now().date_naive();

    let key = |name: &str, role: &str| json!({"name": name, "role": role, "plan": "business"});
    let pos = api
        .ok(
            admin,
            Method::POST,
            "/admin/keys",
            Some(key("Till 1", "pos")),
        )
        .await?;
    let staff = api
        .ok(
            admin,
            Method::POST,
            "/admin/keys",
            Some(key("Back office", "staff")),
        )
        .await?;
    let secret = |v: &Value| v["secret"].as_str().unwrap_or_default().to_owned();
    let (pos_key, staff_key) = (secret(&pos), secret(&staff));

    let mut summary = Summary {
        categories: 0,
        pets: 0,
        units: 0,
        orders: 0,
        open_orders: 0,
        pos_key: pos_key.clone(),
        staff_key: staff_key.clone(),
    };
    let mut names = NAMES.iter().cycle();
    let mut stocked: Vec<(i64, u32)> = Vec::new();
    for (category, description, kinds) in CATEGORIES {
        let created = api
            .ok(
                &staff_key,
                Method::POST,
                "/categories",
                Some(json!({"name": category, "description": description})),
            )
            .await?;
        let category_id = created["id"].as_i64().unwrap_or_default();
        summary.categories += 1;
        for (kind, low, high, single) in kinds.iter() {
            let items = if *single { 5 } else { rng.gen_range(3..=5) };
            for variant in VARIANTS.iter().take(items) {
                let name = match (*single, *variant) {
                    (true, _) => format!("{} ({})", names.next().unwrap_or(&"Pip"), kind),
                    (false, "") => (*kind).to_owned(),
                    (false, v) => format!("{kind}, {v}"),
                };
                let mut pet =
                    json!({"name": name, "categoryId": category_id, "status": "available"});
                if with_codes {
                    let n = summary.pets as u64 + 1;
                    pet["sku"] = json!(format!("PS-{n:05}"));
                    pet["barcode"] = json!(barcode(n));
                    let cents: u32 = match *single {
                        true => rng.gen_range(40..=120) * 1_000,
                        false => rng.gen_range(2..=60) * 50 + 49,
                    };
                    pet["price"] = json!(cents);
                }
                if with_animals && *single {
                    pet["animal"] = animal_record(&mut animal_rng, kind, category, today);
                }
                let pet = api.ok(&staff_key, Method::POST, "/pets", Some(pet)).await?;
                let pet_id = pet["id"].as_i64().unwrap_or_default();
                summary.pets += 1;
                if with_animals && *single {
                    animals.push(pet_id);
                }
                let quantity = rng.gen_range(*low..=*high);
                api.ok(
                    &staff_key,
                    Method::PUT,
                    &format!("/store/inventory/{pet_id}"),
                    Some(json!({"quantity": quantity, "reason": "opening stock"})),
                )
                .await?;
                if let Some(point) = reorder_point(*high, *single).filter(|_| with_reorder_points) {
                    api.ok(
                        &staff_key,
                        Method::PATCH,
                        &format!("/store/inventory/{pet_id}"),
                        Some(json!({"reorderPoint": point})),
                    )
                    .await?;
                }
                stocked.push((pet_id, quantity));
            }
        }
    }

    if with_animals {
        care_history(&api, &staff_key, &mut animal_rng, &animals, today).await?;
    }

    // Four weeks of sales at the till: one to three units, most handed over.
    for _ in 0..90 {
        let pick = rng.gen_range(0..stocked.len());
        let (pet_id, left) = stocked[pick];
        if left < 2 {
            continue; // keep the last unit of each item on the shelf
        }
        let quantity = rng.gen_range(1..=3.min(left - 1));
        let days_ago = rng.gen_range(0..28);
        let ship = today - chrono::Duration::days(days_ago);
        let (hour, minute) = (rng.gen_range(9..18), rng.gen_range(0..60));
        let order = api
            .ok(
                &pos_key,
                Method::POST,
                "/store/orders",
                Some(json!({
                    "petId": pet_id,
                    "quantity": quantity,
                    "shipDate": format!("{ship}T{hour:02}:{minute:02}:00Z"),
                })),
            )
            .await?;
        stocked[pick].1 -= quantity;
        summary.orders += 1;
        let id = order["id"].as_i64().unwrap_or_default();
        // The till sold it that day: the daily report shows four weeks of trade.
        let placed = ship
            .and_hms_opt(hour, minute, 0)
            .map(|t| t.and_utc().min(chrono::Utc::now()))
            .map(crate::domain::time::format)
            .unwrap_or_else(crate::domain::time::now);
        if days_ago < 2 && rng.gen_bool(0.5) {
            summary.open_orders += 1;
            app.store().orders().backdate(id, placed, None).await?;
            continue;
        }
        api.ok(
            &pos_key,
            Method::PATCH,
            &format!("/store/orders/{id}"),
            Some(json!({"complete": true})),
        )
        .await?;
        let completed = placed.clone();
        app.store()
            .orders()
            .backdate(id, placed, Some(completed))
            .await?;
    }
    summary.units = stocked.iter().map(|(_, q)| u64::from(*q)).sum();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_barcodes_carry_a_right_check_digit() {
        // 2000000000015: the weighted sum of the first twelve digits is 5, so the check is 5.
        assert_eq!(barcode(1), "2000000000015");
        for n in [7, 42, 313] {
            let code = barcode(n);
            assert_eq!(code.len(), 13);
            let sum: u32 = code
                .chars()
                .filter_map(|c| c.to_digit(10))
                .enumerate()
                .map(|(i, d)| if i % 2 == 0 { d } else { d * 3 })
                .sum();
            assert_eq!(sum % 10, 0, "{code}");
        }
    }

    #[test]
    fn every_demo_kind_has_a_sane_stock_range() {
        for (_, _, kinds) in CATEGORIES {
            for (kind, low, high, _) in kinds.iter() {
                assert!(low <= high && *high <= 1_000, "{kind}");
            }
        }
        assert_eq!(CATEGORIES.len(), 12);
    }
}
