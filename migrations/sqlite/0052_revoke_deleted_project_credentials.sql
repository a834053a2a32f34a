-- Credentials of a project deleted before deletion revoked them: revoke them now, at the time the
-- project was deleted, so none of them writes again.
UPDATE ingest_keys SET revoked_at = (SELECT deleted_at FROM projects p WHERE p.id = ingest_keys.project_id)
WHERE revoked_at IS NULL AND project_id IN (SELECT id FROM projects WHERE deleted_at IS NOT NULL);
UPDATE release_tokens SET revoked_at = (SELECT deleted_at FROM projects p WHERE p.id = release_tokens.project_id)
WHERE revoked_at IS NULL AND project_id IN (SELECT id FROM projects WHERE deleted_at IS NOT NULL);
