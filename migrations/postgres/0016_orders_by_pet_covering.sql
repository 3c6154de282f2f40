-- PostgreSQL twin of ../0016_orders_by_pet_covering.sql: the other columns an order answers
-- with ride along in the index (INCLUDE), so a pet's orders can be an index-only scan.
DROP INDEX orders_by_pet;
CREATE INDEX orders_by_pet ON orders(pet_id, complete, id)
    INCLUDE (quantity, ship_date, created_at, completed_at, unit_price);
