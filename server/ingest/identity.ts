// Identity links: identify ties an anonymous id to a user id, alias a previous id to a user id.
// identity_links maps every linked distinct id straight to its final actor (never through a
// chain), so a query resolves an event's actor with one join: COALESCE(link.actor_id, distinct_id),
// or by key (distinctKey.ts), COALESCE(link.actor_key, distinct_key).
// Rules (docs/ingestion.md): an id already linked keeps its first actor (first claim wins); linking
// an actor into another re-points everything that pointed at it; linking an id to itself is a no-op.

import type { EngineConnection } from '../engine/engine.js';
import { statementsOf } from '../engine/statements.js';
import type { Services } from '../http/services.js';
import type { IngestCredential } from './ingestCredential.js';
import { ingestWriter } from './groupWriter.js';
import { refuseRequest } from './rejections.js';
import type { SdkInfo } from './sdkInfo.js';
import type { IngestResult } from './track.js';
import { idText, sizeDefect } from './eventSchema.js';
import { jsonText } from './jsonText.js';
import { ValidationError } from '../ground/errors.js';
import { erasedRefusals } from './erasedPersons.js';

export const TRAITS_MAX_BYTES = 16 * 1024;

export type LinkOutcome = 'linked' | 'unchanged' | 'conflict';

/** A link asked for and not decided yet. */
interface PendingLink {
  fromId: string;
  toId: string;
  at: Date;
  settle: { resolve: (outcome: LinkOutcome) => void; reject: (err: unknown) => void };
}

/** Per writer and project, the links waiting for the writer turn that will decide them. */
const waitingLinks = new WeakMap<object, Map<number, PendingLink[]>>();

/**
 * Links `fromId` (and every id already resolved to it) to the actor of `toId`. Runs in an exclusive
 * writer job, so the check and the write see no other link change in between. The links of a
 * project asked for while that job waits for its turn join it: they are decided in the order they
 * were asked, each seeing those before it, as one job after another would, and written together.
 */
export function linkIdentity(services: Services, projectId: number, fromId: string, toId: string): Promise<LinkOutcome> {
  const writer = ingestWriter(services);
  let projects = waitingLinks.get(writer);
  if (!projects) waitingLinks.set(writer, (projects = new Map()));
  const waiting = projects;
  return new Promise<LinkOutcome>((resolve, reject) => {
    const link: PendingLink = { fromId, toId, at: services.clock.now(), settle: { resolve, reject } };
    const queued = waiting.get(projectId);
    if (queued) {
      queued.push(link);
      return;
    }
    const batch = [link];
    waiting.set(projectId, batch);
    writer
      .exclusive(
        (conn) => {
          // Links asked for from now on wait for the next turn.
          waiting.delete(projectId);
          return batch.length === 1
            ? linkOne(services, conn, projectId, link).then((o) => [o])
            : decideLinks(
                services,
                conn,
                projectId,
                batch.map((l) => ({ from: l.fromId, to: l.toId })),
                batch[batch.length - 1]!.at,
              );
        },
        { changes: 'reported' },
      )
      .then(
        (outcomes) => batch.forEach((l, i) => l.settle.resolve(outcomes[i]!)),
        (err: unknown) => {
          // Refused before its turn (the server stopping): later links must not join it.
          if (waiting.get(projectId) === batch) waiting.delete(projectId);
          for (const l of batch) l.settle.reject(err);
        },
      );
  });
}

/** One link, read and written by the ids it names. */
async function linkOne(services: Services, conn: EngineConnection, projectId: number, link: PendingLink): Promise<LinkOutcome> {
  const sql = statementsOf(services.events).ingest;
  const target = (await sql.linkedActor(conn, projectId, link.toId)) ?? link.toId;
  if (target === link.fromId) return 'unchanged';
  const current = await sql.linkedActor(conn, projectId, link.fromId);
  if (current !== undefined) return current === target ? 'unchanged' : 'conflict';
  // One statement, so a crash cannot leave `fromId` linked while ids that pointed at it are not.
  await services.events.changedAfter([projectId], () => sql.storeLink(conn, projectId, link.fromId, target, link.at));
  return 'linked';
}

