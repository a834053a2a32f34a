// Values written into ClickHouse SQL as literals. ClickHouse 18.16 (Debian's) has no query
// parameters, so every value a statement carries is escaped here, on the client, and nowhere else:
// builders write `sql` templates (or call `literal`) and never put a value into the text themselves.
// Each function reads its input once, left to right (no regular expressions over user text).

/** Text put into a statement as it is: identifiers and fragments built by pp's own code. */
export class RawSql {
  constructor(readonly text: string) {}
}

export function raw(text: string): RawSql {
  return new RawSql(text);
}

export class LiteralError extends Error {
  override name = 'LiteralError';
}

const HEX = '0123456789ABCDEF';

/**
 * A string literal: quoted with ', a backslash and a quote escaped with a backslash, every control
 * character (and DEL) as \xHH, so a statement's text holds no NUL, newline or tab from a value.
 * Other characters go as they are (the statement is sent as UTF-8); a lone surrogate, which has no
 * UTF-8 form, becomes U+FFFD, as any UTF-8 encoder would make it.
 */
export function stringLiteral(s: string): string {
  let out = "'";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let escaped: string | undefined;
    if (c === 0x5c) escaped = '\\\\';
    else if (c === 0x27) escaped = "\\'";
    else if (c < 0x20 || c === 0x7f) escaped = `\\x${HEX[c >> 4]}${HEX[c & 15]}`;
    else if (c >= 0xd800 && c <= 0xdfff) {
      const low = s.charCodeAt(i + 1);
      if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        i++;
        continue;
      }
      escaped = '\ufffd';
    }
    if (escaped === undefined) continue;
    out += s.slice(from, i) + escaped;
    from = i + 1;
  }
  return `${out}${s.slice(from)}'`;
}

/**
 * Bytes as a string literal (a String holds any bytes): printable ASCII as it is (a backslash and a
 * quote escaped), every other byte as \xHH, so the statement's text stays ASCII.
 */
export function bytesLiteral(bytes: Uint8Array): string {
  let out = "'";
  for (const b of bytes) {
    if (b === 0x5c) out += '\\\\';
    else if (b === 0x27) out += "\\'";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return `${out}'`;
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** The smallest normal double. */
const MIN_NORMAL = 2.2250738585072014e-308;

function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new LiteralError(`${value} has no ClickHouse literal pp writes`);
  // 18.16's parser refuses subnormal doubles (5e-324) as a syntax error.
  if (value !== 0 && Math.abs(value) < MIN_NORMAL) throw new LiteralError(`${value} is a subnormal double, which ClickHouse 18.16 cannot read`);
  // The shortest text that reads back as the same double (1e+21, 5e-324 and 0.1 included); -0 as 0.
  return Object.is(value, -0) ? '0' : String(value);
}

function bigintLiteral(value: bigint): string {
  if (value < INT64_MIN || value > UINT64_MAX) throw new LiteralError(`${value} is outside ClickHouse's 64-bit integers`);
  return value.toString();
}

/** The UTC text of a DateTime ('YYYY-MM-DD hh:mm:ss'), the second `d` falls in (the sub-second part is the caller's: see `splitMicros`). */
export function dateTimeText(d: Date): string {
  const ms = d.getTime();
  if (!Number.isFinite(ms)) throw new LiteralError('an invalid date has no literal');
  // DateTime is an unsigned 32-bit count of seconds.
  if (ms < 0 || ms >= 2 ** 32 * 1000) throw new LiteralError(`${d.toISOString()} is outside ClickHouse's DateTime (1970 to 2106)`);
  return new Date(ms - (((ms % 1000) + 1000) % 1000)).toISOString().slice(0, 19).replace('T', ' ');
}

/** An instant as ClickHouse keeps it: a DateTime (whole seconds) and the microseconds within that second. */
export function splitMicros(us: number): { seconds: number; micros: number } {
  const seconds = Math.floor(us / 1_000_000);
  return { seconds, micros: us - seconds * 1_000_000 };
}

/**
 * A value as a ClickHouse literal: NULL, a number, a 64-bit integer (bigint), 1 or 0 for a
 * boolean, a string, bytes (a Uint8Array, see `bytesLiteral`), a DateTime in UTC (a Date of whole seconds: a sub-second part would be lost,
 * so it is refused; pp keeps it in a column of its own), an array of any of these, or raw text.
 */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof RawSql) return value.text;
  switch (typeof value) {
    case 'string':
      return stringLiteral(value);
    case 'number':
      return numberLiteral(value);
    case 'bigint':
      return bigintLiteral(value);
    case 'boolean':
      return value ? '1' : '0';
  }
  if (value instanceof Uint8Array) return bytesLiteral(value);
  if (value instanceof Date) {
    const text = dateTimeText(value);
    if (value.getTime() % 1000 !== 0) throw new LiteralError(`${value.toISOString()} has a sub-second part a DateTime literal would lose`);
    return `toDateTime(${stringLiteral(text)}, 'UTC')`;
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ', ') + literal(value[i]);
    return `${out}]`;
  }
  throw new LiteralError(`a ${Object.prototype.toString.call(value)} has no ClickHouse literal`);
}

/** A row of an INSERT's VALUES: the values as literals, in parentheses. */
export function tuple(values: readonly unknown[]): string {
  let out = '(';
  for (let i = 0; i < values.length; i++) out += (i === 0 ? '' : ', ') + literal(values[i]);
  return `${out})`;
}

/** A backquoted identifier (a database, table or column name pp chose). */
export function identifier(name: string): RawSql {
  let out = '`';
  for (const ch of name) out += ch === '`' ? '\\`' : ch === '\\' ? '\\\\' : ch;
  return new RawSql(`${out}\``);
}

/** A statement whose interpolated values are written as literals (`raw`/`identifier` for text that is not a value). */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += literal(values[i]) + strings[i + 1]!;
  return out;
}

/**
 * Where a statement names a table by its database: a mark the connection replaces with the
 * installation's database before sending (`inInstallation`). On a cluster, a subquery of a
 * statement over a Distributed table runs on each shard in that shard's default database, so a
 * table other than the one the Distributed table points at must be named with its database. A
 * literal never holds the mark: control characters are written escaped (`stringLiteral`).
 */
const DATABASE_MARK = '\u0001database\u0001';

/** The installation's table `name`, named with its database (see DATABASE_MARK). */
export function table(name: string): string {
  return `${DATABASE_MARK}.${identifier(name).text}`;
}

/** `statement` with every table named by `table()` in `database`. */
export function inInstallation(statement: string, database: RawSql): string {
  return statement.includes(DATABASE_MARK) ? statement.replaceAll(DATABASE_MARK, database.text) : statement;
}
