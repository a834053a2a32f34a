// A position in the events list or the doctor view, as a cursor carries it (the engine's builders,
// engine/<kind>/eventsSql.ts, turn it into the keyset condition).

/** A keyset position: the order's time (receipt or event time) in microseconds since the epoch (as text) and the uuid. */
export interface EventPosition {
  at: string;
  uuid: string;
}

const MICROS = /^-?\d{1,18}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isEventPosition(value: unknown): value is EventPosition {
  const p = value as EventPosition | null;
  return typeof p === 'object' && p !== null && typeof p.at === 'string' && MICROS.test(p.at) && typeof p.uuid === 'string' && UUID.test(p.uuid);
}
