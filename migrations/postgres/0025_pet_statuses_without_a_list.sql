-- PostgreSQL twin of ../0025_pet_statuses_without_a_list.sql: nothing to change.
-- PostgreSQL checks `status IN (…)` without building anything per row.
SELECT 1;
