-- What lets the Web page read most visits as numbers (engine/rollups/visitDays.ts), all set when
-- the folder compacts visit_days and NULL on runs folded since: `visit_actor` is the actor the run's
-- visit was joined under (identities as they stood at compaction: visits are now an actor's, across
-- its ids, no longer one id's), and the run's texts as numbers — `entry_id` and `exit_id` its entry
-- and exit paths, `entry_ids` the seven entry properties, `page_ids` its page views per path — each
-- a 64-bit hash of the text that `visit_texts` turns back into it.
ALTER TABLE visit_days ADD COLUMN visit_actor UBIGINT;
ALTER TABLE visit_days ADD COLUMN entry_id UBIGINT;
ALTER TABLE visit_days ADD COLUMN exit_id UBIGINT;
ALTER TABLE visit_days ADD COLUMN entry_ids UBIGINT[];
ALTER TABLE visit_days ADD COLUMN page_ids STRUCT(id UBIGINT, n UBIGINT)[];
CREATE TABLE visit_texts (id UBIGINT NOT NULL, text VARCHAR NOT NULL);

-- The runs' visits were one id's: without `visit_actor` they are joined when read until the next
-- compaction, which the next pass runs whatever the rollups' size (a negative count asks for it).
UPDATE actor_day_state SET compacted_rows = -1;
