// What every insight kind's codec is: the page's URL query turned into the request body it asks
// (`toRequest`), and a request body, a saved query, turned back into that URL (`toUrl`). Pure: the
// page, the saved insight's link and the tests read the same two functions.

import { decodeList, encodeList } from '../ui/listCodec.js';
import { urlDates } from '../ui/dateRanges.js';
import { filterText, filtersOf, type FilterItem } from './filters.js';

/** A URL query as the router reads it: each value as written (a list still encoded), absent ones undefined. */
export type UrlParams = Readonly<Record<string, string | undefined>>;

/** `Asked`: what toRequest gives, its defaults filled in, where a page relies on them. */
export interface InsightCodec<Body, Asked extends Body = Body> {
  /** Days a page shows when its URL names no dates: the last this many up to today. */
  defaultDays: number;
  /** The request body of the URL's query, its dates resolved on the project's `today`. */
  toRequest(params: UrlParams, today: string): Asked;
  /**
   * The URL query of a body, as the page writes it; with `dateRange` (a rolling range such as
   * last_30_days) the rule stands for the dates, which the page works out on its own day.
   */
  toUrl(body: Body, dateRange?: string | null): UrlParams;
}

/** A value of the URL, `fallback` when absent (an empty value stays empty, as the page reads it). */
export const param = (params: UrlParams, name: string, fallback = ''): string => params[name] ?? fallback;

/** A list of the URL (steps, filters, events left out); an absent one is empty. */
export const listParam = (params: UrlParams, name: string): string[] => decodeList(params[name]);

/** The body's dates of the URL: its rolling range, its fixed dates, or the kind's default days. */
export function requestDates(params: UrlParams, today: string, defaultDays: number): { date_from: string; date_to: string } {
  const dates = urlDates(params, today, defaultDays);
  return { date_from: dates.from, date_to: dates.to };
}

/** The URL's `filter` list as a body's `filters`, left out when empty. */
export function requestFilters(params: UrlParams): { filters?: FilterItem[] } {
  const filters = listParam(params, 'filter');
  return filters.length ? { filters: filtersOf(filters) } : {};
}

/**
 * A body's `filters` as the URL's `filter` list. (The API types an item as unknown, its schema
 * choosing between a segment's name and a filter by the item's type; a body's items are FilterItems.)
 */
export const filterParams = (filters?: readonly unknown[]): string[] | undefined => (filters?.length ? filters.map((f) => filterText(f as FilterItem)) : undefined);

/** A number of a body as the URL writes it. */
export const numberParam = (n: number | undefined): string | undefined => (n === undefined ? undefined : String(n));

/**
 * The URL query of `values`, written as the pages write them: lists through the list codec (one
 * empty item is the empty value, the empty list no value), empty scalars left out. With
 * `dateRange`, `range` replaces the fixed dates (`from`, `to`, and the activity's one `date`).
 */
export function urlOf(values: Record<string, string | string[] | undefined>, dateRange?: string | null): UrlParams {
  const dated = dateRange ? { ...values, range: dateRange, from: undefined, to: undefined, date: undefined } : values;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(dated)) {
    const text = Array.isArray(v) ? encodeList(v) : v || undefined;
    if (text !== undefined) out[k] = text;
  }
  return out;
}

/** The fixed dates of a body, as the URL names them. */
export const dateParams = (body: { date_from?: string; date_to?: string }) => ({ from: body.date_from, to: body.date_to });
