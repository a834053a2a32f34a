-- Deleting a project keeps its row with a deletion time, so its id is never handed out again and
-- rows that other stores keep under that id can never surface in a new project.
ALTER TABLE projects ADD COLUMN deleted_at TEXT;
