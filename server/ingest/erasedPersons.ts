// Ingestion's side of a person's deletion: what names an id refused after a deletion
// (erasedIds.ts) is refused with `person_erased`, unless a server key sends it with
// `"consent": true`, which stores it and lifts the refusal of its ids.

import type { Services } from '../http/services.js';
import type { IngestCredential } from './ingestCredential.js';
import { ERASED_CODE, erasedMessage, liftRefusal, refusedAmong } from './erasedIds.js';

export interface IdsOfItem {
  index: number;
  ids: Array<string | null | undefined>;
  consent?: boolean;
}

/** The refusal of each item that may not be stored, by index; lifts the refusals a consent overrides. */
export function erasedRefusals(services: Services, credential: IngestCredential, items: readonly IdsOfItem[]): Map<number, { code: string; message: string }> {
  const out = new Map<number, { code: string; message: string }>();
  const projectId = credential.key.project_id;
  const named = (item: IdsOfItem) => item.ids.filter((id): id is string => typeof id === 'string');
  const refused = refusedAmong(services, projectId, items.flatMap(named));
  if (refused.size === 0) return out;
  const consenting = credential.key.type === 'server';
  const lifted: string[] = [];
  for (const item of items) {
    const hit = named(item).filter((id) => refused.has(id));
    if (hit.length === 0) continue;
    if (consenting && item.consent === true) lifted.push(...hit);
    else out.set(item.index, { code: ERASED_CODE, message: erasedMessage(refused.get(hit[0]!)!) });
  }
  if (lifted.length > 0) liftRefusal(services, projectId, lifted);
  return out;
}
