// Reads a recording's events stream (NDJSON, one stored chunk a line) and hands each chunk's
// events on as soon as its line is complete, so the player starts before the rest arrives.

import { apiFetch, toApiError } from '../api/client';

export async function readRecording(projectId: number, sessionId: string, onEvents: (events: unknown[]) => void, signal: AbortSignal): Promise<void> {
  const response = await apiFetch(`/api/v1/projects/${projectId}/recordings/${encodeURIComponent(sessionId)}/chunks`, { signal });
  if (!response.ok || !response.body) throw toApiError(response.status, await response.json().catch(() => undefined));
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    let start = 0;
    while ((end = buffer.indexOf('\n', start)) >= 0) {
      const line = buffer.slice(start, end);
      start = end + 1;
      if (line) onEvents((JSON.parse(line) as { events: unknown[] }).events);
    }
    buffer = buffer.slice(start);
  }
  if (buffer.trim()) onEvents((JSON.parse(buffer) as { events: unknown[] }).events);
}