/**
 * Links asked for together: the links of the ids they name (and of ids pointing at those) read
 * once, each link decided in order in memory with `linkOne`'s rules (first claim wins, ids that
 * pointed at a re-linked actor move with it), and every changed link written in one statement
 * (stored whole or not at all), at `at`. Answers each link's outcome.
 */
async function decideLinks(services: Services, conn: EngineConnection, projectId: number, links: ReadonlyArray<{ from: string; to: string }>, at: Date): Promise<LinkOutcome[]> {
  const sql = statementsOf(services.events).ingest;
  const actorOf = new Map<string, string>();
  const pointing = new Map<string, Set<string>>();
  const named = [...new Set(links.flatMap((l) => [l.from, l.to]))];
  for (const { distinct_id: d, actor_id: a } of await sql.projectLinks(conn, projectId, named)) {
    actorOf.set(d, a);
    (pointing.get(a) ?? pointing.set(a, new Set()).get(a)!).add(d);
  }
  const changed = new Set<string>();
  const outcomes = links.map(({ from, to }): LinkOutcome => {
    const target = actorOf.get(to) ?? to;
    if (target === from) return 'unchanged';
    const current = actorOf.get(from);
    if (current !== undefined) return current === target ? 'unchanged' : 'conflict';
    const moved = [from, ...(pointing.get(from) ?? [])];
    pointing.delete(from);
    const into = pointing.get(target) ?? pointing.set(target, new Set()).get(target)!;
    for (const d of moved) {
      actorOf.set(d, target);
      into.add(d);
      changed.add(d);
    }
    return 'linked';
  });
  if (changed.size > 0) {
    const ids = [...changed];
    await services.events.changedAfter([projectId], () =>
      sql.storeLinks(
        conn,
        projectId,
        ids,
        ids.map((d) => actorOf.get(d)!),
        at,
      ),
    );
  }
  return outcomes;
}

/**
 * Merges traits into what is stored for the user: later keys win, a null value removes a key. With
 * `once`, a key already stored keeps its value (PostHog's `$set_once`).
 */
export function mergeTraits(services: Services, projectId: number, userId: string, traits: Record<string, unknown>, once = false): Promise<void> {
  const now = services.clock.now();
  return ingestWriter(services).exclusive(
    async (conn) => {
      await services.events.changedAfter([projectId], () => statementsOf(services.events).ingest.storeTraits(conn, projectId, userId, jsonText(traits), once, now));
    },
    { changes: 'reported' },
  );
}

export interface TraitsUpdate {
  userId: string;
  traits: Record<string, unknown>;
  once: boolean;
}

/** RFC 7396 merge patch of plain objects: null removes a key, objects merge, anything else replaces. */
function mergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (typeof v === 'object' && !Array.isArray(v) && typeof out[k] === 'object' && out[k] !== null && !Array.isArray(out[k]))
      out[k] = mergePatch(out[k] as Record<string, unknown>, v as Record<string, unknown>);
    else out[k] = v;
  }
  return out;
}

/**
 * Many links, then many merges of traits (an import's batch), with identify's and alias's rules, in
 * one writer turn and transaction and a few set-wise statements: the links of the ids named (and of
 * ids pointing at them) are read, each
 * link is decided in order in memory (first claim wins, ids that pointed at a re-linked actor move
 * with it), and the changed links are written at once. Traits are merged per user in order, `$set`
 * patches before `$set_once` ones.
 */
