// Splits a part's bytes into records, each with the line it starts on and the offset just past it,
// so an import can say where a bad record is and resume after the last one it stored. JSON lines
// split at line feeds; CSV (RFC 4180) keeps line feeds, commas and doubled quotes inside quoted
// fields. Both read every byte once: linear in the input, whatever it holds. Each hands on the
// records of a chunk read together, so a file of millions of records takes one turn of the caller's
// loop per chunk, not per record.

/** A record longer than this is refused (a JSON line) or ends the file (an unterminated CSV quote). */
export const RECORD_MAX_BYTES = 1 << 20;

export interface Position {
  /** Byte offset in the part. */
  offset: number;
  /** 1-based line number of the byte at `offset`. */
  line: number;
}

export interface LineRecord {
  text: string;
  line: number;
  end: Position;
  /** Set when the line was longer than RECORD_MAX_BYTES (its text is then empty). */
  tooLong?: true;
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;

/** The lines of a part from `start` (blank ones skipped), those of each chunk read together. */
export async function* jsonLines(chunks: AsyncIterable<Buffer>, start: Position): AsyncIterable<LineRecord[]> {
  let offset = start.offset;
  let line = start.line;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const emit = (body: Buffer, end: Position): LineRecord | undefined => {
    const tooLong = pendingBytes + body.length > RECORD_MAX_BYTES;
    const bytes = tooLong ? Buffer.alloc(0) : pending.length > 0 ? Buffer.concat([...pending, body]) : body;
    pending = [];
    pendingBytes = 0;
    let n = bytes.length;
    if (n > 0 && bytes[n - 1] === CR) n -= 1;
    const text = bytes.toString('utf8', 0, n);
    // A line that starts with its object needs no look for blanks.
    if (!tooLong && (n === 0 || bytes[0] !== 0x7b) && text.trim() === '') return undefined;
    return tooLong ? { text, line: end.line - 1, end, tooLong: true } : { text, line: end.line - 1, end };
  };
  for await (const chunk of chunks) {
    const out: LineRecord[] = [];
    let from = 0;
    for (let at = chunk.indexOf(LF, from); at >= 0; at = chunk.indexOf(LF, from)) {
      line += 1;
      const r = emit(chunk.subarray(from, at), { offset: offset + at + 1, line });
      if (r) out.push(r);
      from = at + 1;
    }
    if (from < chunk.length) {
      if (pendingBytes <= RECORD_MAX_BYTES) pending.push(chunk.subarray(from));
      pendingBytes += chunk.length - from;
    }
    offset += chunk.length;
    if (out.length > 0) yield out;
  }
  if (pendingBytes > 0) {
    const r = emit(Buffer.alloc(0), { offset, line: line + 1 });
    if (r) yield [r];
  }
}

export interface CsvRecord {
  fields: string[];
  line: number;
  end: Position;
  /** Why the record is malformed (a stray quote), if it is. */
  defect?: string;
}

export class CsvTooLongError extends Error {
  constructor(readonly line: number) {
    super(`the CSV record starting at line ${line} is longer than ${RECORD_MAX_BYTES} bytes (an unterminated quote?)`);
  }
}

enum S {
  FieldStart,
  Unquoted,
  Quoted,
  QuoteInQuoted,
}

/** The records of a CSV part from `start` (blank lines skipped), those of each chunk read together. */
export async function* csvRecords(chunks: AsyncIterable<Buffer>, start: Position): AsyncIterable<CsvRecord[]> {
  let offset = start.offset;
  let line = start.line;
  let state = S.FieldStart;
  let fields: string[] = [];
  let parts: Buffer[] = [];
  let recordBytes = 0;
  let recordLine = line;
  let defect: string | undefined;
  const field = (chunk: Buffer, from: number, to: number, trimCr: boolean) => {
    const last = chunk.subarray(from, to);
    let bytes = parts.length > 0 ? Buffer.concat([...parts, last]) : last;
    if (trimCr && bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    fields.push(bytes.toString('utf8'));
    parts = [];
  };
  const take = (end: Position): CsvRecord | undefined => {
    const record = fields.length === 1 && fields[0] === '' ? undefined : { fields, line: recordLine, end, ...(defect ? { defect } : {}) };
    fields = [];
    defect = undefined;
    recordBytes = 0;
    recordLine = end.line;
    return record;
  };
  for await (const chunk of chunks) {
    const out: CsvRecord[] = [];
    let seg = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      switch (state) {
        case S.FieldStart:
          if (b === QUOTE) {
            state = S.Quoted;
            seg = i + 1;
          } else if (b === COMMA) {
            fields.push('');
          } else if (b === LF) {
            line += 1;
            fields.push('');
            const r = take({ offset: offset + i + 1, line });
            if (r) out.push(r);
          } else if (b !== CR) {
            state = S.Unquoted;
            seg = i;
          }
          break;
        case S.Unquoted:
          if (b === COMMA) {
            field(chunk, seg, i, false);
            state = S.FieldStart;
          } else if (b === LF) {
            field(chunk, seg, i, true);
            line += 1;
            state = S.FieldStart;
            const r = take({ offset: offset + i + 1, line });
            if (r) out.push(r);
          } else if (b === QUOTE) {
            defect ??= 'a quote inside an unquoted field';
          }
          break;
        case S.Quoted:
          if (b === QUOTE) {
            parts.push(chunk.subarray(seg, i));
            state = S.QuoteInQuoted;
          } else if (b === LF) {
            line += 1;
          }
          break;
        case S.QuoteInQuoted:
          if (b === QUOTE) {
            // A doubled quote: the second one starts the next piece of the field.
            seg = i;
            state = S.Quoted;
          } else if (b === COMMA) {
            field(chunk, i, i, false);
            state = S.FieldStart;
          } else if (b === LF) {
            field(chunk, i, i, false);
            line += 1;
            state = S.FieldStart;
            const r = take({ offset: offset + i + 1, line });
            if (r) out.push(r);
          } else if (b !== CR) {
            defect ??= 'text after the closing quote of a field';
            seg = i;
            state = S.Unquoted;
          }
          break;
      }
    }
    offset += chunk.length;
    if (state === S.Unquoted || state === S.Quoted) {
      parts.push(chunk.subarray(seg));
      recordBytes += chunk.length - seg;
    }
    if (out.length > 0) yield out;
    if (recordBytes > RECORD_MAX_BYTES) throw new CsvTooLongError(recordLine);
  }
  const last = state as S;
  if (last === S.Quoted) {
    fields.push(Buffer.concat(parts).toString('utf8'));
    parts = [];
    defect ??= 'a quoted field is not closed before the end of the file';
  } else if (last === S.Unquoted || last === S.QuoteInQuoted) {
    const empty = Buffer.alloc(0);
    field(empty, 0, 0, false);
  } else if (fields.length === 0) {
    return;
  } else {
    fields.push('');
  }
  const r = take({ offset, line: line + 1 });
  if (r) yield [r];
}
