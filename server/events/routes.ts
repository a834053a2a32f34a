// HTTP routes of the events domain (viewer+ on every route): the events list and doctor view,
// the live stream and the catalogs. Logic lives in eventsPage.ts, eventStream.ts and catalogs.ts.

import type { Domain } from '../http/domain.js';
import { project } from '../access/access.js';
import { eventsOpenapi } from './eventsOpenapi.js';
import { eventsPage } from './eventsPage.js';
import { openEventStream } from './eventStream.js';
import { eventCatalog, propertyCatalog } from './catalogs.js';

export const eventsDomain: Domain = {
  name: 'events',
  openapi: eventsOpenapi,
  mount(routes, services) {
    const viewer = project('viewer');

    routes.get('/api/v1/projects/{id}/events', viewer, async (req, res) => {
      res.json(await eventsPage(services, req.project!.id, req.valid.query));
    });
    routes.get('/api/v1/projects/{id}/events/stream', viewer, async (req, res) => {
      await openEventStream(services, req, res, req.project!.id);
    });
    routes.get('/api/v1/projects/{id}/catalog/events', viewer, async (req, res) => {
      res.json(await eventCatalog(services, req.project!.id));
    });
    routes.get('/api/v1/projects/{id}/catalog/props', viewer, async (req, res) => {
      const event = req.valid.query.event === undefined ? undefined : String(req.valid.query.event);
      res.json(await propertyCatalog(services, req.project!.id, event));
    });
  },
};
