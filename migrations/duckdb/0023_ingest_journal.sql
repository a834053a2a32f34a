-- How far the ingest journal is loaded: the sequence number of the newest journal record whose
-- events are stored. It is updated in the transaction that appends them, so after a crash the
-- records past it (answered, not yet loaded) are loaded again and none twice.
CREATE TABLE ingest_journal (
  position BIGINT NOT NULL
);
INSERT INTO ingest_journal VALUES (0);
