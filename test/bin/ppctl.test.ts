// ppctl as an operator runs it: help, serve in the foreground with a graceful stop, the embedded
// first start, and an admin command with and without a running server.

import t from 'tap';
import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/tempDir.js';
import { runPpctl, spawnServe } from '../support/ppctl.js';
import { request } from '../support/testServer.js';

t.test('help lists commands and every setting', async (t) => {
  const help = await runPpctl(['--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, /serve/);
  t.match(help.stdout, /migrations/);
  const serveHelp = await runPpctl(['serve', '--help']);
  t.equal(serveHelp.code, 0);
  for (const name of ['--port', '--host', '--data-dir', '--config', 'PP_PORT', 'PP_HOST', 'PP_DATA_DIR', 'PP_BASE_URL', 'PP_CORS_ORIGINS']) {
    t.match(serveHelp.stdout, name);
  }
});

t.test('every command takes --json', async (t) => {
  // The help texts as `ppctl <words> --help` prints them, read through the same parser in this
  // process: one process per command (sixty-odd) took about 16 s of the suite. `ppctl --help` and
  // `ppctl serve --help` run as processes in the test above.
  const { program } = await import('../../bin/ppctl.js');
  let printed = '';
  const quiet = (cmd: Command): void => {
    cmd.exitOverride().configureOutput({ writeOut: (s) => (printed += s), writeErr: (s) => (printed += s) });
    cmd.commands.forEach(quiet);
  };
  quiet(program);
  const helpOf = async (words: string[]): Promise<string> => {
    printed = '';
    await t.rejects(program.parseAsync([process.execPath, 'ppctl', ...words, '--help']), { code: 'commander.helpDisplayed' }, `ppctl ${words.join(' ')} --help`);
    return printed;
  };
  /** The commands a help text lists, without `help` itself. */
  const commandsIn = (help: string): string[] =>
    (help.split(/^Commands:\n/m)[1] ?? '')
      .split('\n')
      .map((l) => /^ {2}(\S+)/.exec(l)?.[1])
      .filter((c): c is string => c !== undefined && c !== 'help');
  const top = commandsIn(await helpOf([])).map((c) => [c]);
  t.ok(top.length > 20, `${top.length} commands`);
  const leaves = new Map<string, string>();
  for (const words of top) {
    const help = await helpOf(words);
    const subs = commandsIn(help);
    if (subs.length === 0) leaves.set(words.join(' '), help);
    for (const sub of subs) leaves.set([...words, sub].join(' '), await helpOf([...words, sub]));
  }
  t.ok(leaves.size > top.length, `${leaves.size} commands with their subcommands`);
  for (const [name, help] of leaves) t.match(help, /--json/, `ppctl ${name} takes --json`);
});

t.test('with --json an error is JSON too', async (t) => {
  const res = await runPpctl(['admin', 'reset-password', 'nobody@example.test', '--json', '--data-dir', await tempDir(t)]);
  t.equal(res.code, 1);
  t.equal(res.stdout, '');
  t.same(JSON.parse(res.stderr), { error: { message: 'no account with email nobody@example.test' } });
});

t.test('a bad setting is refused with its name and a non-zero exit', async (t) => {
  const res = await runPpctl(['serve', '--port', 'abc', '--data-dir', await tempDir(t)]);
  t.equal(res.code, 1);
  t.match(res.stderr, /--port must be a non-negative integer/);
});

t.test('serve: JSON first line, graceful SIGTERM, clean second start; embedded credentials once', async (t) => {
  const dataDir = await tempDir(t);
  const first = await spawnServe(['--data-dir', dataDir, '--embedded']);
  t.equal(first.firstLine.msg, 'listening');
  t.match(first.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  // The banner follows the log lines and the demo data; wait for it.
  for (let i = 0; i < 600 && !first.stdout.some((l) => l.includes('demo project id')); i++) await new Promise((r) => setTimeout(r, 100));
  const banner = first.stdout.join('\n');
  // The terminal shows what docs/console.md shows: where it listens, then the short block, nothing else.
  t.same(
    first.stdout.slice(1).map((l) =>
      l
        .replace(/[\d,]+ events of [\d,]+ visitors/, 'N events of M visitors')
        .replace(/password: \S+/, 'password: P')
        .replace(/127\.0\.0\.1:\d+/, 'HOST'),
    ),
    [
      'Loading demo data into the demo project…',
      '  N events of M visitors over 13 weeks.',
      '',
      'pp is running at http://HOST/sign-in',
      '  owner email: owner@pp.local',
      '  one-time password: P  (shown only now; you choose your own at the first sign-in)',
      '  demo project id: 1',
      '',
    ],
    'the listening line and the block, no migration or background lines',
  );
  const kept = await runPpctl(['logs', '--json', '-n', '2000', '--data-dir', dataDir]);
  t.equal(kept.code, 0, kept.stderr);
  t.match(kept.stdout, /"migration":"0001_accounts\.sql","msg":"migration applied"/, 'the migrations applied are in ppctl logs');
  t.notMatch(banner, '"msg":"request"', 'the demo data is loaded in-process: no request log lines');
  const health = await request(first.url, 'GET', '/api/v1/health');
  t.equal(health.status, 200);
  t.match(banner, /owner email: owner@pp\.local/);
  t.match(banner, `pp is running at ${first.url}/sign-in`, 'the printed address is the console sign-in page');
  const password = /one-time password: (\S+)/.exec(banner)?.[1];
  t.ok(password, 'a generated password is printed on the first start');
  t.match(password, /[A-Z]/);

  // The demo project's data came in through ingestion: every event the banner counts is stored.
  const loaded = Number(/([\d,]+) events of ([\d,]+) visitors/.exec(banner)?.[1]?.replace(/,/g, ''));
  t.ok(loaded > 20_000, `tens of thousands of demo events (${loaded})`);
  const token = (await request(first.url, 'POST', '/api/v1/auth/login', { body: { email: 'owner@pp.local', password } })).body.access_token as string;
  const today = new Date().toISOString().slice(0, 10);
  const weeks = Number(/visitors over (\d+) weeks/.exec(banner)?.[1]);
  const since = new Date(Date.now() - (weeks * 7 + 1) * 86_400_000).toISOString().slice(0, 10);
  const counted = await request(first.url, 'POST', '/api/v1/projects/1/queries/segmentation', {
    token,
    body: { event: 'any', metric: 'events', interval: 'month', date_from: since, date_to: today },
  });
  t.equal(counted.status, 200, counted.text);
  t.equal(
    counted.body.series[0].points.reduce((n: number, p: { value: number }) => n + p.value, 0),
    loaded,
    'the queries count them all',
  );
  const settings = await request(first.url, 'GET', '/api/v1/projects/1/behavior/settings', { token });
  t.match(settings.body, { autocapture_clicks: true, autocapture_forms: true, autocapture_scroll: true }, 'autocapture is on for the demo project');
  const keys = await request(first.url, 'GET', '/api/v1/projects/1/keys', { token });
  t.same(
    keys.body.items.map((k: { name: string; status: string }) => [k.name, k.status]),
    [['Demo data loader', 'revoked']],
    'the key that loaded them is revoked',
  );

  // The admin socket answers while the server holds the files.
  const viaSocket = await runPpctl(['migrations', '--json', '--data-dir', dataDir]);
  t.equal(viaSocket.code, 0, viaSocket.stderr);
  t.ok(JSON.parse(viaSocket.stdout).duckdb.length > 0);

  first.child.kill('SIGTERM');
  t.equal(await first.exited, 0, 'SIGTERM ends the process cleanly');
  t.notOk(existsSync(path.join(dataDir, 'admin.sock')), 'the admin socket is removed');
  t.notOk(existsSync(path.join(dataDir, 'events.duckdb.wal')), 'the event store was checkpointed and closed');

  const direct = await runPpctl(['migrations', '--data-dir', dataDir]);
  t.equal(direct.code, 0, direct.stderr);
  t.match(direct.stdout, /0001_accounts/);

  const second = await spawnServe(['--data-dir', dataDir, '--embedded', '--verbose']);
  for (let i = 0; i < 100 && !second.stdout.some((l) => l.includes('demo project id')); i++) await new Promise((r) => setTimeout(r, 100));
  const again = second.stdout.join('\n');
  t.match(again, /owner email: owner@pp\.local/);
  t.notMatch(again, /one-time password/, 'no password on the second start');
  t.notMatch(again, /demo data/i, 'nor demo data');
  t.notMatch(again, /migration applied/, 'nothing left to migrate');
  await request(second.url, 'GET', '/api/v1/health');
  for (let i = 0; i < 50 && !second.stdout.some((l) => l.includes('"msg":"request"')); i++) await new Promise((r) => setTimeout(r, 100));
  t.ok(
    second.stdout.some((l) => l.includes('"msg":"request"')),
    'with --verbose the terminal shows every log line',
  );
  second.child.kill('SIGINT');
  t.equal(await second.exited, 0, 'SIGINT ends the process cleanly');
});

t.test('a SIGTERM sent as soon as the listening line is read stops the server cleanly', async (t) => {
  const served = await spawnServe(['--data-dir', await tempDir(t)]);
  served.child.kill('SIGTERM');
  t.equal(await served.exited, 0, 'the stop handlers were set before the line was written');
});

t.test('settings come from a config file and the environment', async (t) => {
  const dataDir = await tempDir(t);
  const file = path.join(dataDir, 'pp.json');
  await writeFile(file, JSON.stringify({ base_url: 'https://analytics.example.com' }));
  const served = await spawnServe(['--config', file], { PP_DATA_DIR: dataDir });
  t.equal(served.firstLine.base_url, 'https://analytics.example.com');
  t.equal(served.firstLine.data_dir, dataDir);
  // The admin socket is found from the same setting, and is open by the listening line, as the stop
  // handlers are: a signal sent at once, right after that line, stops the server cleanly.
  const status = await runPpctl(['status'], { PP_DATA_DIR: dataDir });
  t.equal(status.code, 0, status.stderr);
  served.child.kill('SIGTERM');
  t.equal(await served.exited, 0);
});
