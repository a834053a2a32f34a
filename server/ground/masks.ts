// Names and email addresses shown masked: to someone who may learn that they exist, not what they are
// (an organization already on pp at the asker's domain, the address an unsubscribe link is for).

/** First letter plus three asterisks: enough to recognize, not enough to learn the name or its length. */
export function maskName(value: string): string {
  return `${Array.from(value.trim())[0] ?? ''}***`;
}

/** The local part masked like a name; the domain stays, since it is the asker's own. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${maskName(email.slice(0, at))}${email.slice(at)}`;
}
