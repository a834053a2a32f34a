// What every engine keeps to answer `EventEngine.dataVersion` and to let reads wait for the
// acknowledged events (`setReadBarrier`): the count of writer turns that may have changed any
// project's events, and of the changes reported for each project.

import type { TurnOptions } from './engine.js';

export class DataVersions {
  /** Moved after each writer turn that may have changed any project's events. */
  private writes = 0;
  private readonly projectWrites = new Map<number, number>();
  private barrier: () => Promise<void> | undefined = () => undefined;

  /** A writer turn ended: it moves every project's version unless it reports its changes. */
  turnEnded(options: TurnOptions): void {
    if (options.changes !== 'reported') this.writes += 1;
  }

  /** Called by a writer turn whose changes are `reported`, once what it changed for these projects is committed. */
  changed(projectIds: Iterable<number>): void {
    for (const id of projectIds) this.projectWrites.set(id, (this.projectWrites.get(id) ?? 0) + 1);
  }

  /** Runs one write of a `reported` turn and reports the projects after it, whether or not it failed. */
  async changedAfter<T>(projectIds: Iterable<number>, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.changed(projectIds);
    }
  }

  /** What every read waits for before it runs (the ingest writer's acknowledged events); it must not wait for a read. */
  setReadBarrier(barrier: () => Promise<void> | undefined): void {
    this.barrier = barrier;
  }

  /** Waits for the acknowledged events to be loaded. */
  async loaded(): Promise<void> {
    const wait = this.barrier();
    if (wait) await wait;
  }

  /**
   * A token that differs whenever the project's stored events may have changed: after every
   * writer turn that does not report its changes, and after every reported change of this
   * project. Taken once the acknowledged events are loaded (like a read), so an answer computed
   * after it is at least as new.
   */
  async version(projectId: number): Promise<string> {
    await this.loaded();
    return `${this.writes}.${this.projectWrites.get(projectId) ?? 0}`;
  }
}
