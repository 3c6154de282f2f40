-- Idempotency records lose their index by age. It served only the prune of records past a
-- day, every ten minutes, which now reads the table through. Its entries begin with the
-- second a record was made, followed by the request's own key, so the records of each second
-- landed on pages all over that second's part of the index: placing orders wrote four to
-- five of its pages a commit.
DROP INDEX idempotency_records_by_age;
