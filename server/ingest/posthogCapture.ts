// A PostHog client's request, stored: the body decoded, the key its payload names checked, each
// event mapped (posthog.ts), the events stored after the commit like /v1/track's, then identify,
// alias and `$set`/`$set_once` applied as /v1/identify and /v1/alias apply them. The answer comes
// only once all of it is durable.

import type { Request } from 'express';
import type { Services } from '../http/services.js';
import { payloadCredential, mayLink } from './credentials.js';
import { sizeDefect } from './eventSchema.js';
import { linkIdentity, mergeTraits, TRAITS_MAX_BYTES } from './identity.js';
import { bodyMeta, decodePosthogBody, mapPosthogEvent, payloadOf, posthogSdk, type Mapped } from './posthog.js';
import { clientHints } from './clientHints.js';
import { storeEvents, type IngestResult, type Refused } from './track.js';

type Traits = { userId: string; set?: Record<string, unknown>; setOnce?: Record<string, unknown> };

/** Traits of one user, `$set` then `$set_once`, when within identify's size limit. */
async function applyTraits(services: Services, projectId: number, t: Traits): Promise<void> {
  for (const [traits, once] of [
    [t.set, false],
    [t.setOnce, true],
  ] as const) {
    if (!traits || Object.keys(traits).length === 0 || sizeDefect('traits', traits, TRAITS_MAX_BYTES)) continue;
    await mergeTraits(services, projectId, t.userId, traits, once);
  }
}

export async function capturePosthog(services: Services, req: Request): Promise<IngestResult> {
  const body = await decodePosthogBody(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), bodyMeta(req));
  const payload = payloadOf(body);
  const credential = payloadCredential(services, req, payload.token, 'track');
  const linking = mayLink(req, credential);
  const projectId = credential.key.project_id;
  const ctx = { credential, sdk: posthogSdk(payload.events), requestId: req.id, client: clientHints(req) };

  const items: Array<{ index: number; item: unknown }> = [];
  const refused: Refused[] = [];
  const identity: Array<{ index: number; mapped: Extract<Mapped, { kind: 'identify' | 'alias' }> }> = [];
  const traits: Traits[] = [];
  payload.events.forEach((e, index) => {
    const mapped = mapPosthogEvent(e);
    switch (mapped.kind) {
      case 'event':
        items.push({ index, item: mapped.event });
        if (mapped.traits && linking) traits.push(mapped.traits);
        break;
      case 'identify':
      case 'alias':
        if (linking) identity.push({ index, mapped });
        else refused.push({ index, code: 'credential_scope_forbidden', message: 'this key may not link identities (identify:write)', event: e.event });
        break;
      case 'refuse':
        refused.push({ index, ...mapped.refusal, event: e.event });
        break;
      case 'skip':
        break;
    }
  });

  const stored = await storeEvents(services, items, ctx, refused);
  let linked = 0;
  const conflicts: IngestResult['rejected'] = [];
  for (const { index, mapped } of identity) {
    const outcome =
      mapped.kind === 'alias'
        ? await linkIdentity(services, projectId, mapped.previousId, mapped.userId)
        : mapped.anonymousId
          ? await linkIdentity(services, projectId, mapped.anonymousId, mapped.userId)
          : 'unchanged';
    if (outcome === 'conflict') conflicts.push({ index, code: 'identity_conflict', message: 'this id already belongs to another user; the first claim wins' });
    else linked++;
    if (mapped.kind === 'identify') await applyTraits(services, projectId, mapped);
  }
  for (const t of traits) await applyTraits(services, projectId, t);
  return { accepted: stored.accepted + linked, rejected: [...stored.rejected, ...conflicts].sort((a, b) => a.index - b.index) };
}
