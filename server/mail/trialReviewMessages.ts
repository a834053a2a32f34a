// The emails that announce a reviewer's decision on a held trial to the organization's owners, in
// plain text. The decision itself is server/auth/signup/trialReview.ts's.

import type { MailMessage } from './outbox.js';

function day(at: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(at));
}

function oneLine(name: string): string {
  return name.replace(/\s+/g, ' ');
}

export function trialApprovedMessage(baseUrl: string, to: string, trial: { orgName: string; days: number; endsAt: string }): MailMessage {
  const text = [
    `Good news: the trial of your organization "${trial.orgName}" on pp has been approved.`,
    `It runs ${trial.days} days from now, until ${day(trial.endsAt)} (UTC). Everything works again: collecting events, projects, dashboards and the rest.`,
    baseUrl,
    'Thank you for your patience.',
  ];
  return { kind: 'trial_approved', to, subject: `Your pp trial for ${oneLine(trial.orgName)} is active`, text: text.join('\n\n') + '\n' };
}

export function trialRejectedMessage(billingUrl: string, to: string, trial: { orgName: string }): MailMessage {
  const text = [
    `We have reviewed the trial request of your organization "${trial.orgName}" on pp, and we cannot offer it a free trial.`,
    'You can still use pp: choose a plan for the organization here, and everything works from then on:',
    billingUrl,
    'Your account and the organization stay as they are until then.',
  ];
  return { kind: 'trial_rejected', to, subject: `About your pp trial for ${oneLine(trial.orgName)}`, text: text.join('\n\n') + '\n' };
}
