// Grants entitlements to a test server. Until signed licenses are applied end to end, this sets
// the installation's entitlement source directly.

import type { TestServer } from './testServer.js';
import type { Entitlement } from '../../server/license/requireEntitlement.js';

export async function grantEntitlements(server: TestServer, entitlements: Entitlement[]): Promise<void> {
  const granted = new Set(entitlements);
  server.running.services.entitlements = () => granted;
}
