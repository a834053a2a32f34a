// Settings: one table of definitions, resolved from defaults < JSON config file < PP_* environment < flags.
// Every later ppctl command resolves its installation through the same function.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';

type Kind = 'string' | 'int' | 'list' | 'enum' | 'bool' | 'proxy';

interface SettingDef {
  /** Dotted key in the JSON config file; also the property path in Config. */
  key: string;
  env: string;
  kind: Kind;
  values?: readonly string[];
  description: string;
}

export const SETTINGS: readonly SettingDef[] = [
  { key: 'port', env: 'PP_PORT', kind: 'int', description: 'TCP port of both API surfaces (default 8080)' },
  { key: 'host', env: 'PP_HOST', kind: 'string', description: 'address to listen on (default 127.0.0.1)' },
  { key: 'data_dir', env: 'PP_DATA_DIR', kind: 'string', description: 'directory holding meta.sqlite, events.duckdb and the admin socket (default ./.pp-data)' },
  { key: 'base_url', env: 'PP_BASE_URL', kind: 'string', description: 'public URL of this server, used in links and the Origin allowlist (default http://HOST:PORT)' },
  { key: 'cors_origins', env: 'PP_CORS_ORIGINS', kind: 'list', description: 'comma-separated origins allowed to call the main API with credentials' },
  { key: 'log_level', env: 'PP_LOG_LEVEL', kind: 'enum', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], description: 'log level (default info)' },
  { key: 'secret', env: 'PP_SECRET', kind: 'string', description: 'server secret for signing tokens and encrypting secrets at rest (default: generated once into DATA_DIR/secret.key)' },
  { key: 'edition', env: 'PP_EDITION', kind: 'enum', values: ['onprem', 'cloud'], description: 'onprem (default) or cloud, the hosted service with trial-first signup' },
  {
    key: 'signup_mode',
    env: 'PP_SIGNUP_MODE',
    kind: 'enum',
    values: ['legacy', 'closed', 'trial_first'],
    description:
      'who may register: legacy (anyone), closed (invitations only, once the first account exists) or trial_first (cloud only: emailed verification first); default closed on-prem, legacy in the cloud',
  },
  {
    key: 'signup.disposable_domains',
    env: 'PP_SIGNUP_DISPOSABLE_DOMAINS',
    kind: 'list',
    description: 'comma-separated email domains refused at trial-first signup, added to the shipped disposable list (subdomains included)',
  },
  {
    key: 'signup.free_email_domains',
    env: 'PP_SIGNUP_FREE_EMAIL_DOMAINS',
    kind: 'list',
    description: 'comma-separated email domains treated as free providers by the signup risk rules, added to the shipped list',
  },
  { key: 'billing.trial_days', env: 'PP_BILLING_TRIAL_DAYS', kind: 'int', description: "cloud: length of a new organization's trial, in days (default 14)" },
  { key: 'billing.trial_plan', env: 'PP_BILLING_TRIAL_PLAN', kind: 'enum', values: ['free', 'growth', 'scale'], description: 'cloud: the plan whose entitlements a live trial has (default growth)' },
  {
    key: 'billing.trial_event_cap',
    env: 'PP_BILLING_TRIAL_EVENT_CAP',
    kind: 'int',
    description: 'cloud: events a trial may ingest in total; beyond it ingest answers 429 trial_quota_exceeded (default 1000000)',
  },
  { key: 'billing.free_events_per_month', env: 'PP_BILLING_FREE_EVENTS_PER_MONTH', kind: 'int', description: 'cloud: monthly event quota of the free plan (default 100000)' },
  { key: 'billing.growth_events_per_month', env: 'PP_BILLING_GROWTH_EVENTS_PER_MONTH', kind: 'int', description: 'cloud: monthly event quota of the growth plan (default 10000000)' },
  { key: 'billing.scale_events_per_month', env: 'PP_BILLING_SCALE_EVENTS_PER_MONTH', kind: 'int', description: 'cloud: monthly event quota of the scale plan (default 100000000)' },
  {
    key: 'billing.past_due_grace_days',
    env: 'PP_BILLING_PAST_DUE_GRACE_DAYS',
    kind: 'int',
    description: 'cloud: days a past-due subscription keeps working before 402 subscription_required (default 7)',
  },
  {
    key: 'billing.checkout_url',
    env: 'PP_BILLING_CHECKOUT_URL',
    kind: 'string',
    description: "cloud: the payment provider's checkout page for a paid plan; {org_id}, {plan} and {email} are filled in (unset: paid plans cannot be chosen in the console)",
  },
  {
    key: 'billing.webhook_secret',
    env: 'PP_BILLING_WEBHOOK_SECRET',
    kind: 'string',
    description: 'cloud: shared secret the payment provider signs its callbacks with (HMAC-SHA256); unset: the callback answers 404',
  },
  {
    key: 'billing.webhook_tolerance_seconds',
    env: 'PP_BILLING_WEBHOOK_TOLERANCE_SECONDS',
    kind: 'int',
    description: "cloud: how far a payment callback's signed timestamp may be from now, in seconds (default 300)",
  },
  { key: 'sms.gateway_url', env: 'PP_SMS_GATEWAY_URL', kind: 'string', description: 'cloud: HTTP(S) endpoint that sends text messages (POST JSON {to, text}); unset: messages stay in the SMS outbox' },
  { key: 'sms.gateway_token', env: 'PP_SMS_GATEWAY_TOKEN', kind: 'string', description: 'cloud: bearer token sent to the SMS gateway' },
  { key: 'smtp_url', env: 'PP_SMTP_URL', kind: 'string', description: 'SMTP URL for outgoing mail, e.g. smtp://user:pass@host:587 (unset: mail stays in the outbox)' },
  { key: 'mail_from', env: 'PP_MAIL_FROM', kind: 'string', description: 'sender address of outgoing mail (default pp@localhost)' },
  { key: 'rate_limit.ip_per_minute', env: 'PP_RATE_LIMIT_IP_PER_MINUTE', kind: 'int', description: 'main API requests per minute per client address (default 1200)' },
  { key: 'rate_limit.user_per_minute', env: 'PP_RATE_LIMIT_USER_PER_MINUTE', kind: 'int', description: 'main API requests per minute per signed-in user (default 600)' },
  { key: 'rate_limit.api_key_per_minute', env: 'PP_RATE_LIMIT_API_KEY_PER_MINUTE', kind: 'int', description: 'main API requests per minute per personal API key (default 300)' },
  {
    key: 'rate_limit.auth_ip_per_minute',
    env: 'PP_RATE_LIMIT_AUTH_IP_PER_MINUTE',
    kind: 'int',
    description: 'sign-in, registration, password reset and invitation attempts per minute per client address (default 10)',
  },
  {
    key: 'rate_limit.auth_email_per_minute',
    env: 'PP_RATE_LIMIT_AUTH_EMAIL_PER_MINUTE',
    kind: 'int',
    description: 'sign-in, registration and password reset attempts per minute per email address (default 5)',
  },
  {
    key: 'rate_limit.refresh_ip_per_minute',
    env: 'PP_RATE_LIMIT_REFRESH_IP_PER_MINUTE',
    kind: 'int',
    description: 'refresh, bootstrap and logout requests per minute per client address (default 120)',
  },
  { key: 'rate_limit.shared_ip_per_minute', env: 'PP_RATE_LIMIT_SHARED_IP_PER_MINUTE', kind: 'int', description: 'requests to public share links per minute per client address (default 300)' },
  {
    key: 'rate_limit.shared_token_per_minute',
    env: 'PP_RATE_LIMIT_SHARED_TOKEN_PER_MINUTE',
    kind: 'int',
    description: 'requests per minute to one public share link, from every address together (default 600)',
  },
  { key: 'query_timeout_ms', env: 'PP_QUERY_TIMEOUT_MS', kind: 'int', description: 'time limit of one analytical query or event read, in ms (default 30000)' },
  { key: 'query_cache_mb', env: 'PP_QUERY_CACHE_MB', kind: 'int', description: "memory for answers of analytical queries kept until the project's events change, in MiB; 0 keeps none (default 32)" },
  { key: 'query_timeouts.funnel', env: 'PP_QUERY_TIMEOUT_FUNNEL_MS', kind: 'int', description: 'time limit of the funnel query, in ms (default: query_timeout_ms)' },
  { key: 'query_timeouts.retention', env: 'PP_QUERY_TIMEOUT_RETENTION_MS', kind: 'int', description: 'time limit of the retention query, in ms (default: query_timeout_ms)' },
  { key: 'query_timeouts.retention_actors', env: 'PP_QUERY_TIMEOUT_RETENTION_ACTORS_MS', kind: 'int', description: 'time limit of the retention actors query, in ms (default: query_timeout_ms)' },
  { key: 'query_timeouts.segmentation', env: 'PP_QUERY_TIMEOUT_SEGMENTATION_MS', kind: 'int', description: 'time limit of the segmentation query, in ms (default: query_timeout_ms)' },
  { key: 'query_timeouts.lifecycle', env: 'PP_QUERY_TIMEOUT_LIFECYCLE_MS', kind: 'int', description: 'time limit of the lifecycle query, in ms (default: query_timeout_ms)' },
  { key: 'query_timeouts.stickiness', env: 'PP_QUERY_TIMEOUT_STICKINESS_MS', kind: 'int', description: 'time limit of the stickiness query, in ms (default: query_timeout_ms)' },
  { key: 'query_timeouts.activity_summary', env: 'PP_QUERY_TIMEOUT_ACTIVITY_SUMMARY_MS', kind: 'int', description: 'time limit of the activity summary query, in ms (default: query_timeout_ms)' },
  { key: 'query_timeouts.revenue_summary', env: 'PP_QUERY_TIMEOUT_REVENUE_SUMMARY_MS', kind: 'int', description: 'time limit of the revenue summary query, in ms (default: query_timeout_ms)' },
  { key: 'query_timeouts.paths', env: 'PP_QUERY_TIMEOUT_PATHS_MS', kind: 'int', description: 'time limit of the paths query, in ms (default: query_timeout_ms)' },
  { key: 'query_timeouts.correlations', env: 'PP_QUERY_TIMEOUT_CORRELATIONS_MS', kind: 'int', description: 'time limit of the correlations query, in ms (default: query_timeout_ms)' },
  {
    key: 'query_timeouts.activation_drivers',
    env: 'PP_QUERY_TIMEOUT_ACTIVATION_DRIVERS_MS',
    kind: 'int',
    description: 'time limit of the activation drivers query, in ms (default: query_timeout_ms)',
  },
  { key: 'query_timeouts.web', env: 'PP_QUERY_TIMEOUT_WEB_MS', kind: 'int', description: 'time limit of the Web page query, in ms (default: query_timeout_ms)' },
  { key: 'license.trusted_keys_dir', env: 'PP_LICENSE_TRUSTED_KEYS', kind: 'string', description: 'directory of extra trusted license public keys (<kid>.pem)' },
  {
    key: 'trust_proxy',
    env: 'PP_TRUST_PROXY',
    kind: 'proxy',
    description:
      'the reverse proxies whose X-Forwarded-For is believed: how many stand in front of pp (1, 2…) or their addresses (comma-separated IPs, CIDR ranges, loopback, linklocal, uniquelocal); default none',
  },
  { key: 'ingest.dedup_window_hours', env: 'PP_INGEST_DEDUP_WINDOW_HOURS', kind: 'int', description: 'how far back a re-sent event uuid is recognized as already stored, in hours (default 24)' },
  {
    key: 'ingest.dedup_filter_events',
    env: 'PP_INGEST_DEDUP_FILTER_EVENTS',
    kind: 'int',
    description: 'how many recently stored events the in-memory duplicate filter holds (about 11 bytes each; default 3000000); older ones within the window are looked up in the event store',
  },
  { key: 'oidc.callback_url', env: 'PP_OIDC_CALLBACK_URL', kind: 'string', description: 'page of the web app a successful single sign-on redirects to (default BASE_URL/auth/callback)' },
  { key: 'oidc.http_timeout_ms', env: 'PP_OIDC_HTTP_TIMEOUT_MS', kind: 'int', description: 'time limit of one request to an identity provider, in ms (default 5000)' },
  {
    key: 'oidc.allow_private_issuers',
    env: 'PP_OIDC_ALLOW_PRIVATE_ISSUERS',
    kind: 'bool',
    description: 'let organization owners configure identity providers on loopback, link-local or private addresses, and over plain http (default false)',
  },
  {
    key: 'events.engine',
    env: 'PP_EVENTS_ENGINE',
    kind: 'enum',
    values: ['duckdb', 'clickhouse'],
    description: "where events are kept: duckdb (default, one file in DATA_DIR) or clickhouse (a cluster of the customer's, see docs/scale-out.md)",
  },
  {
    key: 'clickhouse.urls',
    env: 'PP_CLICKHOUSE_URLS',
    kind: 'list',
    description: 'events.engine clickhouse: comma-separated HTTP URLs of the ClickHouse nodes pp may talk to (the first that answers is used)',
  },
  {
    key: 'clickhouse.cluster',
    env: 'PP_CLICKHOUSE_CLUSTER',
    kind: 'string',
    description: "events.engine clickhouse: the cluster's name in the nodes' remote_servers (tables are made ON CLUSTER and sharded); unset for one node",
  },
  { key: 'clickhouse.database', env: 'PP_CLICKHOUSE_DATABASE', kind: 'string', description: "events.engine clickhouse: the database holding this installation's tables (default pp)" },
  { key: 'clickhouse.user', env: 'PP_CLICKHOUSE_USER', kind: 'string', description: 'events.engine clickhouse: the ClickHouse user (default default)' },
  { key: 'clickhouse.password', env: 'PP_CLICKHOUSE_PASSWORD', kind: 'string', description: "events.engine clickhouse: the ClickHouse user's password (default empty)" },
  {
    key: 'events.memory_limit_mb',
    env: 'PP_EVENTS_MEMORY_LIMIT_MB',
    kind: 'int',
    description: 'memory the event database may use for queries and ingestion, in MiB; larger intermediate results spill to DATA_DIR/events.tmp (default 192)',
  },
  {
    key: 'events.rollup_properties',
    env: 'PP_EVENTS_ROLLUP_PROPERTIES',
    kind: 'list',
    description: 'comma-separated top-level property keys whose daily event counts per value are kept in a rollup, so breakdowns by them read no raw events (default none)',
  },
  { key: 'events.stream_heartbeat_ms', env: 'PP_EVENTS_STREAM_HEARTBEAT_MS', kind: 'int', description: 'interval of the keep-alive comment on the live event stream, in ms (default 15000)' },
  {
    key: 'picker_enabled',
    env: 'PP_PICKER_ENABLED',
    kind: 'bool',
    description: 'let analysts pick elements on their sites for labeled-event rules with a signed picker token (default true); false answers the picker operations 501',
  },
  { key: 'tls_cert', env: 'PP_TLS_CERT', kind: 'string', description: 'PEM certificate (chain) file; with tls_key the server speaks HTTPS itself' },
  { key: 'tls_key', env: 'PP_TLS_KEY', kind: 'string', description: 'PEM private key file matching tls_cert' },
];

