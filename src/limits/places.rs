//! Places on the event stream: a few long-lived connections shared fairly.
//!
//! There are [`StreamPlaces::TOTAL`] places. One key may hold at most [`PER_KEY`] and one
//! client network at most [`PER_CLIENT`], so a single readonly key (or device) cannot take
//! them all. A staff member's sign-in sessions count as one key (their [`Subject`]), so
//! signing in again and again from several devices gets no more places. [`DESKTOP_RESERVED`] places are kept for this machine's desktop window, which
//! may always use them; everyone else shares the rest. A [`Place`] is given back when dropped.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use super::{client_net, Subject};

/// Most streams one key holds.
pub const PER_KEY: usize = 16;
/// Most streams one client network holds.
pub const PER_CLIENT: usize = 32;
/// Places only the desktop window may take.
pub const DESKTOP_RESERVED: usize = 2;

/// Why a stream was refused a place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Every place is taken.
    Full,
    /// This key holds its share.
    KeyShare,
    /// This client network holds its share.
    ClientShare,
}

#[derive(Default)]
struct Counts {
    desktop: usize,
    others: usize,
    per_key: HashMap<Subject, usize>,
    per_client: HashMap<IpAddr, usize>,
}

/// The places, shared by every listener of the app.
#[derive(Default)]
pub struct StreamPlaces {
    counts: Arc<Mutex<Counts>>,
}

/// A place held by one stream.
pub struct Place {
    counts: Arc<Mutex<Counts>>,
    desktop: bool,
    key: Subject,
    client: IpAddr,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if self.desktop {
            counts.desktop = counts.desktop.saturating_sub(1);
            return;
        }
        counts.others = counts.others.saturating_sub(1);
        if let Some(n) = counts.per_key.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                counts.per_key.remove(&self.key);
            }
        }
        if let Some(n) = counts.per_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                counts.per_client.remove(&self.client);
            }
        }
    }
}

impl StreamPlaces {
    /// Every place, the desktop's included.
    pub const TOTAL: usize = 64;

    /// A place for a stream of key `key` from `addr` (`desktop` for the desktop window's
    /// key on this machine).
    pub fn take(&self, key: Subject, addr: IpAddr, desktop: bool) -> Result<Place, Refusal> {
        let client = client_net(addr);
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if desktop {
            if counts.desktop + counts.others >= Self::TOTAL {
                return Err(Refusal::Full);
            }
            counts.desktop += 1;
        } else {
            // Others never take the reserved places, even when the desktop does not use them.
            if counts.others >= Self::TOTAL - DESKTOP_RESERVED
                || counts.others + counts.desktop >= Self::TOTAL
            {
                return Err(Refusal::Full);
            }
            if counts.per_key.get(&key).copied().unwrap_or(0) >= PER_KEY {
                return Err(Refusal::KeyShare);
            }
            if counts.per_client.get(&client).copied().unwrap_or(0) >= PER_CLIENT {
                return Err(Refusal::ClientShare);
            }
            counts.others += 1;
            *counts.per_key.entry(key).or_insert(0) += 1;
            *counts.per_client.entry(client).or_insert(0) += 1;
        }
        Ok(Place {
            counts: self.counts.clone(),
            desktop,
            key,
            client,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([192, 0, 2, last])
    }

    #[test]
    fn one_key_holds_at_most_its_share_of_the_stream_places() {
        let places = StreamPlaces::default();
        let held: Vec<_> = (0..PER_KEY)
            .map(|i| {
                places
                    .take(Subject::Key(7), ip(i as u8), false)
                    .expect("a place")
            })
            .collect();
        assert_eq!(
            places.take(Subject::Key(7), ip(200), false).err(),
            Some(Refusal::KeyShare)
        );
        assert!(places.take(Subject::Key(8), ip(200), false).is_ok());
        drop(held);
        assert!(places.take(Subject::Key(7), ip(200), false).is_ok());
    }

    #[test]
    fn one_address_holds_at_most_its_share_whatever_keys_it_uses() {
        let places = StreamPlaces::default();
        let _held: Vec<_> = (0..PER_CLIENT)
            .map(|i| {
                places
                    .take(Subject::Key(i as i64), ip(1), false)
                    .expect("a place")
            })
            .collect();
        assert_eq!(
            places.take(Subject::Key(99), ip(1), false).err(),
            Some(Refusal::ClientShare)
        );
    }

    #[test]
    fn the_desktop_window_finds_a_place_when_everyone_else_is_full() {
        let places = StreamPlaces::default();
        let _held: Vec<_> = (0..StreamPlaces::TOTAL - DESKTOP_RESERVED)
            .map(|i| {
                places
                    .take(Subject::Key(i as i64), ip(i as u8), false)
                    .expect("a place")
            })
            .collect();
        assert_eq!(
            places.take(Subject::Key(1000), ip(250), false).err(),
            Some(Refusal::Full)
        );
        assert!(places
            .take(Subject::Key(0), IpAddr::from([127, 0, 0, 1]), true)
            .is_ok());
    }
}
