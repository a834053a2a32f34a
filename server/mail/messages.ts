// The text of every email pp sends: plain text first, with a simple HTML alternative. Links are built
// on the configured base URL; the one-time token is the only secret in them.

import type { MailMessage } from './outbox.js';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

interface Link {
  href: string;
  label: string;
}

const anchor = (link: Link) => `<a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`;

/** `footer` is a small last paragraph ending in a link of its own (an unsubscribe link). */
function html(paragraphs: string[], link: Link, footer?: { text: string; link: Link }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const end = footer ? `<p><small>${escapeHtml(footer.text)} ${anchor(footer.link)}</small></p>\n` : '';
  return `<!doctype html>\n<html><body>\n${body}\n<p>${anchor(link)}</p>\n${end}</body></html>\n`;
}

/** The console page where a reset token chooses a new password. */
export function resetPasswordLink(baseUrl: string, token: string): string {
  return `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

export function passwordResetMessage(baseUrl: string, to: string, token: string): MailMessage {
  const link = resetPasswordLink(baseUrl, token);
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

/** The console page that completes a trial-first signup from the emailed link. */
export function signupVerifyLink(baseUrl: string, token: string): string {
  return `${baseUrl}/signup/verify?token=${encodeURIComponent(token)}`;
}

/** The code stands on a line of its own so it can be copied; `deadline` is already in the person's zone. */
export function signupVerificationMessage(baseUrl: string, to: string, code: string, token: string, deadline: string): MailMessage {
  const link = signupVerifyLink(baseUrl, token);
  const intro = `Your pp confirmation code is valid until ${deadline}:`;
  const orLink = 'Or confirm your address with this link:';
  const outro = 'If you did not sign up for pp, ignore this email; no account is created without the code.';
  return {
    kind: 'signup_verification',
    to,
    subject: 'Confirm your email for pp',
    text: `${intro}\n\n${code}\n\n${orLink}\n\n${link}\n\n${outro}\n`,
    html: html([intro, code, orLink, outro], { href: link, label: 'Confirm my email' }),
  };
}

/** To the owner of an organization: someone at their company's domain asked to be invited. */
export function inviteRequestMessage(baseUrl: string, to: string, request: { requester: string; orgName: string }): MailMessage {
  const link = `${baseUrl}/org`;
  const intro = `${request.requester} tried to sign up for pp and asked to join your organization "${request.orgName}" instead. If you know them, invite them from the organization page:`;
  const outro = 'If you do not know them, ignore this email; nothing was created.';
  return {
    kind: 'signup_invite_request',
    to,
    subject: `${request.requester} asks to join ${request.orgName.replace(/\s+/g, ' ')} on pp`,
    text: `${intro}\n\n${link}\n\n${outro}\n`,
    html: html([intro, outro], { href: link, label: 'Open the organization page' }),
  };
}

const TRIAL_END = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/**
 * To an owner of an organization whose trial ends soon. Marketing email: it carries the owner's
 * unsubscribe link in the text and in the `List-Unsubscribe` headers (RFC 2369 and the one-click
 * post of RFC 8058).
 */
export function trialReminderMessage(baseUrl: string, to: string, reminder: { orgName: string; endsAt: Date; unsubscribeToken: string }): MailMessage {
  const billing = `${baseUrl}/org/billing`;
  const token = encodeURIComponent(reminder.unsubscribeToken);
  const unsubscribePage = `${baseUrl}/unsubscribe?token=${token}`;
  const endsAt = `${TRIAL_END.format(reminder.endsAt)} UTC`;
  const intro = `The pp trial of your organization "${reminder.orgName}" ends on ${endsAt}. To keep collecting and reading your data after that, choose a plan:`;
  const footer = `You receive this reminder as an owner of "${reminder.orgName}". To stop reminders and news from pp, open:`;
  return {
    kind: 'trial_reminder',
    to,
    subject: `Your pp trial ends on ${endsAt}`,
    text: `${intro}\n\n${billing}\n\n${footer}\n${unsubscribePage}\n`,
    html: html([intro], { href: billing, label: 'Choose a plan' }, { text: footer, link: { href: unsubscribePage, label: 'Unsubscribe' } }),
    headers: {
      'List-Unsubscribe': `<${baseUrl}/api/v1/email/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