export interface Config {
  port: number;
  host: string;
  data_dir: string;
  base_url: string;
  cors_origins: string[];
  log_level: string;
  secret?: string;
  edition: 'onprem' | 'cloud';
  signup_mode: 'legacy' | 'closed' | 'trial_first';
  /** Operator additions to the shipped disposable and free-provider lists (trial-first signup). */
  signup: { disposable_domains: string[]; free_email_domains: string[] };
  /** Cloud edition: trials, plan quotas and the payment provider (see docs/cloud.md). */
  billing: {
    trial_days: number;
    trial_plan: 'free' | 'growth' | 'scale';
    trial_event_cap: number;
    free_events_per_month: number;
    growth_events_per_month: number;
    scale_events_per_month: number;
    past_due_grace_days: number;
    checkout_url?: string;
    webhook_secret?: string;
    webhook_tolerance_seconds: number;
  };
  /** Cloud edition: the HTTP gateway text messages go through (trial activation codes). */
  sms: { gateway_url?: string; gateway_token?: string };
  smtp_url?: string;
  mail_from: string;
  rate_limit: {
    ip_per_minute: number;
    user_per_minute: number;
    api_key_per_minute: number;
    auth_ip_per_minute: number;
    auth_email_per_minute: number;
    refresh_ip_per_minute: number;
    shared_ip_per_minute: number;
    shared_token_per_minute: number;
  };
  query_timeout_ms: number;
  query_cache_mb: number;
  /** Per-query limits overriding query_timeout_ms, by query name. */
  query_timeouts: Partial<
    Record<
      'funnel' | 'retention' | 'retention_actors' | 'segmentation' | 'lifecycle' | 'stickiness' | 'activity_summary' | 'revenue_summary' | 'paths' | 'correlations' | 'activation_drivers' | 'web',
      number
    >
  >;
  license: { trusted_keys_dir?: string };
  /** false: trust no X-Forwarded-For; a number: that many proxy hops; a list: those proxy addresses. */
  trust_proxy: TrustProxy;
  ingest: { dedup_window_hours: number; dedup_filter_events: number };
  /** Single sign-on; `callback_url` unset means BASE_URL/auth/callback (see oidcCallbackUrl). */
  oidc: { callback_url?: string; http_timeout_ms: number; allow_private_issuers: boolean };
  events: { engine: 'duckdb' | 'clickhouse'; stream_heartbeat_ms: number; memory_limit_mb: number; rollup_properties: string[] };
  /** Where events.engine clickhouse keeps them (see docs/scale-out.md); `cluster` unset means one node. */
  clickhouse: ClickHouseSettings;
  /** Whether picker tokens are issued (their key derives from the server secret). */
  picker_enabled: boolean;
  /** Both set: the server listens with HTTPS using these PEM files. */
  tls_cert?: string;
  tls_key?: string;
  /** The config file the settings were read from, if any. */
  config_file?: string;
}

