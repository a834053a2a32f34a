// What an import reads from a file: its parts, each a stream of bytes from a given offset. A plain
// file is one part, a gzip file one part (its inflated bytes), a zip (Amplitude's export) one part
// per entry, each entry inflated again when it is gzip. Offsets are in a part's inflated bytes, so a
// checkpoint (part, offset) finds the same record again; progress counts the file's own bytes.

import { createReadStream, openSync, readSync, closeSync, readFileSync, statSync } from 'node:fs';
import { createGunzip, gunzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';

export interface Part {
  /** The entry's name inside a zip; the file's own for other files. */
  name: string;
  /** Whether the part is an entry of a zip (named with the file in reports). */
  entry: boolean;
  /** The file bytes this part accounts for in progress. */
  sourceBytes: number;
  /** The part's bytes from `offset` on; `sourceRead` tells how many file bytes were read so far. */
  open(offset: number): { chunks: AsyncIterable<Buffer>; sourceRead: () => number };
}

const isGzip = (b: Buffer) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
const isZip = (b: Buffer) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

function head(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(4);
    const n = readSync(fd, b, 0, 4, 0);
    return b.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Drops the first `skip` bytes of a stream of chunks. */
async function* skipBytes(chunks: AsyncIterable<Buffer>, skip: number): AsyncIterable<Buffer> {
  let left = skip;
  for await (const chunk of chunks) {
    if (left >= chunk.length) {
      left -= chunk.length;
      continue;
    }
    yield left > 0 ? chunk.subarray(left) : chunk;
    left = 0;
  }
}

function plainPart(file: string, name: string, size: number): Part {
  return {
    name,
    entry: false,
    sourceBytes: size,
    open(offset) {
      const stream = createReadStream(file, { start: offset, highWaterMark: 1 << 20 });
      return { chunks: stream, sourceRead: () => offset + stream.bytesRead };
    },
  };
}

function gzipPart(file: string, name: string, size: number): Part {
  return {
    name,
    entry: false,
    sourceBytes: size,
    open(offset) {
      const stream = createReadStream(file, { highWaterMark: 1 << 20 });
      return { chunks: skipBytes(stream.pipe(createGunzip()), offset), sourceRead: () => stream.bytesRead };
    },
  };
}

/** The entries of a zip that hold data (folders and empty entries left out), in the zip's order. */
function zipParts(file: string): Part[] {
  const zip = readFileSync(file);
  const entries: Array<{ name: string; size: number }> = [];
  unzipSync(zip, {
    filter: (f) => {
      if (!f.name.endsWith('/') && f.originalSize > 0) entries.push({ name: f.name, size: f.size });
      return false;
    },
  });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.map(({ name, size }) => ({
    name,
    entry: true,
    sourceBytes: size,
    open(offset) {
      let read = 0;
      async function* bytes(): AsyncIterable<Buffer> {
        const unzipped = unzipSync(zip, { filter: (f) => f.name === name })[name]!;
        let data = Buffer.from(unzipped.buffer, unzipped.byteOffset, unzipped.byteLength);
        if (isGzip(data)) data = gunzipSync(data);
        read = size;
        if (offset < data.length) yield data.subarray(offset);
      }
      return { chunks: bytes(), sourceRead: () => read };
    },
  }));
}

/** The parts of a file, by what its first bytes say it is. */
export function partsOf(file: string): Part[] {
  const size = statSync(file).size;
  const name = file.split('/').pop() ?? file;
  const first = head(file);
  if (isZip(first)) return zipParts(file);
  if (isGzip(first)) return [gzipPart(file, name, size)];
  return [plainPart(file, name, size)];
}
