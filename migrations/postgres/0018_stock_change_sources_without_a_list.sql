-- PostgreSQL twin of ../0018_stock_change_sources_without_a_list.sql: nothing to change.
-- PostgreSQL checks `source IN (…)` without building anything per row.
SELECT 1;
