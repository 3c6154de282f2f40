-- Animals (interface 1.2): a pet may be one individual animal with its record (sex, birth
-- date, breed, colour, microchip, where it came from, when it arrived), may be held back
-- from sale until a date, and has a care log that is only ever added to.
-- `animal_sex` is set exactly when the pet has an animal record; a microchip names one
-- animal only. Dates are `YYYY-MM-DD` in the store's time zone.
ALTER TABLE pets ADD COLUMN animal_sex TEXT
    CHECK (animal_sex = 'male' OR animal_sex = 'female' OR animal_sex = 'unknown');
ALTER TABLE pets ADD COLUMN animal_born_on TEXT;
ALTER TABLE pets ADD COLUMN animal_breed TEXT;
ALTER TABLE pets ADD COLUMN animal_colour TEXT;
ALTER TABLE pets ADD COLUMN animal_microchip TEXT;
ALTER TABLE pets ADD COLUMN animal_source TEXT;
ALTER TABLE pets ADD COLUMN animal_arrived_on TEXT;
ALTER TABLE pets ADD COLUMN hold_until TEXT;
ALTER TABLE pets ADD COLUMN hold_reason TEXT;
CREATE UNIQUE INDEX pets_by_microchip ON pets(animal_microchip)
    WHERE animal_microchip IS NOT NULL;

-- The care log: one row per feeding, check, vaccination, treatment, weighing or note.
CREATE TABLE care_entries (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    pet_id       INTEGER NOT NULL REFERENCES pets(id),
    kind         TEXT NOT NULL CHECK (kind = 'fed' OR kind = 'health_check'
                     OR kind = 'vaccination' OR kind = 'treatment' OR kind = 'weight'
                     OR kind = 'note'),
    note         TEXT,
    product      TEXT,
    weight_grams INTEGER CHECK (weight_grams BETWEEN 1 AND 200000),
    due_on       TEXT,
    at           TEXT NOT NULL,
    key_name     TEXT,
    staff_id     INTEGER
);
-- A pet's log, newest first, and the latest entry of each kind (`/store/care/due`).
CREATE INDEX care_by_pet_kind ON care_entries(pet_id, kind, id);
CREATE INDEX care_by_pet ON care_entries(pet_id, id);

-- The latest entry of each kind for each pet, kept by the same transaction that adds an
-- entry: what falls due (`/store/care/due`) is read from here, a row per pet and kind,
-- rather than by finding the latest among every entry ever made.
CREATE TABLE care_latest (
    pet_id   INTEGER NOT NULL REFERENCES pets(id),
    kind     TEXT NOT NULL,
    entry_id INTEGER NOT NULL,
    due_on   TEXT,
    at       TEXT NOT NULL,
    PRIMARY KEY (pet_id, kind)
);
CREATE INDEX care_latest_by_due ON care_latest(due_on, pet_id, kind) WHERE due_on IS NOT NULL;
