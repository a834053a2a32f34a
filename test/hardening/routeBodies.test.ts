// Every other operation of the served document that takes a JSON body, on both surfaces, with the
// maximal body its schema allows, sent as the owner (or with the credential the operation takes).
// The project's own record is changed in a project of its own.

import t from 'tap';
import { startLoadedServer } from './loadedServer.js';
import { concretePath, createFixtures, credentialFor, isHeavy, maximalBody, sendWorstCases, servedRouteTable } from './routeTable.js';
import { VARIANTS } from './maximalValue.js';

t.test('every operation with a JSON body, maximal bodies', async (t) => {
  const server = await startLoadedServer(t);
  const table = await servedRouteTable(server);
  const ids = await createFixtures(server);
  const spare = { ...ids, id: await server.freshProject('Changed by the suite') };
  const operations = table.operations.filter((op) => op.body && !isHeavy(op));
  t.ok(operations.length >= 40, `the document lists the operations with bodies (${operations.length})`);
  for (const op of operations) {
    const at = op.path === '/api/v1/projects/{id}' ? spare : ids;
    // The third alphabet keeps query filters under their byte limit; these bodies have none to keep.
    const requests = VARIANTS.slice(0, 2).map((v) => ({ path: concretePath(op.path, at), body: maximalBody(op, table, v), token: credentialFor(op, server, at), copies: 1 }));
    await sendWorstCases(t, server, op, requests);
  }
});
