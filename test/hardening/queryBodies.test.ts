// The heaviest operations with their maximal bodies, four at once: every analytical query, the
// path-cleaning trial and the labeled-rule preview, against a project with a week of events.

import t from 'tap';
import { startLoadedServer } from './loadedServer.js';
import { concretePath, createFixtures, credentialFor, isHeavy, maximalBody, sendWorstCases, servedRouteTable } from './routeTable.js';
import { VARIANTS } from './maximalValue.js';

t.test('the heaviest operations, maximal bodies four at once', async (t) => {
  const server = await startLoadedServer(t);
  const table = await servedRouteTable(server);
  const ids = await createFixtures(server);
  const heavy = table.operations.filter((op) => op.body && isHeavy(op));
  t.ok(heavy.length >= 13, `the document lists the queries, the path-cleaning trial and the preview (${heavy.length})`);
  for (const op of heavy) {
    const requests = VARIANTS.map((v) => ({ path: concretePath(op.path, ids), body: maximalBody(op, table, v), token: credentialFor(op, server, ids), copies: 4 }));
    await sendWorstCases(t, server, op, requests);
  }
});
