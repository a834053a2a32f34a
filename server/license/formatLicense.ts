// The license report as a person reads it in a terminal.

import type { LicenseReport } from '../access/licenseManager.js';

export function formatLicense(r: LicenseReport): string {
  const lines: string[] = [];
  if (r.status === 'none') {
    lines.push('No license: actor drill-down and saved segments are off. Ingestion and reports work as usual.');
  } else {
    lines.push(`Status:      ${r.status}`);
    lines.push(`Licensee:    ${r.licensee}`);
    if (r.edition) lines.push(`Edition:     ${r.edition}`);
    if (r.license_id) lines.push(`License id:  ${r.license_id}`);
    lines.push(`Expires:     ${r.expires_at}${r.days_left !== null ? ` (${r.days_left} days left)` : ''}`);
    lines.push(`Grace ends:  ${r.grace_ends_at}`);
    lines.push(`Features:    ${r.features.length ? r.features.join(', ') : 'none active'}`);
  }
  lines.push(`Install id:  ${r.install_id}`);
  if (r.refused) lines.push(`Stored license refused: ${r.refused}`);
  for (const w of r.warnings) lines.push(`Warning: ${w}`);
  if (r.clock_warning) lines.push(`Warning: ${r.clock_warning}`);
  return lines.join('\n') + '\n';
}
