-- PostgreSQL twin of ../0017_idempotency_without_age_index.sql.
DROP INDEX idempotency_records_by_age;