export interface ClickHouseSettings {
  urls: string[];
  cluster?: string;
  database: string;
  user: string;
  password?: string;
}

export class ConfigError extends Error {}

export type TrustProxy = false | number | string[];

export interface ConfigSources {
  /** Values from command-line flags, by setting key. */
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  configFile?: string;
}

const DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  data_dir: './.pp-data',
  cors_origins: [] as string[],
  log_level: 'info',
  edition: 'onprem',
  'signup.disposable_domains': [] as string[],
  'signup.free_email_domains': [] as string[],
  'billing.trial_days': 14,
  'billing.trial_plan': 'growth',
  'billing.trial_event_cap': 1_000_000,
  'billing.free_events_per_month': 100_000,
  'billing.growth_events_per_month': 10_000_000,
  'billing.scale_events_per_month': 100_000_000,
  'billing.past_due_grace_days': 7,
  'billing.webhook_tolerance_seconds': 300,
  mail_from: 'pp@localhost',
  'rate_limit.ip_per_minute': 1200,
  'rate_limit.user_per_minute': 600,
  'rate_limit.api_key_per_minute': 300,
  'rate_limit.auth_ip_per_minute': 10,
  'rate_limit.auth_email_per_minute': 5,
  'rate_limit.refresh_ip_per_minute': 120,
  'rate_limit.shared_ip_per_minute': 300,
  'rate_limit.shared_token_per_minute': 600,
  query_timeout_ms: 30_000,
  query_cache_mb: 32,
  trust_proxy: false,
  'ingest.dedup_window_hours': 24,
  'ingest.dedup_filter_events': 3_000_000,
  'oidc.http_timeout_ms': 5000,
  'oidc.allow_private_issuers': false,
  'events.engine': 'duckdb',
  'clickhouse.urls': [] as string[],
  'clickhouse.database': 'pp',
  'clickhouse.user': 'default',
  'events.stream_heartbeat_ms': 15_000,
  'events.memory_limit_mb': 192,
  'events.rollup_properties': [] as string[],
  picker_enabled: true,
} as Record<string, unknown>;

