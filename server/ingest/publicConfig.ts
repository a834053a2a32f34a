// The public collection configuration a tracker reads by its key's eight-character prefix: the
// privacy mode and only the collection kinds that are enabled. Unknown, revoked, expired and
// server-key prefixes are all simply not found.

import type { Services } from '../http/services.js';
import { getBehaviorSettings, type BehaviorSettings } from './behaviorSettings.js';
import { projectForPublicId } from '../keys/ingestKeys.js';

export type CollectionKind = 'clicks' | 'hover_intent' | 'sections' | 'scroll' | 'forms' | 'replay' | 'diagnostics';

export interface CollectionConfig {
  privacy_mode: 'standard' | 'strict';
  collect: CollectionKind[];
  replay_sample_rate?: number;
}

const KIND_FLAGS: ReadonlyArray<[CollectionKind, keyof BehaviorSettings]> = [
  ['clicks', 'autocapture_clicks'],
  ['hover_intent', 'autocapture_hover_intent'],
  ['sections', 'autocapture_sections'],
  ['scroll', 'autocapture_scroll'],
  ['forms', 'autocapture_forms'],
  ['replay', 'replay_enabled'],
  ['diagnostics', 'diagnostics_enabled'],
];

export function collectionConfig(settings: BehaviorSettings): CollectionConfig {
  const config: CollectionConfig = { privacy_mode: settings.privacy_mode, collect: KIND_FLAGS.filter(([, flag]) => settings[flag] === true).map(([kind]) => kind) };
  if (settings.replay_enabled) config.replay_sample_rate = settings.replay_sample_rate;
  return config;
}

export function publicConfigFor(services: Services, prefix: string): CollectionConfig | undefined {
  const projectId = projectForPublicId(services.meta, prefix, services.clock.now());
  return projectId === undefined ? undefined : collectionConfig(getBehaviorSettings(services.meta, projectId));
}