export function applyIdentities(services: Services, projectId: number, links: ReadonlyArray<{ from: string; to: string }>, traits: readonly TraitsUpdate[]): Promise<void> {
  if (links.length === 0 && traits.length === 0) return Promise.resolve();
  const now = services.clock.now();
  const sql = statementsOf(services.events).ingest;
  return ingestWriter(services).exclusive(
    (conn) =>
      sql.inTransaction(conn, async () => {
        if (links.length > 0) await decideLinks(services, conn, projectId, links, now);
        for (const once of [false, true]) {
          const patches = new Map<string, Record<string, unknown>>();
          for (const t of traits) {
            if (t.once !== once) continue;
            const before = patches.get(t.userId) ?? {};
            // `$set_once`: the earliest value of a key stands, so later patches only fill gaps.
            patches.set(t.userId, once ? mergePatch(t.traits, before) : mergePatch(before, t.traits));
          }
          if (patches.size === 0) continue;
          await services.events.changedAfter([projectId], () =>
            sql.storeManyTraits(
              conn,
              projectId,
              [...patches.keys()],
              [...patches.values()].map((p) => jsonText(p)),
              once,
              now,
            ),
          );
        }
      }),
    { changes: 'reported' },
  );
}

export interface LinkContext {
  credential: IngestCredential;
  sdk: SdkInfo | null;
  requestId: string;
}

const CONFLICT_MESSAGE = {
  identify: 'anonymous_id already belongs to another user; the first claim wins',
  alias: 'previous_id already belongs to another user; the first claim wins',
};

async function answer(services: Services, ctx: LinkContext, operation: 'identify' | 'alias', outcome: LinkOutcome): Promise<IngestResult> {
  if (outcome !== 'conflict') return { accepted: 1, rejected: [] };
  return refuseRequest(services, { ...ctx, operation, receivedAt: services.clock.now() }, { code: 'identity_conflict', message: CONFLICT_MESSAGE[operation] });
}

/** The refusal of a link naming a deleted person's id (erasedPersons.ts); undefined when it may be stored. */
async function erasedAnswer(services: Services, ctx: LinkContext, operation: 'identify' | 'alias', ids: string[], consent: boolean | undefined): Promise<IngestResult | undefined> {
  const refusal = erasedRefusals(services, ctx.credential, [{ index: 0, ids, consent }]).get(0);
  return refusal && refuseRequest(services, { ...ctx, operation, receivedAt: services.clock.now() }, refusal);
}

export async function identify(
  services: Services,
  body: { anonymous_id: string | number; user_id: string | number; traits?: Record<string, unknown>; consent?: boolean },
  ctx: LinkContext,
): Promise<IngestResult> {
  const defect = sizeDefect('traits', body.traits, TRAITS_MAX_BYTES);
  if (defect) throw new ValidationError(defect.message, 'traits');
  const projectId = ctx.credential.key.project_id;
  const userId = idText(body.user_id);
  const erased = await erasedAnswer(services, ctx, 'identify', [idText(body.anonymous_id), userId], body.consent);
  if (erased) return erased;
  const outcome = await linkIdentity(services, projectId, idText(body.anonymous_id), userId);
  if (body.traits && Object.keys(body.traits).length > 0) await mergeTraits(services, projectId, userId, body.traits);
  return answer(services, ctx, 'identify', outcome);
}

export async function alias(services: Services, body: { previous_id: string | number; user_id: string | number; consent?: boolean }, ctx: LinkContext): Promise<IngestResult> {
  const erased = await erasedAnswer(services, ctx, 'alias', [idText(body.previous_id), idText(body.user_id)], body.consent);
  if (erased) return erased;
  const outcome = await linkIdentity(services, ctx.credential.key.project_id, idText(body.previous_id), idText(body.user_id));
  return answer(services, ctx, 'alias', outcome);
}

/** The actor a distinct id resolves to (its own id when unlinked); for tests and later readers. */
export async function resolveActor(services: Services, projectId: number, distinctId: string): Promise<string> {
  const q = statementsOf(services.events).ingest.actorSql(projectId, distinctId);
  const rows = await services.events.read(q.sql, q.params);
  return rows[0] ? String(rows[0].actor_id) : distinctId;
}
