-- PostgreSQL twin of ../0026_order_pet_names.sql: an order keeps its pet's name as placed.
ALTER TABLE orders ADD COLUMN pet_name TEXT;
ALTER TABLE cancelled_orders ADD COLUMN pet_name TEXT;
DROP INDEX orders_by_pet;
CREATE INDEX orders_by_pet ON orders(pet_id, complete, id)
    INCLUDE (quantity, ship_date, created_at, completed_at, unit_price, sale_id, pet_name);
