-- Tax at the counter (interface 1.2): whether the store's prices include tax, the rate that
-- applies to a pet without its own, and a pet's own rate. Rates are basis points (2,000 is
-- 20 %). A NULL profile column means the default: prices include tax, at a rate of 0.
ALTER TABLE store_profile ADD COLUMN tax_included INTEGER CHECK (tax_included IN (0, 1));
ALTER TABLE store_profile ADD COLUMN default_tax_rate INTEGER
    CHECK (default_tax_rate BETWEEN 0 AND 10000);
ALTER TABLE pets ADD COLUMN tax_rate INTEGER CHECK (tax_rate BETWEEN 0 AND 10000);
