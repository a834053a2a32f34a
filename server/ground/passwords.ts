// Password hashing (argon2id) and the complexity rule shared by register, reset and invite accept.

import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Why a password breaks the rule, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (!/\p{Lu}/u.test(password)) return 'must contain an uppercase letter';
  if (!/\p{Nd}/u.test(password)) return 'must contain a digit';
  if (!/[\p{P}\p{S}]/u.test(password)) return 'must contain a punctuation or symbol character';
  return undefined;
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against the stored hash, or against a throwaway hash with the same parameters when there is
 * none (unknown email, account without a password), so both paths cost one argon2 verification.
 */
export async function verifyPasswordEvenly(hash: string | null | undefined, password: string): Promise<boolean> {
  if (hash) return verifyPassword(hash, password);
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}
