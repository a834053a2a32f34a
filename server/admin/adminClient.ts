// Runs an admin command for ppctl: through the admin socket when a server is running on the data
// directory, otherwise by opening the installation directly for the length of the command.

import http from 'node:http';
import { existsSync } from 'node:fs';
import type { Config } from '../ground/config.js';
import { createLogger } from '../ground/logger.js';
import { openServices } from '../openServices.js';
import { adminCommand, AdminCommandError } from './adminCommands.js';
import { adminSocketPath } from './adminSocket.js';

export interface AdminResult {
  result: unknown;
  via: 'socket' | 'direct';
}

export async function runAdminCommand(config: Config, name: string, args: Record<string, unknown> = {}): Promise<AdminResult> {
  const socket = adminSocketPath(config.data_dir);
  if (existsSync(socket)) {
    const answer = await callSocket(socket, name, args).catch((err: NodeJS.ErrnoException) => {
      // A socket file left by a server that died: nobody listens, so work directly.
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (answer) {
      if (answer.status !== 200) throw new AdminCommandError(answer.body.error ?? `admin command ${name} failed`);
      return { result: answer.body.result, via: 'socket' };
    }
  }
  const command = adminCommand(name);
  if (!command) throw new AdminCommandError(`unknown admin command ${name}`);
  const opened = await openServices(config, { log: createLogger('warn', process.stderr as unknown as import('pino').DestinationStream) });
  try {
    return { result: await command(opened.services, args), via: 'direct' };
  } finally {
    await opened.close();
  }
}

function callSocket(socketPath: string, name: string, args: Record<string, unknown>): Promise<{ status: number; body: { result?: unknown; error?: string } }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: `/commands/${encodeURIComponent(name)}`, method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 500, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as { result?: unknown; error?: string } });
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(args));
  });
}
