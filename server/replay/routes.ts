// HTTP routes of session recordings: reading them (analyst+ with actor_drilldown, like the other
// per-person views), and their retention and storage; a person's recordings go when the person is
// deleted (server/persons). Logic lives in listRecordings.ts, recordingDetail.ts,
// recordingStream.ts, replaySettings.ts and replayRetention.ts.

import type { Request } from 'express';
import type { Domain } from '../http/domain.js';
import { authenticate } from '../auth/authenticate.js';
import { projectAccess } from '../accounts/access.js';
import { requireEntitlement } from '../license/requireEntitlement.js';
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
    const auth = { auth: [authenticate(services)] };
    const analyst = projectAccess(services, 'analyst');
    const drilldown = (req: Request) => requireEntitlement(services, req.project!.org_id, 'actor_drilldown');
    const session = (req: Request) => String(req.valid.params.session_id);

    routes.get(BASE, auth, analyst, async (req, res) => {
      drilldown(req);
      res.json(await recordingsPage(services, req.project!.id, req.valid.query));
    });
    routes.get(ONE, auth, analyst, async (req, res) => {
      drilldown(req);
      res.json(await recordingDetail(services, req.project!.id, session(req)));
    });
    routes.get(`${ONE}/chunks`, auth, analyst, async (req, res) => {
      drilldown(req);
      await streamRecording(services, res, req.headers['accept-encoding'], req.project!.id, session(req));
    });
    routes.get(SETTINGS, auth, projectAccess(services, 'viewer'), async (req, res) => {
      res.json(await replaySettings(services, req.project!.id));
    });
    routes.patch(SETTINGS, auth, projectAccess(services, 'admin'), async (req, res) => {
      setRetentionDays(services.meta, req.project!.id, Number((req.body as { replay_retention_days: number }).replay_retention_days), req.auth!.userId, services.clock.now());
      res.json(await replaySettings(services, req.project!.id));
    });
  },
};
