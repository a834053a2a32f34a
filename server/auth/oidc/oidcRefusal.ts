// Why a single sign-on was refused. The reason and its detail go to the server log and the audit
// log; the browser only ever sees 401 `unauthorized`.

export type RefusalReason =
  | 'state_unknown'
  | 'state_expired'
  | 'provider_error'
  | 'code_missing'
  | 'provider_disabled'
  | 'issuer_mismatch'
  | 'provider_unreachable'
  | 'token_exchange_failed'
  | 'id_token_invalid'
  | 'nonce_mismatch'
  | 'userinfo_invalid'
  | 'email_missing'
  | 'email_unverified'
  | 'domain_not_allowed'
  | 'not_a_member';

export class OidcRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly detail: string,
    /** The user the refusal concerns, when one is known. */
    readonly userId?: number,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'OidcRefusal';
  }
}
