// Mail has no HTTP routes of its own: mounting it starts the outbox workers for the running server,
// the mail worker and its text-message twin (server/sms), and the periodic trial reminders
// (server/billing) that feed the mail outbox.

import type { Domain } from '../http/domain.js';
import { startMailWorker } from './mailWorker.js';
import { startSmsWorker } from '../sms/smsWorker.js';
import { startTrialReminders } from '../billing/trialReminders.js';

export const mailDomain: Domain = {
  name: 'mail',
  openapi: { paths: {} },
  mount(_routes, services) {
    startMailWorker(services);
    startSmsWorker(services);
    startTrialReminders(services);
  },
};
