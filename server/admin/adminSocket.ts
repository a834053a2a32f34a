// The admin socket: a Unix socket in the data directory (mode 0600) on which ppctl asks a running
// server to run admin commands, since only one process may hold the DuckDB file.

import http from 'node:http';
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type { Services } from '../http/services.js';
import { adminCommand, AdminCommandError } from './adminCommands.js';

export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, 'admin.sock');
}

const MAX_BODY = 4 * 1024 * 1024;

export async function startAdminSocket(services: Services): Promise<{ close(): Promise<void> }> {
  const file = adminSocketPath(services.config.data_dir);
  if (existsSync(file)) unlinkSync(file);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      void (async () => {
        const name = decodeURIComponent((req.url ?? '').replace(/^\/commands\//, ''));
        const command = adminCommand(name);
        res.setHeader('Content-Type', 'application/json');
        if (req.method !== 'POST' || !command) {
          res.statusCode = 404;
          res.end(JSON.stringify({ error: `unknown admin command ${name}` }));
          return;
        }
        try {
          const args = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
          const result = await command(services, args);
          res.end(JSON.stringify({ result: result ?? null }));
        } catch (err) {
          const operator = err instanceof AdminCommandError;
          if (!operator) services.log.error({ err, command: name }, 'admin command failed');
          res.statusCode = operator ? 400 : 500;
          res.end(JSON.stringify({ error: operator ? err.message : `admin command ${name} failed: ${(err as Error).message}` }));
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