export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  const configFile = sources.configFile ?? env.PP_CONFIG;
  const fileValues = configFile ? readConfigFile(configFile) : {};
  const flat: Record<string, unknown> = {};
  for (const def of SETTINGS) {
    const fromFlag = sources.flags?.[def.key];
    const fromEnv = env[def.env];
    const fromFile = getPath(fileValues, def.key);
    let value: unknown = DEFAULTS[def.key];
    if (fromFile !== undefined) value = coerce(def, fromFile, `${configFile}: ${def.key}`);
    if (fromEnv !== undefined && fromEnv !== '') value = coerce(def, fromEnv, def.env);
    if (fromFlag !== undefined) value = coerce(def, fromFlag, `--${def.key.replaceAll('_', '-')}`);
    if (value !== undefined) flat[def.key] = value;
  }
  const config = unflatten(flat) as unknown as Config;
  config.data_dir = path.resolve(config.data_dir);
  if (config.license.trusted_keys_dir) config.license.trusted_keys_dir = path.resolve(config.license.trusted_keys_dir);
  if ((config.tls_cert === undefined) !== (config.tls_key === undefined)) throw new ConfigError('tls_cert and tls_key must be set together');
  if (config.query_cache_mb < 0) throw new ConfigError(`query_cache_mb must be 0 or more, got ${config.query_cache_mb}`);
  if (config.events.memory_limit_mb < 64) throw new ConfigError(`events.memory_limit_mb must be at least 64, got ${config.events.memory_limit_mb}`);
  checkClickHouse(config);
  const prefixed = config.events.rollup_properties.find((k) => k.startsWith('props.'));
  if (prefixed) throw new ConfigError(`events.rollup_properties lists property keys without "props.": ${prefixed.slice('props.'.length)}, not ${prefixed}`);
  // An appliance is invitation-only unless its operator opens it; the cloud edition signs teams up.
  config.signup_mode ??= config.edition === 'cloud' ? 'legacy' : 'closed';
  if (config.signup_mode === 'trial_first' && config.edition !== 'cloud') {
    throw new ConfigError('signup_mode trial_first needs edition cloud (PP_EDITION=cloud); an on-prem installation registers with legacy or closed');
  }
  config.signup.disposable_domains = config.signup.disposable_domains.map(normalizeDomain);
  config.signup.free_email_domains = config.signup.free_email_domains.map(normalizeDomain);
  if (config.tls_cert) config.tls_cert = path.resolve(config.tls_cert);
  if (config.tls_key) config.tls_key = path.resolve(config.tls_key);
  const scheme = config.tls_cert ? 'https' : 'http';
  config.base_url = (config.base_url ?? `${scheme}://${displayHost(config.host)}:${config.port}`).replace(/\/+$/, '');
  if (config.oidc.callback_url !== undefined && !isRedirectTarget(config.oidc.callback_url)) {
    throw new ConfigError(`oidc.callback_url must be an http(s) URL or a path starting with /, got ${JSON.stringify(config.oidc.callback_url)}`);
  }
  if (configFile) config.config_file = path.resolve(configFile);
  return config;
}

