// The labeled-event operations the console calls (docs/labeled-events.md), in one place: the
// rules, their state changes, the preview count and the element picker's token and captures.
// Types are the served OpenAPI document's.

import { api, ok, type Schemas } from '../api/client';

export type Rule = Schemas['LabeledEventRule'];
export type RuleBody = Schemas['LabeledEventRuleBody'];
export type Conditions = Schemas['LabeledEventPreviewBody'];
export type RuleAttribute = Schemas['LabeledEventAttribute'];
export type BaseEvent = Rule['base_event'];
export type AttributeOp = RuleAttribute['op'];
export type Preview = Schemas['LabeledEventPreview'];
export type PickerToken = Schemas['PickerToken'];
export type PickerCapture = Schemas['PickerCapturePoll'];

const project = (id: number) => ({ params: { path: { id } } });
const rule = (id: number, ruleID: number) => ({ params: { path: { id, ruleID } } });

export const listRules = (projectId: number) => ok(api.GET('/api/v1/projects/{id}/labeled-events', project(projectId)));
export const getRule = (projectId: number, ruleId: number) => ok(api.GET('/api/v1/projects/{id}/labeled-events/{ruleID}', rule(projectId, ruleId)));
export const createRule = (projectId: number, body: RuleBody) => ok(api.POST('/api/v1/projects/{id}/labeled-events', { ...project(projectId), body }));
export const replaceRule = (projectId: number, ruleId: number, body: RuleBody) => ok(api.PATCH('/api/v1/projects/{id}/labeled-events/{ruleID}', { ...rule(projectId, ruleId), body }));
export const disableRule = (projectId: number, ruleId: number) => ok(api.POST('/api/v1/projects/{id}/labeled-events/{ruleID}/disable', rule(projectId, ruleId)));
export const enableRule = (projectId: number, ruleId: number) => ok(api.POST('/api/v1/projects/{id}/labeled-events/{ruleID}/enable', rule(projectId, ruleId)));
export const deleteRule = (projectId: number, ruleId: number) => ok(api.DELETE('/api/v1/projects/{id}/labeled-events/{ruleID}', rule(projectId, ruleId)));
export const previewRule = (projectId: number, body: Conditions) => ok(api.POST('/api/v1/projects/{id}/labeled-events/preview', { ...project(projectId), body }));
export const pickerToken = (projectId: number) => ok(api.POST('/api/v1/projects/{id}/labeled-events/picker-token', project(projectId)));
export const pickerCapture = (projectId: number, token: string) => ok(api.GET('/api/v1/projects/{id}/labeled-events/picker/captures', { params: { path: { id: projectId }, query: { token } } }));
