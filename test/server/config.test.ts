// Settings resolve from defaults < config file < environment < flags, and bad values are named.

import t from 'tap';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { allowedOrigins, loadConfig, settingsHelp, SETTINGS } from '../../server/ground/config.js';
import { openServices } from '../../server/openServices.js';

t.test('precedence and coercion', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pp-config-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'pp.json');
  await writeFile(file, JSON.stringify({ port: 9000, host: '0.0.0.0', rate_limit: { ip_per_minute: 7 }, license: { trusted_keys_dir: 'keys' }, cors_origins: ['https://a.example'] }));

  const defaults = loadConfig({ env: {} });
  t.equal(defaults.port, 8080);
  t.equal(defaults.host, '127.0.0.1');
  t.equal(defaults.data_dir, path.resolve('.pp-data'));
  t.equal(defaults.base_url, 'http://127.0.0.1:8080');
  t.equal(defaults.signup_mode, 'closed', 'on-prem: invitations only once the first account exists');
  t.equal(loadConfig({ env: { PP_EDITION: 'cloud' } }).signup_mode, 'legacy', 'the cloud default');

  const fromFile = loadConfig({ env: {}, configFile: file });
  t.equal(fromFile.port, 9000);
  t.equal(fromFile.rate_limit.ip_per_minute, 7);
  t.equal(fromFile.rate_limit.user_per_minute, 600, 'unset nested keys keep their default');
  t.equal(fromFile.base_url, 'http://localhost:9000');
  t.equal(fromFile.license.trusted_keys_dir, path.resolve('keys'));

  const fromEnv = loadConfig({ env: { PP_PORT: '9100', PP_CORS_ORIGINS: 'https://b.example, https://c.example', PP_RATE_LIMIT_IP_PER_MINUTE: '9' }, configFile: file });
  t.equal(fromEnv.port, 9100);
  t.same(fromEnv.cors_origins, ['https://b.example', 'https://c.example']);
  t.equal(fromEnv.rate_limit.ip_per_minute, 9);

  const fromFlags = loadConfig({ env: { PP_PORT: '9100', PP_CONFIG: file }, flags: { port: '9200', base_url: 'https://pp.example.com/' } });
  t.equal(fromFlags.port, 9200);
  t.equal(fromFlags.base_url, 'https://pp.example.com');
  t.equal(fromFlags.host, '0.0.0.0', 'PP_CONFIG names the config file');
  t.same([...allowedOrigins(fromFlags)].sort(), ['https://a.example', 'https://pp.example.com']);
});

t.test('bad values are refused with the source named', async (t) => {
  t.throws(() => loadConfig({ env: { PP_PORT: 'eighty' } }), { message: /PP_PORT must be a non-negative integer/ });
  t.throws(() => loadConfig({ env: { PP_PORT: '70000' } }), { message: /PP_PORT must be a port number/ });
  t.throws(() => loadConfig({ env: { PP_SIGNUP_MODE: 'open' } }), { message: /PP_SIGNUP_MODE must be one of legacy, closed/ });
  t.throws(() => loadConfig({ env: {}, flags: { port: '-1' } }), { message: /--port/ });
  t.throws(() => loadConfig({ env: { PP_EVENTS_ROLLUP_PROPERTIES: 'plan,props.country' } }), { message: /events.rollup_properties lists property keys without "props.": country, not props.country/ });
  t.same(loadConfig({ env: { PP_EVENTS_ROLLUP_PROPERTIES: 'plan, country' } }).events.rollup_properties, ['plan', 'country']);
  t.throws(() => loadConfig({ env: {}, configFile: '/nonexistent/pp.json' }), { message: /cannot read config file \/nonexistent\/pp.json: ENOENT/ });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pp-config-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'bad.json'), '[1,2]');
  t.throws(() => loadConfig({ env: {}, configFile: path.join(dir, 'bad.json') }), { message: /not a JSON object/ });
});

