// HTTP routes of session recordings: reading them (analyst+ with actor_drilldown, like the other
// per-person views), and their retention and storage; a person's recordings go when the person is
// deleted (server/persons). Logic lives in listRecordings.ts, recordingDetail.ts,
// recordingStream.ts, replaySettings.ts and replayRetention.ts.

import type { Request } from 'express';
import type { Domain } from '../http/domain.js';
import { project } from '../access/access.js';
import { replayOpenapi } from './replayOpenapi.js';
import { recordingsPage } from './listRecordings.js';
import { recordingDetail } from './recordingDetail.js';
import { streamRecording } from './recordingStream.js';
import { replaySettings, setRetentionDays } from './replaySettings.js';

const BASE = '/api/v1/projects/{id}/recordings';
const ONE = `${BASE}/{session_id}`;
const SETTINGS = '/api/v1/projects/{id}/replay-settings';

export const replayDomain: Domain = {
  name: 'replay',
  openapi: replayOpenapi,
  mount(routes, services) {
    // Watching a person's recordings is actor drill-down.
    const analyst = project('analyst', { entitlements: ['actor_drilldown'] });
    const session = (req: Request) => String(req.valid.params.session_id);

    routes.get(BASE, analyst, async (req, res) => {
      res.json(await recordingsPage(services, req.project!.id, req.valid.query));
    });
    routes.get(ONE, analyst, async (req, res) => {
      res.json(await recordingDetail(services, req.project!.id, session(req)));
    });
    routes.get(`${ONE}/chunks`, analyst, async (req, res) => {
      await streamRecording(services, res, req.headers['accept-encoding'], req.project!.id, session(req));
    });
    routes.get(SETTINGS, project('viewer'), async (req, res) => {
      res.json(await replaySettings(services, req.project!.id));
    });
    routes.patch(SETTINGS, project('admin'), async (req, res) => {
      setRetentionDays(services.meta, req.project!.id, Number((req.body as { replay_retention_days: number }).replay_retention_days), req.auth!.userId, services.clock.now());
      res.json(await replaySettings(services, req.project!.id));
    });
  },
};
