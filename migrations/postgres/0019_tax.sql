-- PostgreSQL twin of ../0019_tax.sql (flags are 0 or 1, as `orders.complete` is).
ALTER TABLE store_profile ADD COLUMN tax_included BIGINT CHECK (tax_included IN (0, 1));
ALTER TABLE store_profile ADD COLUMN default_tax_rate BIGINT
    CHECK (default_tax_rate BETWEEN 0 AND 10000);
ALTER TABLE pets ADD COLUMN tax_rate BIGINT CHECK (tax_rate BETWEEN 0 AND 10000);