/** A database name is an identifier and a part of ZooKeeper paths; a cluster name is an element name of the nodes' configuration. */
const CLICKHOUSE_DATABASE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CLICKHOUSE_CLUSTER = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function checkClickHouse(config: Config): void {
  const ch = config.clickhouse;
  if (!CLICKHOUSE_DATABASE.test(ch.database)) throw new ConfigError(`clickhouse.database must be letters, digits and _ (not starting with a digit), got ${JSON.stringify(ch.database)}`);
  if (ch.cluster !== undefined && !CLICKHOUSE_CLUSTER.test(ch.cluster)) {
    throw new ConfigError(`clickhouse.cluster must be a name from the nodes' remote_servers (letters, digits, _, . and -), got ${JSON.stringify(ch.cluster)}`);
  }
  for (const url of ch.urls) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.username || parsed.password || parsed.search || parsed.hash) {
      throw new ConfigError(`clickhouse.urls must be http(s) URLs of ClickHouse nodes without credentials or query (the user and password are settings of their own), got ${JSON.stringify(url)}`);
    }
  }
  if (config.events.engine === 'clickhouse' && ch.urls.length === 0) throw new ConfigError('events.engine clickhouse needs clickhouse.urls (PP_CLICKHOUSE_URLS), the HTTP URLs of the nodes');
}

