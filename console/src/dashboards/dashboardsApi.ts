// The saved-insight, dashboard and share-link operations the console calls (docs/console.md,
// Dashboards), in one place. Types are the served OpenAPI document's.

import createClient from 'openapi-fetch';
import { api, ok, type Schemas } from '../api/client';
import type { paths } from '../api/schema';

export type Insight = Schemas['Insight'];
export type InsightKind = Insight['kind'];
export type Dashboard = Schemas['Dashboard'];
export type DashboardPatch = Schemas['DashboardPatch'];
/** A tile as the console shows it, or as a share link shows it (its insight without authors). */
export type Tile = Schemas['Tile'] | Schemas['SharedTile'];
export type ShareLink = Schemas['ShareLink'];
export type ShareTarget = ShareLink['target'];
export type Overrides = Schemas['ResultOverrides'];

const project = (id: number) => ({ params: { path: { id } } });
const insight = (id: number, insightID: number) => ({ params: { path: { id, insightID } } });
const dashboard = (id: number, dashboardID: number) => ({ params: { path: { id, dashboardID } } });
const tile = (id: number, dashboardID: number, tileID: number) => ({ params: { path: { id, dashboardID, tileID } } });

export const listInsights = (projectId: number) => ok(api.GET('/api/v1/projects/{id}/insights', project(projectId)));
export const getInsight = (projectId: number, id: number) => ok(api.GET('/api/v1/projects/{id}/insights/{insightID}', insight(projectId, id)));
export const createInsight = (projectId: number, body: { name: string; description?: string; kind: string; query: unknown; date_range?: string | null }) =>
  ok(api.POST('/api/v1/projects/{id}/insights', { ...project(projectId), body: body as Schemas['InsightBody'] }));
export const updateInsight = (projectId: number, id: number, body: Schemas['InsightPatch']) => ok(api.PATCH('/api/v1/projects/{id}/insights/{insightID}', { ...insight(projectId, id), body }));
export const deleteInsight = (projectId: number, id: number) => ok(api.DELETE('/api/v1/projects/{id}/insights/{insightID}', insight(projectId, id)));
export const insightResult = (projectId: number, id: number, overrides: Overrides = {}) =>
  ok(api.POST('/api/v1/projects/{id}/insights/{insightID}/result', { ...insight(projectId, id), body: overrides })) as Promise<unknown>;

export const listDashboards = (projectId: number) => ok(api.GET('/api/v1/projects/{id}/dashboards', project(projectId)));
export const getDashboard = (projectId: number, id: number) => ok(api.GET('/api/v1/projects/{id}/dashboards/{dashboardID}', dashboard(projectId, id)));
export const createDashboard = (projectId: number, body: Schemas['DashboardBody']) => ok(api.POST('/api/v1/projects/{id}/dashboards', { ...project(projectId), body }));
export const updateDashboard = (projectId: number, id: number, body: DashboardPatch) => ok(api.PATCH('/api/v1/projects/{id}/dashboards/{dashboardID}', { ...dashboard(projectId, id), body }));
export const deleteDashboard = (projectId: number, id: number) => ok(api.DELETE('/api/v1/projects/{id}/dashboards/{dashboardID}', dashboard(projectId, id)));
// Width and height are left to the server's defaults (the generated type marks defaulted fields required).
export const addTile = (projectId: number, dashboardId: number, body: { insight_id: number } | { text: string }) =>
  ok(api.POST('/api/v1/projects/{id}/dashboards/{dashboardID}/tiles', { ...dashboard(projectId, dashboardId), body: body as Schemas['TileBody'] }));
export const updateTile = (projectId: number, dashboardId: number, tileId: number, body: Schemas['TilePatch']) =>
  ok(api.PATCH('/api/v1/projects/{id}/dashboards/{dashboardID}/tiles/{tileID}', { ...tile(projectId, dashboardId, tileId), body }));
export const removeTile = (projectId: number, dashboardId: number, tileId: number) =>
  ok(api.DELETE('/api/v1/projects/{id}/dashboards/{dashboardID}/tiles/{tileID}', tile(projectId, dashboardId, tileId)));
export const tileResult = (projectId: number, dashboardId: number, tileId: number) =>
  ok(api.POST('/api/v1/projects/{id}/dashboards/{dashboardID}/tiles/{tileID}/result', tile(projectId, dashboardId, tileId))) as Promise<unknown>;

export const listShareLinks = (projectId: number) => ok(api.GET('/api/v1/projects/{id}/share-links', project(projectId)));
export const createShareLink = (projectId: number, body: Schemas['ShareLinkBody']) => ok(api.POST('/api/v1/projects/{id}/share-links', { ...project(projectId), body }));
export const revokeShareLink = (projectId: number, id: number) => ok(api.DELETE('/api/v1/projects/{id}/share-links/{linkID}', { params: { path: { id: projectId, linkID: id } } }));

// The public side carries no cookie and no token: the share link's token is its only credential.
const shared = createClient<paths>({ baseUrl: '', credentials: 'omit' });
const token = (t: string) => ({ params: { path: { token: t } } });

export const getShared = (t: string) => ok(shared.GET('/api/v1/shared/{token}', token(t)));
export const sharedTileResult = (t: string, tileId: number) => ok(shared.POST('/api/v1/shared/{token}/tiles/{tileID}/result', { params: { path: { token: t, tileID: tileId } } })) as Promise<unknown>;
export const sharedResult = (t: string) => ok(shared.POST('/api/v1/shared/{token}/result', token(t))) as Promise<unknown>;
