// The signature algorithms an ID token may use: asymmetric ones only. HS* would let anyone holding the
// client secret mint tokens, and `none` is no signature at all; neither is ever accepted.

export const ID_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;

const ACCEPTED = new Set<string>(ID_TOKEN_ALGORITHMS);

export function isAcceptedAlgorithm(alg: unknown): boolean {
  return typeof alg === 'string' && ACCEPTED.has(alg);
}

/** Key types that can carry one of the accepted algorithms. */
export const SIGNING_KEY_TYPES = new Set(['RSA', 'EC', 'OKP']);
