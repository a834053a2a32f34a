// The text of every email pp sends: plain text first, with a simple HTML alternative. Links are built
// on the configured base URL; the one-time token is the only secret in them.

import type { MailMessage } from './outbox.js';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function html(paragraphs: string[], link: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html>\n<html><body>\n${body}\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>\n</body></html>\n`;
}

export function passwordResetMessage(baseUrl: string, to: string, token: string): MailMessage {
  const link = `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
  const intro = 'Someone asked to reset the password of your pp account. If it was you, open this link within one hour to choose a new password:';
  const outro = 'If you did not ask for this, ignore this email; your password stays as it is.';
  return {
    kind: 'password_reset',
    to,
    subject: 'Reset your pp password',
    text: `${intro}\n\n${link}\n\n${outro}\n`,
    html: html([intro, outro], { href: link, label: 'Choose a new password' }),
  };
}

/** The console page that accepts an invitation. */
export function inviteLink(baseUrl: string, token: string): string {
  return `${baseUrl}/invite?token=${encodeURIComponent(token)}`;
}

export function inviteMessage(baseUrl: string, to: string, token: string, invite: { orgName: string; role: string; inviter: string | null }): MailMessage {
  const link = inviteLink(baseUrl, token);
  const who = invite.inviter ? `${invite.inviter} invited you` : 'You have been invited';
  const intro = `${who} to join the organization "${invite.orgName}" on pp as ${invite.role}. The invitation is valid for seven days:`;
  return {
    kind: 'invite',
    to,
    subject: `Invitation to ${invite.orgName.replace(/\s+/g, ' ')} on pp`,
    text: `${intro}\n\n${link}\n`,
    html: html([intro], { href: link, label: 'Accept the invitation' }),
  };
}
