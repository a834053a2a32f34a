// The storage format new events files (and the files the store attaches, such as a backup's
// snapshot) are written in. DuckDB writes the format of v0.10.2 unless told otherwise, which keeps
// out the compression added since (DICT_FSST for text and JSON): a fifth of a new store's bytes on
// tracker traffic (docs/BENCHMARKS.md, "Where the stored bytes go"). A file of an older format is
// opened and written in its own format: copying it at open would hold a 10M store's start for
// longer than an upgrade waits for the server's health.

/** Every pp release so far reads it: all of them run DuckDB 1.5. */
export const STORAGE_VERSION = 'v1.5.0';