t.test('the event engine and its ClickHouse settings', async (t) => {
  const defaults = loadConfig({ env: {} });
  t.equal(defaults.events.engine, 'duckdb', 'DuckDB unless told otherwise');
  t.same(defaults.clickhouse, { urls: [], database: 'pp', user: 'default' });
  const ch = loadConfig({
    env: {
      PP_EVENTS_ENGINE: 'clickhouse',
      PP_CLICKHOUSE_URLS: 'http://10.0.0.1:8123, https://ch2.example:8443/',
      PP_CLICKHOUSE_CLUSTER: 'events-2x2',
      PP_CLICKHOUSE_DATABASE: 'pp_eu',
      PP_CLICKHOUSE_USER: 'pp',
      PP_CLICKHOUSE_PASSWORD: "it's \\ secret",
    },
  });
  t.equal(ch.events.engine, 'clickhouse');
  t.same(ch.clickhouse, { urls: ['http://10.0.0.1:8123', 'https://ch2.example:8443/'], cluster: 'events-2x2', database: 'pp_eu', user: 'pp', password: "it's \\ secret" });
  t.throws(() => loadConfig({ env: { PP_EVENTS_ENGINE: 'clickhouse' } }), { message: /events.engine clickhouse needs clickhouse.urls/ });
  t.throws(() => loadConfig({ env: { PP_EVENTS_ENGINE: 'postgres' } }), { message: /PP_EVENTS_ENGINE must be one of duckdb, clickhouse/ });
  t.throws(() => loadConfig({ env: { PP_CLICKHOUSE_DATABASE: 'pp-eu' } }), { message: /clickhouse.database must be letters, digits and _/ });
  t.throws(() => loadConfig({ env: { PP_CLICKHOUSE_DATABASE: '1pp' } }), { message: /clickhouse.database/ });
  t.throws(() => loadConfig({ env: { PP_CLICKHOUSE_CLUSTER: "x' OR 1" } }), { message: /clickhouse.cluster must be a name/ });
  t.throws(() => loadConfig({ env: { PP_CLICKHOUSE_URLS: 'tcp://10.0.0.1:9000' } }), { message: /clickhouse.urls must be http\(s\) URLs/ });
  t.throws(() => loadConfig({ env: { PP_CLICKHOUSE_URLS: 'http://user:pw@10.0.0.1:8123' } }), { message: /without credentials/ });
});

t.test('a server set to the ClickHouse engine does not start while no node answers, saying so', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pp-config-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const config = loadConfig({ env: { PP_EVENTS_ENGINE: 'clickhouse', PP_CLICKHOUSE_URLS: 'http://127.0.0.1:1', PP_DATA_DIR: dir } });
  await t.rejects(openServices(config), { message: /no ClickHouse node answered \(http:\/\/127\.0\.0\.1:1/ });
});

t.test('trust_proxy takes a hop count or proxy addresses, never "trust everyone"', async (t) => {
  const read = (value: string) => loadConfig({ env: { PP_TRUST_PROXY: value } }).trust_proxy;
  t.equal(loadConfig({ env: {} }).trust_proxy, false, 'no proxy by default');
  t.equal(read('false'), false);
  t.equal(read('0'), false);
  t.equal(read('2'), 2);
  t.equal(read('true'), 1, 'true from earlier versions means the one proxy in front, not every address');
  t.equal(loadConfig({ env: {}, flags: { trust_proxy: true } }).trust_proxy, 1);
  t.same(read('loopback, 10.0.0.0/8, fd00::/8, 192.0.2.7'), ['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
  t.throws(() => read('proxy.example.com'), { message: /PP_TRUST_PROXY: "proxy.example.com" is not a proxy address/ });
  t.throws(() => read('10.0.0.0/33'), { message: /"10.0.0.0\/33" is not a proxy address/ });
  t.throws(() => loadConfig({ env: {}, flags: { trust_proxy: -1 } }), { message: /must be a number of proxies/ });
});

t.test('the help lists every setting', async (t) => {
  const help = settingsHelp();
  for (const s of SETTINGS) {
    t.match(help, s.env);
    t.match(help, s.key);
  }
});
