-- The uuid of the event at through_rowid when it was folded. A store whose rowids changed since
-- (rebuilt by a restore or a copy in another order) no longer has that event there, and the
-- folder then folds it again from the start instead of trusting rows that no longer match.
ALTER TABLE actor_day_state ADD COLUMN through_uuid UUID;
