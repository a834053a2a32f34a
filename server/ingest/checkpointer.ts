// Keeps DuckDB's checkpoints off the commit path. DuckDB checkpoints inside the COMMIT that takes
// its write-ahead log past 16 MB, which holds up that group (and every request behind it) for up
// to a second. A CHECKPOINT on another connection lets commits that only append go on meanwhile,
// so the writer starts one on a reader connection whenever the log passes half that size.

import { statSync } from 'node:fs';
import path from 'node:path';
import type { Services } from '../services.js';

/** Half DuckDB's automatic checkpoint_threshold (16 MB), so that ours comes first. */
export const CHECKPOINT_WAL_BYTES = 12 * 1024 * 1024;

export class Checkpointer {
  private running: Promise<void> | undefined;
  private readonly walFile: string;
  /** Checkpoints started; `failed`: those DuckDB refused (another write held the lock), retried after the next commit. */
  readonly stats = { started: 0, failed: 0 };

  constructor(
    private readonly services: Services,
    private readonly walBytes = CHECKPOINT_WAL_BYTES,
  ) {
    this.walFile = path.join(services.config.data_dir, 'events.duckdb.wal');
  }

  /** Called after each commit: starts a checkpoint when the log is long enough and none is running. */
  afterCommit(): void {
    if (this.running || this.walSize() < this.walBytes) return;
    this.stats.started += 1;
    this.running = this.services.events
      .read('CHECKPOINT')
      .then(
        () => undefined,
        (err: unknown) => {
          this.stats.failed += 1;
          this.services.log.debug({ err }, 'checkpoint not run; retried after the next commit');
        },
      )
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Waits for a checkpoint in progress (before the store closes). */
  async close(): Promise<void> {
    await this.running;
  }

  private walSize(): number {
    try {
      return statSync(this.walFile).size;
    } catch {
      return 0;
    }
  }
}