/** The Origin allowlist for cookie-authenticated operations: configured CORS origins plus the base URL. */
export function allowedOrigins(config: Config): Set<string> {
  const origins = new Set(config.cors_origins.map((o) => o.replace(/\/+$/, '')));
  origins.add(new URL(config.base_url).origin);
  return origins;
}

/** Where a successful single sign-on sends the browser. */
export function oidcCallbackUrl(config: Config): string {
  return config.oidc.callback_url ?? `${config.base_url}/auth/callback`;
}

function isRedirectTarget(value: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//')) return true;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** `@Mail.Example.COM.` and `mail.example.com` name the same domain. */
function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '');
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    return parsed as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`config file ${file} is not a JSON object: ${(err as Error).message}`);
  }
}

function coerce(def: SettingDef, raw: unknown, source: string): unknown {
  switch (def.kind) {
    case 'int': {
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${source} must be a non-negative integer, got ${JSON.stringify(raw)}`);
      if (def.key === 'port' && n > 65535) throw new ConfigError(`${source} must be a port number (0-65535), got ${n}`);
      return n;
    }
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      const s = String(raw).trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(s)) return true;
      if (['0', 'false', 'no', 'off'].includes(s)) return false;
      throw new ConfigError(`${source} must be true or false, got ${JSON.stringify(raw)}`);
    }
    case 'proxy':
      return trustProxy(raw, source);
    case 'list':
      if (Array.isArray(raw)) return raw.map(String);
      return String(raw)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'enum': {
      const s = String(raw);
      if (!def.values!.includes(s)) throw new ConfigError(`${source} must be one of ${def.values!.join(', ')}, got ${JSON.stringify(raw)}`);
      return s;
    }
    case 'string':
      if (typeof raw !== 'string' || raw === '') throw new ConfigError(`${source} must be a non-empty string`);
      return raw;
  }
}

const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * The forms of express's `trust proxy` that cannot be fooled by a client: a hop count or a list of
 * proxy addresses. `true` would believe the left-most X-Forwarded-For entry, which any client
 * writes; from earlier versions it is read as one proxy hop, which is what it meant in practice.
 */
function trustProxy(raw: unknown, source: string): TrustProxy {
  if (raw === false || raw === 0) return false;
  if (raw === true) return 1;
  if (typeof raw === 'number') {
    if (!Number.isInteger(raw) || raw < 0) throw new ConfigError(`${source} must be a number of proxies (1, 2…) or a list of proxy addresses, got ${JSON.stringify(raw)}`);
    return raw;
  }
  const items = (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((s) => s.trim()).filter(Boolean);
  if (items.length === 1) {
    const one = items[0]!.toLowerCase();
    if (['0', 'false', 'no', 'off', 'none'].includes(one)) return false;
    if (['true', 'yes', 'on'].includes(one)) return 1;
    if (/^\d+$/.test(one)) return Number(one) || false;
  }
  if (items.length === 0) return false;
  const bad = items.find((item) => !isProxyAddress(item));
  if (bad !== undefined) {
    throw new ConfigError(`${source}: ${JSON.stringify(bad)} is not a proxy address; give IPs, CIDR ranges (10.0.0.0/8), loopback, linklocal or uniquelocal, or a number of proxies`);
  }
  return items;
}

function isProxyAddress(item: string): boolean {
  if (PROXY_RANGES.has(item)) return true;
  const [address, bits, ...rest] = item.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

function getPath(obj: Record<string, unknown>, dotted: string): unknown {
  let cur: unknown = obj;
  for (const part of dotted.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function unflatten(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { rate_limit: {}, license: {}, ingest: {}, query_timeouts: {}, oidc: {}, events: {}, clickhouse: {}, signup: {}, billing: {}, sms: {} };
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let cur = out;
    for (const part of parts.slice(0, -1)) cur = (cur[part] ??= {}) as Record<string, unknown>;
    cur[parts.at(-1)!] = value;
  }
  return out;
}

/** Help text listing every setting with its flag, variable and config key. */
export function settingsHelp(): string {
  const lines = ['Settings (flag / environment variable / config file key):'];
  for (const def of SETTINGS) {
    lines.push(`  ${def.env.padEnd(30)} ${def.key.padEnd(26)} ${def.description}`);
  }
  return lines.join('\n');
}
