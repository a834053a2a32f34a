// Anonymous id, user id and session id, persisted per key prefix in localStorage. Where
// storage is unavailable (blocked, private modes) they live in memory for the page's life:
// the tracker never sets cookies.
import { uuid } from './util.js';

export const SESSION_IDLE_MS = 30 * 60 * 1000;

interface Stored {
  a: string;
  u?: string;
  s: string;
  t: number;
}

function storage(): Storage | undefined {
  try {
    const s = window.localStorage;
    const probe = '__pp_probe';
    s.setItem(probe, '1');
    s.removeItem(probe);
    return s;
  } catch {
    return undefined;
  }
}

export class Identity {
  private readonly name: string;
  private readonly store = storage();
  private state: Stored;

  constructor(prefix: string) {
    this.name = `pp_${prefix}`;
    this.state = this.read() ?? { a: uuid(), s: uuid(), t: Date.now() };
    this.write();
  }

  anonymousId(): string {
    return this.fresh().a;
  }

  userId(): string | undefined {
    return this.fresh().u;
  }

  // Reading the session id counts as activity: it is only asked for when something is sent.
  sessionId(now = Date.now()): string {
    const st = this.fresh();
    if (now - st.t > SESSION_IDLE_MS) st.s = uuid();
    st.t = now;
    this.write();
    return st.s;
  }

  // The current session without counting as activity: background senders (replay) must not
  // keep an idle session alive.
  peekSessionId(): string {
    return this.fresh().s;
  }

  setUser(userId: string): void {
    this.fresh().u = userId;
    this.write();
  }

  reset(): void {
    this.state = { a: uuid(), s: uuid(), t: Date.now() };
    this.write();
  }

  // Another tab may have identified, reset or rotated the session: storage wins.
  private fresh(): Stored {
    const s = this.read();
    if (s) this.state = s;
    return this.state;
  }

  private read(): Stored | undefined {
    if (!this.store) return undefined;
    try {
      const v = JSON.parse(this.store.getItem(this.name) || 'null') as Stored | null;
      return v && typeof v.a === 'string' && typeof v.s === 'string' && typeof v.t === 'number' ? v : undefined;
    } catch {
      return undefined;
    }
  }

  private write(): void {
    try {
      this.store?.setItem(this.name, JSON.stringify(this.state));
    } catch {
      // quota or privacy settings: the in-memory state keeps working
    }
  }
}
