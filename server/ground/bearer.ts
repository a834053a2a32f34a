// Reading the Bearer credential of an Authorization header: the main API's access tokens and
// personal keys, the ingest keys, the release channel's keys.

/** The Bearer credential of a request, if it has one. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : undefined;
}
