// Funnel on ClickHouse: the walk through each actor's events, written with arrays (18.16 has no
// window functions). Pure SQL text from integers and pp's own fragments; values come in already
// written as literals.
//
// An actor's events (only those matching some step) are gathered into one array in funnel order
// (the order of `stepOrder` in statements.ts: instant, then first step matched, then the steps
// matched as bits, then breakdown value, none last; events still tied are the same in everything
// the funnel reads). From each step-1 event the walk takes, for every next step, the earliest
// later event matching it, as DuckDB's greedy matching does, and keeps the step while its event is
// within the window of the step-1 event.
//
// Every lookup is a gather of an array at positions that never decrease, done by sorting and a
// running sum (`gather`), never by a lambda that captures an array: ClickHouse copies a captured
// array for every element, which is quadratic in an actor's events. So the walk costs a few sorts
// of each actor's events, whatever their number.

/** Past every instant: a step whose event would be here is outside any window. */
const NEVER = '4611686018427387904';

/**
 * `V[J[1]], V[J[2]], …` for an array of positions `J` that never decreases, each in 1..length(V):
 * V's differences at the even keys 2k and zeros at the odd keys 2j+1, sorted by key, then summed
 * as they go, give V[j] at the key of each position j. `V` is an array of Int64.
 */
function gather(v: string, j: string): string {
  const keys = `arrayConcat(arrayMap(k -> toInt64(k) * 2, arrayEnumerate(${v})), arrayMap(k -> k * 2 + 1, ${j}))`;
  const steps = `arrayConcat(arrayMap((a, b) -> a - b, ${v}, arrayPushFront(arrayPopBack(${v}), toInt64(0))), arrayMap(k -> toInt64(0), ${j}))`;
  return `arrayFilter((s, k) -> k % 2 = 1, arrayCumSum(arraySort((s, k) -> k, ${steps}, ${keys})), arraySort(${keys}))`;
}

export interface WalkColumns {
  /** The actor (key or id). */
  actor: string;
  /** The instant in µs (the order). */
  us: string;
  /** The instant in ms (gaps and the window). */
  t: string;
  /** The step-match key: the first step matched times 2^n plus the steps matched as bits, step 1 the highest; 0 when none. */
  key: string;
  /** The breakdown value (Nullable(String)). */
  bval: string;
  /** 1 when the event can start an attempt: it matches step 1 on a local day of the range. */
  start: string;
}

/** The step-match key of `stepOrder` from the steps' match conditions (0/1 expressions). */
export function stepKey(matches: string[]): string {
  const n = matches.length;
  const first = `multiIf(${matches.map((m, i) => `${m}, ${i + 1}`).join(', ')}, 0)`;
  const bits = matches.map((m, i) => `(${m}) * ${2 ** (n - 1 - i)}`).join(' + ');
  return `(${first} * ${2 ** n} + ${bits})`;
}

/**
 * One row per attempt of each actor (arrays per actor, to ARRAY JOIN or pick from): columns
 * `actor`, `alv` (the level of each attempt), `ab` (its step-1 breakdown value) and `at1`…`atN` (its
 * step times, ms; NEVER-based past the level), all arrays aligned by attempt. `scan` yields the
 * columns of `WalkColumns` under those names.
 */
export function attemptsSql(scan: string, n: number, windowMs: number): string {
  const steps = Array.from({ length: n }, (_, i) => i + 1);
  const order = "arraySort(x -> (tupleElement(x, 1), tupleElement(x, 2), isNull(tupleElement(x, 3)), ifNull(tupleElement(x, 3), '')), groupArray((us, key, bval, t, start)))";
  let sql = `SELECT actor, ${order} AS ev FROM (${scan}) WHERE key > 0 GROUP BY actor HAVING max(start) = 1`;
  // One level of select per use of a computed array: ClickHouse writes an alias out in full
  // wherever it is used, so chained aliases in one select grow exponentially.
  const layer = (cols: string[]) => {
    sql = `SELECT *, ${cols.join(', ')} FROM (${sql})`;
  };
  layer([
    'arrayMap(x -> toInt64(tupleElement(x, 4)), ev) AS T',
    'arrayMap(x -> toInt64(tupleElement(x, 2)), ev) AS K',
    'toInt64(length(ev)) AS cnt',
    'arrayFilter((i, x) -> tupleElement(x, 5) = 1, arrayMap(i -> toInt64(i), arrayEnumerate(ev)), ev) AS J1',
    'arrayMap(x -> tupleElement(x, 3), arrayFilter(x -> tupleElement(x, 5) = 1, ev)) AS ab',
    'arrayMap(x -> toInt64(tupleElement(x, 4)), arrayFilter(x -> tupleElement(x, 5) = 1, ev)) AS at1',
  ]);
  // 18.16 analyses a select again for every level around it, so the levels are as few as the
  // dependencies allow: what each step needs from K alone is computed for all steps at once, and
  // only the walk from one step to the next (J) takes a level per step.
  const later = steps.slice(1);
  // The positions of the i-th step's events (cnt + 1: none), and for each position the next one
  // strictly after it: the (number of them up to it + 1)-th.
  layer([
    `arrayPushBack(T, toInt64(${NEVER})) AS TE`,
    ...later.flatMap((i) => {
      const bit = 2 ** (n - i);
      return [
        `arrayPushBack(arrayFilter((p, k) -> bitAnd(k, ${bit}) != 0, arrayMap(p -> toInt64(p), arrayEnumerate(K)), K), cnt + 1) AS P${i}`,
        `arrayMap(c -> toInt64(c + 1), arrayCumSum(arrayMap(k -> toInt64(bitAnd(k, ${bit}) != 0), K))) AS Q${i}`,
      ];
    }),
  ]);
  if (later.length > 0) {
    layer(later.map((i) => `arrayPushBack(${gather(`P${i}`, `Q${i}`)}, cnt + 1) AS N${i}`));
    for (const i of later) layer([`${gather(`N${i}`, `J${i - 1}`)} AS J${i}`]);
    layer(later.map((i) => `${gather('TE', `J${i}`)} AS at${i}`));
  }
  // Steps within the window from the step-1 event; times never decrease along a walk, so the
  // steps kept are a prefix.
  const level = `arrayMap((${steps.map((i) => `a${i}`).join(', ')}) -> 1${steps
    .slice(1)
    .map((i) => ` + (a${i} <= a1 + ${windowMs})`)
    .join('')}, ${steps.map((i) => `at${i}`).join(', ')}) AS alv`;
  return `SELECT actor, ab, ${steps.map((i) => `at${i}`).join(', ')}, ${level} FROM (${sql})`;
}

/**
 * One row per counted unit: `actor`, `level`, `bval` and `t1`…`tN`. By actors, each actor's
 * attempt of the highest level, the earliest of them; by totals, every attempt.
 */
export function unitsSql(attempts: string, n: number, countBy: 'actors' | 'totals'): string {
  const steps = Array.from({ length: n }, (_, i) => i + 1);
  if (countBy === 'totals') {
    return `SELECT actor, level, bval, ${steps.map((i) => `t${i}`).join(', ')} FROM (${attempts}) ARRAY JOIN alv AS level, ab AS bval, ${steps.map((i) => `at${i} AS t${i}`).join(', ')}`;
  }
  return `SELECT actor, alv[pick] AS level, ab[pick] AS bval, ${steps.map((i) => `at${i}[pick] AS t${i}`).join(', ')}
FROM (SELECT *, indexOf(alv, arrayReduce('max', alv)) AS pick FROM (${attempts}))`;
}
