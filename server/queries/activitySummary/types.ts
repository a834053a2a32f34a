// Activity summary: the request parameters, as the OpenAPI schema has checked them, and the
// answer's shape.

export interface ActivitySummaryParams {
  /** The last local day counted (inclusive), normally the last complete one. */
  date_to: string;
  event: string;
}

export interface ActivitySummaryResponse {
  date_to: string;
  event: string;
  dau: number;
  wau: number;
  mau: number;
  dau_mau: number | null;
  /** Mean distinct active days in the 30-day window per MAU actor. */
  usage_frequency: number | null;
  /** Share of MAU actors active on at least two of the 30 days. */
  repeat_activity: number | null;
}

export const WEEK_DAYS = 7;
export const MONTH_DAYS = 30;
