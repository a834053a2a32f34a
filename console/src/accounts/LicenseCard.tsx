// The license as the bootstrap reported it: status, licensee, expiry, warnings, and every feature
// a license can grant with whether this one does.

import { useSession } from '../app/session';
import { FEATURES } from '../app/features';
import { countOf, formatDateTime } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';

interface LicenseSection {
  status?: string;
  licensee?: string | null;
  edition?: string | null;
  expires_at?: string | null;
  days_left?: number | null;
  features?: string[];
  warnings?: string[];
}

export function LicenseCard() {
  const license = (useSession().license ?? {}) as LicenseSection;
  const granted = new Set(license.features ?? []);
  return (
    <div class="card" role="group" aria-labelledby="license-title">
      <h2 id="license-title">License</h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd data-testid="license-status">{license.status ?? 'unknown'}</dd>
        {license.licensee && (
          <>
            <dt>Licensee</dt>
            <dd>
              {license.licensee}
              {license.edition ? ` (${license.edition})` : ''}
            </dd>
          </>
        )}
        {license.expires_at && (
          <>
            <dt>Expires</dt>
            <dd>
              {formatDateTime(license.expires_at)}
              {typeof license.days_left === 'number' ? ` · ${countOf(license.days_left, 'day')} left` : ''}
            </dd>
          </>
        )}
      </dl>
      {(license.warnings ?? []).map((w) => (
        <p class="notice">{w}</p>
      ))}
      <Table label="License features">
        <TableHead columns={['Feature', 'Unlocks', 'This license']} />
        <tbody>
          {Object.entries(FEATURES).map(([name, f]) => (
            <tr data-feature={name}>
              <td>
                {f.title} <code>{name}</code>
              </td>
              <td>{f.unlocks}</td>
              <td>{granted.has(name) ? <span class="badge active">granted</span> : <span class="badge">not granted</span>}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <div class="license-howto" data-testid="license-howto">
        <h3>How to get one</h3>
        <p>
          Licenses are ordered from your pp vendor. If the license is to be bound to this installation, give the vendor its install id, which <code>ppctl license show</code> prints on the server.
        </p>
        <p>
          The vendor sends a license file. An operator applies it on the server with <code>ppctl license apply &lt;file&gt;</code>; the server uses it at once, without a restart. Details are in
          docs/license.md.
        </p>
        <p class="muted">Reports, ingestion and export never depend on the license.</p>
      </div>
    </div>
  );
}
