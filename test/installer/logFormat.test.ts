// `ppctl logs` for people: each JSON log line of the server as one readable line.

import t from 'tap';
import { readableLines, readableLogLine } from '../../installer/logFormat.js';

t.test('a log line reads as time, level, message, its fields and request id', async (t) => {
  const cases: [string, string][] = [
    [
      '{"level":30,"time":"2026-11-27T13:42:05.123Z","url":"http://127.0.0.1:8080","version":"0.1.0","msg":"listening"}',
      '2026-11-27T13:42:05.123Z  INFO   listening  url=http://127.0.0.1:8080  version=0.1.0',
    ],
    [
      '{"level":30,"time":"2026-11-27T13:42:05.123Z","req_id":"9b1f","req":{"method":"POST","url":"/v1/track","headers":{"a":"b"},"ip":"::1"},"res":{"status":202,"headers":{}},"ms":3.4,"msg":"request"}',
      '2026-11-27T13:42:05.123Z  INFO   request  POST /v1/track 202 3.4 ms  [9b1f]',
    ],
    [
      '{"level":50,"time":"2026-11-27T13:42:05.123Z","req_id":"r1","err":{"type":"Error","message":"boom"},"msg":"unexpected error"}',
      '2026-11-27T13:42:05.123Z  ERROR  unexpected error  err={"type":"Error","message":"boom"}  [r1]',
    ],
    ['{"level":40,"time":1700000000000,"msg":"slow"}', '2023-11-14T22:13:20.000Z  WARN   slow'],
    ['{"level":"info","msg":"text level"}', '-  INFO   text level'],
    ['-- Boot 1234 --', '-- Boot 1234 --'],
    ['{not json', '{not json'],
    ['{"level":30', '{"level":30'],
    ['', ''],
  ];
  for (const [line, want] of cases) t.equal(readableLogLine(line), want, line);
});

t.test('text arriving in pieces comes out as whole readable lines', async (t) => {
  const out: string[] = [];
  const write = readableLines((line) => out.push(line));
  write('{"level":30,"time":"2026-11-27T00:00:00.000Z","msg":"a"}\n{"level":30,"time":"2026-');
  t.same(out, ['2026-11-27T00:00:00.000Z  INFO   a']);
  write('11-27T00:00:01.000Z","msg":"b"}\n\nplain\n');
  t.same(out, ['2026-11-27T00:00:00.000Z  INFO   a', '2026-11-27T00:00:01.000Z  INFO   b', 'plain']);
});
