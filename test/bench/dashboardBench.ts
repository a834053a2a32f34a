// A dashboard in the bench: eight insight tiles (funnel, retention, segmentation, lifecycle,
// stickiness, paths, correlations, revenue) on the main project, opened as a browser opens it: the
// dashboard, then every tile's answer requested at once. Timed cold (each tile asks for a fresh
// answer, so all eight queries run side by side) and warm (answers from the result cache); the
// target is all eight answered within 2 s.

import { CASES, type CaseScope } from './cases.js';
import type { PpServer } from './ppServer.js';
import { median } from './queryBench.js';

/** Bench cases whose request bodies the tiles save, with the insight kind (query route) of each. */
const TILES: Array<{ bench: string; kind: string }> = [
  { bench: 'funnel', kind: 'funnel' },
  { bench: 'retention', kind: 'retention' },
  { bench: 'segmentation', kind: 'segmentation' },
  { bench: 'lifecycle', kind: 'lifecycle' },
  { bench: 'stickiness', kind: 'stickiness' },
  { bench: 'paths', kind: 'paths' },
  { bench: 'correlations', kind: 'correlations' },
  { bench: 'revenue_summary', kind: 'revenue-summary' },
];

export const DASHBOARD_TARGET_MS = 2000;

export interface DashboardFigures {
  tiles: number;
  /** Medians of the dashboard read plus every tile's answer, the tiles requested in parallel. */
  coldMs: number;
  warmMs: number;
  coldRunsMs: number[];
  warmRunsMs: number[];
}

async function ok(res: Promise<{ status: number; body: string }>, expected: number, what: string): Promise<any> {
  const r = await res;
  if (r.status !== expected) throw new Error(`${what} answered ${r.status}: ${r.body.slice(0, 300)}`);
  return r.body ? JSON.parse(r.body) : undefined;
}

/** Saves the insights and the dashboard through the API (the owner's token). */
async function createDashboard(server: PpServer, base: string, scope: CaseScope): Promise<{ id: number; tiles: number[]; insights: number[] }> {
  const board = await ok(server.api('POST', `${base}/dashboards`, { name: 'Bench dashboard' }), 201, 'creating the dashboard');
  const insights: number[] = [];
  const tiles: number[] = [];
  for (const { bench, kind } of TILES) {
    const query = CASES.find((c) => c.kind === bench)!.pp(scope).body;
    const insight = await ok(server.api('POST', `${base}/insights`, { name: `Bench ${bench}`, kind, query }), 201, `saving the ${bench} insight`);
    insights.push(insight.id);
    tiles.push((await ok(server.api('POST', `${base}/dashboards/${board.id}/tiles`, { insight_id: insight.id }), 201, 'adding a tile')).id);
  }
  return { id: board.id, tiles, insights };
}

/** One opening of the dashboard: its definition, then every tile's answer at once. */
async function open(server: PpServer, base: string, id: number, fresh: boolean): Promise<number> {
  const started = performance.now();
  const board = await ok(server.api('GET', `${base}/dashboards/${id}`), 200, 'reading the dashboard');
  const headers: Record<string, string> = fresh ? { 'cache-control': 'no-cache' } : {};
  const answers = await Promise.all((board.tiles as Array<{ id: number }>).map((t) => server.api('POST', `${base}/dashboards/${id}/tiles/${t.id}/result`, undefined, headers)));
  const ms = performance.now() - started;
  for (const a of answers) if (a.status !== 200) throw new Error(`a tile answered ${a.status}: ${a.body.slice(0, 300)}`);
  const expected = fresh ? 'bypass' : 'hit';
  if (answers.some((a) => a.headers['x-pp-cache'] !== expected)) throw new Error(`tiles answered ${answers.map((a) => a.headers['x-pp-cache']).join(', ')}, not all ${expected}`);
  return ms;
}

export async function timeDashboard(server: PpServer, scope: CaseScope, o: { warmups: number; runs: number }): Promise<DashboardFigures> {
  const base = `/api/v1/projects/${scope.projectId}`;
  const board = await createDashboard(server, base, scope);
  try {
    const series = async (fresh: boolean) => {
      for (let i = 0; i < o.warmups; i++) await open(server, base, board.id, fresh);
      const runsMs: number[] = [];
      for (let i = 0; i < o.runs; i++) runsMs.push(await open(server, base, board.id, fresh));
      return runsMs;
    };
    const coldRunsMs = await series(true);
    const warmRunsMs = await series(false);
    return { tiles: board.tiles.length, coldMs: median(coldRunsMs), warmMs: median(warmRunsMs), coldRunsMs, warmRunsMs };
  } finally {
    // The kept store is reused by later runs: leave it as it was.
    await server.api('DELETE', `${base}/dashboards/${board.id}`);
    for (const id of board.insights) await server.api('DELETE', `${base}/insights/${id}`);
  }
}
