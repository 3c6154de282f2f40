-- An order keeps the name of its pet as it was when the order was placed, so an order whose
-- pet was deleted since still says what was sold (a sale's line kept it already; an order on
-- its own kept only the id). Orders placed before this migration have none. A cancelled
-- order's record keeps it too.
ALTER TABLE orders ADD COLUMN pet_name TEXT;
ALTER TABLE cancelled_orders ADD COLUMN pet_name TEXT;
-- The covering index of a pet's orders carries every column an order answers with
-- (migration 16), pet_name now included.
DROP INDEX orders_by_pet;
CREATE INDEX orders_by_pet
    ON orders(pet_id, complete, id, quantity, ship_date, created_at, completed_at, unit_price,
              sale_id, pet_name);
