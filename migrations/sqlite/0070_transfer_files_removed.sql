-- When the sweep (server/transfer/transferSweep.ts) removed a transfer's file: an export's once past
-- its keeping, the upload of an import that was cancelled or failed. NULL while the file is kept.
ALTER TABLE transfer_jobs ADD COLUMN file_removed_at TEXT;
